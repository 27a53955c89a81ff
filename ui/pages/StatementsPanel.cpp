#include "pages/StatementsPanel.h"

#include "models/ScalingData.h"
#include "pages/PlainText.h"
#include "pages/PointChoice.h"
#include "pages/TableCell.h"
#include "report/StatementText.h"
#include "stats/PointGrouping.h"

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

QString ms(double v) { return QString::number(v, 'f', 4); }

QString interval(const PointSummary& s) {
    if (!s.ciLow || !s.ciHigh) return QObject::tr("one run");
    return QStringLiteral("%1%2 .. %3").arg(ms(*s.ciLow), s.ciLowClamped ? QStringLiteral("^") : QString(), ms(*s.ciHigh));
}

} // namespace

StatementsPanel::StatementsPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    choice_ = new PointChoice(tr("The series whose statements are shown (the candidate when compared)"),
                              tr("Compare each statement's mean time with this series' (the baseline)"));
    layout->addWidget(choice_);
    table_ = resultsTable();
    layout->addWidget(table_, 1);
    note_ = resultsNote();  // series labels and statements are user and server text
    layout->addWidget(note_);
    connect(choice_, &PointChoice::changed, this, [this] { refresh(); });
}

QComboBox* StatementsPanel::seriesCombo() const { return choice_->seriesCombo(); }
QComboBox* StatementsPanel::againstCombo() const { return choice_->againstCombo(); }
QComboBox* StatementsPanel::clientsCombo() const { return choice_->xCombo(); }
QCheckBox* StatementsPanel::pairedBox() const { return choice_->pairedBox(); }

void StatementsPanel::setData(std::vector<PointStatements> points, StatementTexts texts, const std::vector<std::string>& order,
                              PointAxis axis) {
    axis_ = axis;
    points_ = std::move(points);
    texts_ = std::move(texts);
    choice_->offerPoints(points_, order, axis);
    refresh();
}

const PointStatements* StatementsPanel::find(const std::string& series, int clients) const {
    return findPoint(points_, series, clients);
}

void StatementsPanel::refresh() {
    table_->clear();
    table_->setRowCount(0);
    table_->setColumnCount(0);
    // "against" offers the other series only (issue 61.8; PointChoice), "Paired by round" only then.
    std::string series = choice_->series();
    std::string against = choice_->against();
    int clients = choice_->x();
    const PointStatements* point = find(series, clients);
    if (!point) {
        note_->setText(points_.empty() ? tr("No completed runs yet.")
                                       : tr("%1 has no completed run at %2.").arg(QString::fromStdString(series), xText(axis_, clients)));
        return;
    }
    if (!against.empty() && against != series) {
        const PointStatements* base = find(against, clients);
        if (!base) {
            note_->setText(tr("%1 has no completed run at %2.").arg(QString::fromStdString(against), xText(axis_, clients)));
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
        table_->setItem(row, 0, figureCell(QString::number(s.totalMsPerRun, 'f', 1)));
        table_->setItem(row, 1, figureCell(QString::number(s.sharePct, 'f', 1) + QLatin1Char('%')));
        table_->setItem(row, 2, figureCell(QString::number(s.callsPerTransaction, 'f', 2)));
        table_->setItem(row, 3, figureCell(ms(s.meanMs.mean)));
        table_->setItem(row, 4, figureCell(interval(s.meanMs)));
        table_->setItem(row, 5, figureCell(QString::number(s.rowsPerCall, 'f', 2)));
        table_->setItem(row, 6, figureCell(QString::number(s.hitPerCall, 'f', 1)));
        table_->setItem(row, 7, figureCell(QString::number(s.readPerCall, 'f', 2)));
        auto* text = figureCell(QString::fromStdString(statementLine(texts_, s.queryId, 200)), false);
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
    StatementComparison c = compareStatements(a, b, 0.95, choice_->paired());
    QString baseName = QString::fromStdString(a.series), candName = QString::fromStdString(b.series);
    QStringList head{tr("%1 mean ms").arg(baseName), tr("%1 mean ms").arg(candName), tr("Change"), tr("Change interval"),
                     tr("Verdict"), tr("Statement")};
    table_->setColumnCount(head.size());
    table_->setHorizontalHeaderLabels(head);
    for (const auto& ch : c.changes) {
        const Comparison& k = ch.comparison;
        int row = table_->rowCount();
        table_->insertRow(row);
        table_->setItem(row, 0, figureCell(ms(ch.a.meanMs.mean)));
        table_->setItem(row, 1, figureCell(ms(ch.b.meanMs.mean)));
        table_->setItem(row, 2, figureCell(k.percentChange ? QString::asprintf("%+.1f%%", *k.percentChange) : QStringLiteral("-")));
        table_->setItem(row, 3, figureCell(QString::fromStdString(changeIntervalText(k.percentLow, k.percentHigh))));
        table_->setItem(row, 4, verdictCell(k.verdict));
        auto* text = figureCell(QString::fromStdString(statementLine(texts_, ch.queryId, 200)), false);
        auto full = texts_.find(ch.queryId);
        if (full != texts_.end()) text->setToolTip(plainToolTip(QString::fromStdString(full->second)));
        table_->setItem(row, 5, text);
    }
    auto only = [&](const std::vector<std::string>& ids, const QString& who) {
        for (const auto& id : ids) {
            int row = table_->rowCount();
            table_->insertRow(row);
            table_->setItem(row, 4, figureCell(tr("only %1 ran it").arg(who), false));
            table_->setItem(row, 5, figureCell(QString::fromStdString(statementLine(texts_, id, 200)), false));
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
