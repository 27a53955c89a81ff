#include "pages/ProfilePanel.h"

#include "charts/FlameGraphView.h"
#include "models/ScalingData.h"
#include "pages/PointChoice.h"
#include "pages/TableCell.h"
#include "stats/PointGrouping.h"
#include "report/FlameGraph.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace scalelab::ui {
namespace {

QString perKTxText(double v) { return QString::number(v, 'f', 2); }

} // namespace

ProfilePanel::ProfilePanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    choice_ = new PointChoice(tr("The series whose server CPU is shown (B when compared)"),
                              tr("Colour the flame graph by the change against this series (A), per transaction"));
    layout->addWidget(choice_);
    auto* searchRow = new QHBoxLayout;
    search_ = new QLineEdit;
    search_->setPlaceholderText(tr("search functions (a regular expression)"));
    search_->setClearButtonEnabled(true);
    search_->setToolTip(tr("Paints the frames whose name matches, and says the share of the CPU they cover"));
    matched_ = new QLabel;
    searchRow->addWidget(search_, 1);
    searchRow->addWidget(matched_);
    layout->addLayout(searchRow);
    flame_ = new FlameGraphView;
    flame_->setToolTip(tr("Click a frame to zoom to it; click it again, a frame below it, or press Escape to zoom out"));
    auto* area = new QScrollArea;
    area->setWidget(flame_);
    area->setWidgetResizable(true);
    area->setAlignment(Qt::AlignBottom);
    table_ = resultsTable();
    layout->addWidget(pictureBesideTable(area, table_), 1);
    note_ = resultsNote();
    layout->addWidget(note_);
    connect(choice_, &PointChoice::changed, this, [this] { refresh(); });
    connect(search_, &QLineEdit::textChanged, this, [this](const QString& text) {
        QRegularExpression re(text);
        if (!text.isEmpty() && !re.isValid()) {
            flame_->setSearch(QRegularExpression());
            matched_->setText(tr("not a regular expression"));
            return;
        }
        double share = flame_->setSearch(re);
        matched_->setText(text.isEmpty() ? QString() : tr("matched: %1% of the CPU").arg(100 * share, 0, 'f', 1));
    });
    // The root is at the bottom: show it (and the outermost frames) first.
    connect(area->verticalScrollBar(), &QScrollBar::rangeChanged, area,
            [area](int, int max) { area->verticalScrollBar()->setValue(max); });
}

void ProfilePanel::setData(std::vector<PointProfile> points, const std::vector<std::string>& order, PointAxis axis) {
    points_ = std::move(points);
    choice_->offerPoints(points_, order, axis);
    refresh();
}

const PointProfile* ProfilePanel::find(const std::string& series, int x) const { return findPoint(points_, series, x); }

void ProfilePanel::refresh() {
    table_->clear();
    table_->setRowCount(0);
    table_->setColumnCount(0);
    const PointAxis axis = choice_->axis();
    const int x = choice_->x();
    const PointProfile* point = find(choice_->series(), x);
    if (!point) {
        flame_->setLayout({});
        note_->setText(points_.empty() ? tr("No completed runs yet.")
                                       : tr("%1 has no completed run at %2.")
                                             .arg(QString::fromStdString(choice_->series()), xText(axis, x)));
        return;
    }
    const std::string against = choice_->against();
    if (!against.empty()) {
        const PointProfile* base = find(against, x);
        if (!base) {
            flame_->setLayout({});
            note_->setText(tr("%1 has no completed run at %2.").arg(QString::fromStdString(against), xText(axis, x)));
            return;
        }
        showComparison(*base, *point);
    } else {
        showPoint(*point);
    }
    if (!search_->text().isEmpty()) emit search_->textChanged(search_->text());  // paint the new graph's matches
}

void ProfilePanel::showPoint(const PointProfile& p) {
    if (p.runs.empty()) {
        flame_->setLayout({});
        note_->setText(without(p) +
                       tr(" Check \"where the server's CPU goes\" on the Setup page ($.diagnostics.cpu_profile) to record one."));
        return;
    }
    FlameLayout layout = layoutFlame(p.perKTx());
    flame_->setLayout(layout, layout.total > 0 ? static_cast<double>(p.samples()) / layout.total : 0);
    // The figures first, the function (the widest) last: the numbers stay in sight in a narrow table.
    QStringList head{tr("Self /1k tx"), tr("Self share"), tr("Total /1k tx"), tr("Function")};
    table_->setColumnCount(head.size());
    table_->setHorizontalHeaderLabels(head);
    for (const auto& f : topFunctions(p)) {
        int row = table_->rowCount();
        table_->insertRow(row);
        table_->setItem(row, 0, figureCell(perKTxText(f.selfPerKTx)));
        table_->setItem(row, 1, figureCell(QString::number(f.selfSharePct, 'f', 1) + QLatin1Char('%')));
        table_->setItem(row, 2, figureCell(perKTxText(f.totalPerKTx)));
        table_->setItem(row, 3, figureCell(QString::fromStdString(f.function), false));
    }
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    QString note = tr("%1 at %2, %3 runs, %4 samples: the server's processes on CPU (perf), per 1,000 transactions; "
                      "each function's own time and with its callees.")
                       .arg(QString::fromStdString(p.series), xText(choice_->axis(), p.clients))
                       .arg(p.runs.size())
                       .arg(p.samples());
    if (QString w = without(p); !w.isEmpty()) note += QLatin1Char(' ') + w;
    note_->setText(note);
}

void ProfilePanel::showComparison(const PointProfile& a, const PointProfile& b) {
    if (a.runs.empty() || b.runs.empty()) {
        flame_->setLayout({});
        note_->setText(without(a.runs.empty() ? a : b));
        return;
    }
    flame_->setLayout(layoutFlameDiff(a.perKTx(), b.perKTx()));
    ProfileComparison c = compareProfiles(a, b, 0.95, choice_->paired());
    QString baseName = QString::fromStdString(a.series), candName = QString::fromStdString(b.series);
    QStringList head{tr("%1 /1k tx").arg(baseName), tr("%1 /1k tx").arg(candName), tr("Change"), tr("Interval"),
                     tr("Verdict"), tr("Function")};
    table_->setColumnCount(head.size());
    table_->setHorizontalHeaderLabels(head);
    for (const auto& ch : c.changes) {
        const Comparison& k = ch.comparison;
        int row = table_->rowCount();
        table_->insertRow(row);
        table_->setItem(row, 0, figureCell(perKTxText(ch.aPerKTx)));
        table_->setItem(row, 1, figureCell(perKTxText(ch.bPerKTx)));
        table_->setItem(row, 2, figureCell(QString::asprintf("%+.2f", ch.bPerKTx - ch.aPerKTx)));
        table_->setItem(row, 3, figureCell(k.diffLow && k.diffHigh ? QString::asprintf("%+.2f .. %+.2f", *k.diffLow, *k.diffHigh)
                                                                    : tr("one round a side")));
        table_->setItem(row, 4, verdictCell(k.verdict));
        table_->setItem(row, 5, figureCell(QString::fromStdString(ch.function), false));
    }
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    QString note = tr("%1 against %2 at %3: the flame graph is %1's, red where it spends more CPU per transaction than "
                      "%2, blue where less. The table: self time per 1,000 transactions, %4, each judged at %5% "
                      "(Bonferroni over the %6 functions with 1% or more of either side's samples).")
                       .arg(candName, baseName, xText(choice_->axis(), a.clients))
                       .arg(c.paired ? tr("paired by round") : tr("Welch's t-test"))
                       .arg(c.confidence * 100, 0, 'g', 4)
                       .arg(c.judged);
    for (const auto* p : {&a, &b})
        if (QString w = without(*p); !w.isEmpty()) note += QLatin1Char(' ') + w;
    note_->setText(note);
}

QString ProfilePanel::without(const PointProfile& p) const {
    return runsWithoutText(p, xText(choice_->axis(), p.clients), tr("CPU profile"));
}

} // namespace scalelab::ui
