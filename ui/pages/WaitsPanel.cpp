#include "pages/WaitsPanel.h"

#include "charts/WaitsChartView.h"
#include "models/ScalingData.h"
#include "models/WaitsData.h"
#include "pages/PointChoice.h"
#include "pages/TableCell.h"
#include "stats/PointGrouping.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace scalelab::ui {
namespace {

QString msText(double v) { return QString::number(v, 'f', 4); }

} // namespace

WaitsPanel::WaitsPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    choice_ = new PointChoice(tr("The series whose waits are drawn (B when compared)"),
                              tr("List the events whose wait per transaction changed against this series (A)"));
    layout->addWidget(choice_);
    chart_ = new WaitsChartView(QSize(0, 160));
    table_ = resultsTable();
    layout->addWidget(pictureBesideTable(chart_, table_), 1);
    note_ = resultsNote();
    layout->addWidget(note_);
    connect(choice_, &PointChoice::changed, this, [this] { refresh(); });
}

void WaitsPanel::setData(std::vector<PointWaits> points, const std::vector<std::string>& order, PointAxis axis) {
    points_ = std::move(points);
    choice_->offerPoints(points_, order, axis);
    refresh();
}

const PointWaits* WaitsPanel::find(const std::string& series, int x) const { return findPoint(points_, series, x); }

void WaitsPanel::refresh() {
    table_->clear();
    table_->setRowCount(0);
    table_->setColumnCount(0);
    const PointAxis axis = choice_->axis();
    const std::string series = choice_->series();
    chart_->setData(waitsStack(points_, series),
                    tr("%1: average active sessions by wait event").arg(QString::fromStdString(series)));
    const int x = choice_->x();
    const PointWaits* point = find(series, x);
    if (!point) {
        note_->setText(points_.empty() ? tr("No completed runs yet.")
                                       : tr("%1 has no completed run at %2.").arg(QString::fromStdString(series), xText(axis, x)));
        return;
    }
    const std::string against = choice_->against();
    if (against.empty()) return showPoint(*point);
    const PointWaits* base = find(against, x);
    if (!base) {
        note_->setText(tr("%1 has no completed run at %2.").arg(QString::fromStdString(against), xText(axis, x)));
        return;
    }
    showComparison(*base, *point);
}

void WaitsPanel::showPoint(const PointWaits& p) {
    if (p.runs.empty()) {
        note_->setText(without(p));
        return;
    }
    QStringList head{tr("Wait event"), tr("Sessions"), tr("Share"), tr("ms/tx"), tr("95% CI")};
    table_->setColumnCount(head.size());
    table_->setHorizontalHeaderLabels(head);
    for (const auto& e : pointWaitSummaries(p, 0.95)) {
        int row = table_->rowCount();
        table_->insertRow(row);
        table_->setItem(row, 0, figureCell(QString::fromStdString(e.event), false));
        table_->setItem(row, 1, figureCell(QString::number(e.sessions, 'f', 2)));
        table_->setItem(row, 2, figureCell(QString::number(e.sharePct, 'f', 1) + QLatin1Char('%')));
        table_->setItem(row, 3, figureCell(msText(e.msPerTx.mean)));
        table_->setItem(row, 4, figureCell(e.msPerTx.ciLow && e.msPerTx.ciHigh
                                             ? QStringLiteral("%1%2 .. %3")
                                                   .arg(msText(*e.msPerTx.ciLow), e.msPerTx.ciLowClamped ? QStringLiteral("^") : QString(),
                                                        msText(*e.msPerTx.ciHigh))
                                             : tr("one run")));
    }
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    QString note = tr("%1 at %2, %3 runs (%4): the load's sessions inside a transaction by what they waited on, and "
                      "each event's wait time per transaction.")
                       .arg(QString::fromStdString(p.series), xText(choice_->axis(), p.clients))
                       .arg(p.runs.size())
                       .arg(QString::fromStdString(p.runs.front().source));
    auto others = otherBackendWaits(p);
    if (!others.empty()) {
        QStringList busy;
        for (size_t i = 0; i < others.size() && i < 4; ++i)
            busy << QStringLiteral("%1 %2").arg(QString::fromStdString(others[i].first)).arg(others[i].second, 0, 'f', 2);
        note += QLatin1Char(' ') + tr("Other backends (average busy): %1.").arg(busy.join(QStringLiteral(", ")));
    }
    if (QString w = without(p); !w.isEmpty()) note += QLatin1Char(' ') + w;
    note_->setText(note);
}

void WaitsPanel::showComparison(const PointWaits& a, const PointWaits& b) {
    if (a.runs.empty() || b.runs.empty()) {
        note_->setText(without(a.runs.empty() ? a : b));
        return;
    }
    WaitComparison c = compareWaits(a, b, 0.95, choice_->paired());
    QString baseName = QString::fromStdString(a.series), candName = QString::fromStdString(b.series);
    QStringList head{tr("Wait event"), tr("%1 ms/tx").arg(baseName), tr("%1 ms/tx").arg(candName), tr("Change"),
                     tr("Interval"), tr("Verdict")};
    table_->setColumnCount(head.size());
    table_->setHorizontalHeaderLabels(head);
    for (const auto& ch : c.changes) {
        const Comparison& k = ch.comparison;
        int row = table_->rowCount();
        table_->insertRow(row);
        table_->setItem(row, 0, figureCell(QString::fromStdString(ch.event), false));
        table_->setItem(row, 1, figureCell(msText(ch.a.msPerTx.mean)));
        table_->setItem(row, 2, figureCell(msText(ch.b.msPerTx.mean)));
        table_->setItem(row, 3, figureCell(QString::asprintf("%+.4f", k.difference)));
        table_->setItem(row, 4, figureCell(k.diffLow && k.diffHigh ? QString::asprintf("%+.4f .. %+.4f", *k.diffLow, *k.diffHigh)
                                                                 : tr("too few runs")));
        table_->setItem(row, 5, verdictCell(k.verdict));
    }
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    QString note = tr("%1 against %2 at %3: each wait event's time per transaction, %4, largest change first; each "
                      "judged at %5% (Bonferroni over %6 events).")
                       .arg(candName, baseName, xText(choice_->axis(), a.clients))
                       .arg(c.paired ? tr("paired by round") : tr("Welch's t-test"))
                       .arg(c.confidence * 100, 0, 'g', 4)
                       .arg(c.changes.size());
    if (!c.note.empty()) note += QLatin1Char(' ') + tr("Note: %1.").arg(QString::fromStdString(c.note));
    for (const auto* p : {&a, &b})
        if (QString w = without(*p); !w.isEmpty()) note += QLatin1Char(' ') + w;
    note_->setText(note);
}

QString WaitsPanel::without(const PointWaits& p) const {
    return runsWithoutText(p, xText(choice_->axis(), p.clients), tr("waits"));
}

} // namespace scalelab::ui
