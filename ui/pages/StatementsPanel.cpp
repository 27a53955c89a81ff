#include "pages/StatementsPanel.h"

#include "models/ScalingData.h"
#include "pages/PlainText.h"
#include "pages/TableCell.h"
#include "report/StatementText.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace scalelab::ui {
namespace {

// A read-only cell (TableCell.h), a number right-aligned.
QTableWidgetItem* statementCell(const QString& text, bool number = true) {
    auto* item = readOnlyCell(text);
    if (number) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QString ms(double v) { return QString::number(v, 'f', 4); }

QString interval(const PointSummary& s) {
    if (!s.ciLow || !s.ciHigh) return QObject::tr("one run");
    return QStringLiteral("%1%2 .. %3").arg(ms(*s.ciLow), s.ciLowClamped ? QStringLiteral("^") : QString(), ms(*s.ciHigh));
}

} // namespace

StatementsPanel::StatementsPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    auto* controls = new QHBoxLayout;
    series_ = new QComboBox;
    series_->setToolTip(tr("The series whose statements are shown (the candidate when compared)"));
    against_ = new QComboBox;
    against_->setToolTip(tr("Compare each statement's mean time with this series' (the baseline)"));
    clients_ = new QComboBox;
    clients_->setToolTip(tr("The client count"));
    paired_ = new QCheckBox(tr("Paired by round"));
    paired_->setToolTip(tr("Judge each statement's change on the round-by-round differences (as report --paired)"));
    controls->addWidget(new QLabel(tr("Series")));
    controls->addWidget(series_);
    controls->addWidget(new QLabel(tr("against")));
    controls->addWidget(against_);
    controls->addWidget(new QLabel(tr("Clients")));
    controls->addWidget(clients_);
    controls->addWidget(paired_);
    controls->addStretch();
    layout->addLayout(controls);
    table_ = new QTableWidget(0, 0);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 8);  // more statements in sight
    table_->setWordWrap(false);
    layout->addWidget(table_, 1);
    note_ = new QLabel;
    note_->setTextFormat(Qt::PlainText);  // series labels and statements are user and server text
    note_->setWordWrap(true);
    layout->addWidget(note_);
    for (QComboBox* box : {series_, against_, clients_})
        connect(box, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
    connect(paired_, &QCheckBox::toggled, this, [this] { refresh(); });
    // Until a count is picked, the highest is shown as a sweep adds counts (issue 61.7); offer()
    // changes the list with the box's signals blocked, so this is a choice.
    connect(clients_, &QComboBox::currentIndexChanged, this, [this] { clientsChosen_ = true; });
}

void StatementsPanel::offer(QComboBox* box, const QStringList& items, int firstFixed) {
    QStringList current;
    for (int i = firstFixed; i < box->count(); ++i) current << box->itemText(i);
    if (current == items) return;
    QString chosen = box->currentText();
    QSignalBlocker block(box);
    while (box->count() > firstFixed) box->removeItem(box->count() - 1);
    box->addItems(items);
    int at = box->findText(chosen);
    if (box == clients_ && !clientsChosen_) at = -1;  // the highest, until the user picks one
    box->setCurrentIndex(at >= 0 ? at : box == clients_ && box->count() > 0 ? box->count() - 1 : 0);
}

void StatementsPanel::setData(std::vector<PointStatements> points, StatementTexts texts, const std::vector<std::string>& order,
                              PointAxis axis) {
    axis_ = axis;
    clients_->setToolTip(axis == PointAxis::Rate ? tr("The offered rate (tps)") : tr("The client count"));
    points_ = std::move(points);
    texts_ = std::move(texts);
    QStringList series, counts;
    for (const auto& s : order)
        if (std::any_of(points_.begin(), points_.end(), [&](const PointStatements& p) { return p.series == s; }))
            series << QString::fromStdString(s);
    std::vector<int> n;
    for (const auto& p : points_) n.push_back(p.clients);
    std::sort(n.begin(), n.end());
    n.erase(std::unique(n.begin(), n.end()), n.end());
    for (int c : n) counts << QString::number(c);
    if (against_->count() == 0) against_->addItem(tr("(none)"));
    seriesNames_ = series;
    offer(series_, series, 0);
    offer(clients_, counts, 0);
    refresh();
}

const PointStatements* StatementsPanel::find(const std::string& series, int clients) const {
    for (const auto& p : points_)
        if (p.series == series && p.clients == clients) return &p;
    return nullptr;
}

void StatementsPanel::refresh() {
    table_->clear();
    table_->setRowCount(0);
    table_->setColumnCount(0);
    std::string series = series_->currentText().toStdString();
    // "against" offers the other series only (issue 61.8: the series itself was offered, and
    // picking it showed its own table with "Paired by round" enabled).
    QStringList others = seriesNames_;
    others.removeAll(series_->currentText());
    offer(against_, others, 1);
    std::string against = against_->currentIndex() > 0 ? against_->currentText().toStdString() : std::string();
    paired_->setEnabled(!against.empty());
    int clients = clients_->currentText().toInt();
    const PointStatements* point = find(series, clients);
    if (!point) {
        note_->setText(points_.empty() ? tr("No completed runs yet.")
                                       : tr("%1 has no completed run at %2.").arg(series_->currentText(), xText(axis_, clients)));
        return;
    }
    if (!against.empty() && against != series) {
        const PointStatements* base = find(against, clients);
        if (!base) {
            note_->setText(tr("%1 has no completed run at %2.").arg(against_->currentText(), xText(axis_, clients)));
            return;
        }
        showComparison(*base, *point);
        return;
    }
    showTop(*point);
}

namespace {
// Runs without statements, in words; empty when every run has them.
QString withoutText(const PointStatements& p, PointAxis axis) {
    QString text;
    if (p.runsWithout > 0) {
        QStringList why;
        for (const auto& w : p.why) why << QString::fromStdString(w);
        text = QObject::tr("%1 at %2: %3 of %4 runs have no statements (%5).")
                   .arg(QString::fromStdString(p.series), xText(axis, p.clients))
                   .arg(p.runsWithout)
                   .arg(p.runs + p.runsWithout)
                   .arg(why.join(QStringLiteral("; ")));
    }
    if (p.evicted)
        text += (text.isEmpty() ? QString() : QStringLiteral(" ")) +
                QObject::tr("pg_stat_statements evicted entries during a run (pg_stat_statements.max): some statements are missing.");
    return text;
}
} // namespace

void StatementsPanel::showTop(const PointStatements& p) {
    QStringList head{tr("ms/run"), tr("Share"), tr("Calls/tx"), tr("Mean ms"), tr("95% CI"), tr("Rows/call"),
                     tr("Hit/call"), tr("Read/call"), tr("Statement")};
    table_->setColumnCount(head.size());
    table_->setHorizontalHeaderLabels(head);
    auto top = topStatements(p, 0.95);
    for (const auto& s : top) {
        int row = table_->rowCount();
        table_->insertRow(row);
        table_->setItem(row, 0, statementCell(QString::number(s.totalMsPerRun, 'f', 1)));
        table_->setItem(row, 1, statementCell(QString::number(s.sharePct, 'f', 1) + QLatin1Char('%')));
        table_->setItem(row, 2, statementCell(QString::number(s.callsPerTransaction, 'f', 2)));
        table_->setItem(row, 3, statementCell(ms(s.meanMs.mean)));
        table_->setItem(row, 4, statementCell(interval(s.meanMs)));
        table_->setItem(row, 5, statementCell(QString::number(s.rowsPerCall, 'f', 2)));
        table_->setItem(row, 6, statementCell(QString::number(s.hitPerCall, 'f', 1)));
        table_->setItem(row, 7, statementCell(QString::number(s.readPerCall, 'f', 2)));
        auto* text = statementCell(QString::fromStdString(statementLine(texts_, s.queryId, 200)), false);
        auto full = texts_.find(s.queryId);
        // The server's text: shown as written, never as rich text (PlainText.h).
        text->setToolTip(full == texts_.end() ? tr("queryid %1").arg(QString::fromStdString(s.queryId))
                                              : plainToolTip(QString::fromStdString(full->second)));
        table_->setItem(row, 8, text);
    }
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    QString note = p.runs == 0 ? tr("No run of this point recorded statements.")
                               : tr("%1 at %2, %3 runs: each statement's execution time per run, its share of all "
                                    "statements' time, calls per counted transaction, and the mean over runs of each run's "
                                    "mean time with its 95% interval.")
                                     .arg(QString::fromStdString(p.series), xText(axis_, p.clients))
                                     .arg(p.runs);
    QString without = withoutText(p, axis_);
    note_->setText(without.isEmpty() ? note : note + QLatin1Char(' ') + without);
}

void StatementsPanel::showComparison(const PointStatements& a, const PointStatements& b) {
    if (a.runs == 0 || b.runs == 0) {
        note_->setText(withoutText(a.runs == 0 ? a : b, axis_));
        return;
    }
    StatementComparison c = compareStatements(a, b, 0.95, paired_->isChecked());
    QString baseName = QString::fromStdString(a.series), candName = QString::fromStdString(b.series);
    QStringList head{tr("%1 mean ms").arg(baseName), tr("%1 mean ms").arg(candName), tr("Change"), tr("Change interval"),
                     tr("Verdict"), tr("Statement")};
    table_->setColumnCount(head.size());
    table_->setHorizontalHeaderLabels(head);
    for (const auto& ch : c.changes) {
        const Comparison& k = ch.comparison;
        int row = table_->rowCount();
        table_->insertRow(row);
        table_->setItem(row, 0, statementCell(ms(ch.a.meanMs.mean)));
        table_->setItem(row, 1, statementCell(ms(ch.b.meanMs.mean)));
        table_->setItem(row, 2, statementCell(k.percentChange ? QString::asprintf("%+.1f%%", *k.percentChange) : QStringLiteral("-")));
        table_->setItem(row, 3, statementCell(QString::fromStdString(changeIntervalText(k.percentLow, k.percentHigh))));
        auto* verdict = statementCell(QString::fromStdString(k.verdict), false);
        if (k.verdict == "distinguishable") {
            QFont bold = verdict->font();
            bold.setBold(true);
            verdict->setFont(bold);
        }
        table_->setItem(row, 4, verdict);
        auto* text = statementCell(QString::fromStdString(statementLine(texts_, ch.queryId, 200)), false);
        auto full = texts_.find(ch.queryId);
        if (full != texts_.end()) text->setToolTip(plainToolTip(QString::fromStdString(full->second)));
        table_->setItem(row, 5, text);
    }
    auto only = [&](const std::vector<std::string>& ids, const QString& who) {
        for (const auto& id : ids) {
            int row = table_->rowCount();
            table_->insertRow(row);
            table_->setItem(row, 4, statementCell(tr("only %1 ran it").arg(who), false));
            table_->setItem(row, 5, statementCell(QString::fromStdString(statementLine(texts_, id, 200)), false));
        }
    };
    only(c.onlyBaseline, baseName);
    only(c.onlyCandidate, candName);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    QString note = tr("%1 against %2 at %3: each statement's mean time, %4, largest change first; each judged at "
                      "%5% (Bonferroni over %6 statements), so that no real change calls any statement in at most 5% "
                      "of comparisons.")
                       .arg(candName, baseName, xText(axis_, a.clients))
                       .arg(c.paired ? tr("paired by round") : tr("Welch's t-test"))
                       .arg(c.confidence * 100, 0, 'g', 4)
                       .arg(c.changes.size());
    for (const auto* p : {&a, &b})
        if (QString w = withoutText(*p, axis_); !w.isEmpty()) note += QLatin1Char(' ') + w;
    note_->setText(note);
}

} // namespace scalelab::ui
