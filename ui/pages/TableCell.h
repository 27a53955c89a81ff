#pragma once
// Table cells of the result pages: read-only items, and the text of the numbers in them.
#include <QFont>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTableWidgetItem>

#include <optional>

namespace scalelab::ui {

// A cell the user can select and copy but not edit.
inline QTableWidgetItem* readOnlyCell(const QString& text) {
    auto* i = new QTableWidgetItem(text);
    i->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    return i;
}

// A read-only cell of a results table: a figure right-aligned, a name (`number` false) left.
inline QTableWidgetItem* figureCell(const QString& text, bool number = true) {
    auto* item = readOnlyCell(text);
    if (number) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

// A verdict's cell, bold where the change is distinguishable.
inline QTableWidgetItem* verdictCell(const std::string& verdict) {
    auto* item = figureCell(QString::fromStdString(verdict), false);
    if (verdict == "distinguishable") {
        QFont bold = item->font();
        bold.setBold(true);
        item->setFont(bold);
    }
    return item;
}

// "A at 8 clients: 1 of 4 runs have no WHAT (why; why)."; empty when every run has it. `Point`
// has series, clients, runs (a vector), runsWithout and why.
template <class Point>
QString runsWithoutText(const Point& p, const QString& axisText, const QString& what) {
    if (p.runsWithout == 0) return {};
    QStringList why;
    for (const auto& w : p.why) why << QString::fromStdString(w);
    return QObject::tr("%1 at %2: %3 of %4 runs have no %5 (%6).")
        .arg(QString::fromStdString(p.series), axisText)
        .arg(p.runsWithout)
        .arg(static_cast<int>(p.runs.size()) + p.runsWithout)
        .arg(what, why.join(QStringLiteral("; ")));
}

// The table of a results tab (Statements, Waits, CPU profile): no row numbers, one line a row,
// rows as high as their text, so that more rows are in sight.
inline QTableWidget* resultsTable() {
    auto* t = new QTableWidget(0, 0);
    t->verticalHeader()->hide();
    t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 8);
    t->setWordWrap(false);
    return t;
}

// The line under a results tab's table: plain text (series labels are user text), wrapped.
inline QLabel* resultsNote() {
    auto* note = new QLabel;
    note->setTextFormat(Qt::PlainText);
    note->setWordWrap(true);
    return note;
}

// A picture (chart, flame graph) beside its table, the picture the larger part: the table's own
// size hint would take most of the width and leave the picture too narrow for its labels.
inline QSplitter* pictureBesideTable(QWidget* picture, QTableWidget* table) {
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(picture);
    split->addWidget(table);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({600, 400});
    split->setChildrenCollapsible(false);
    return split;
}

// A value a point may not have: "-" when missing, never 0.
inline QString numberOrMissing(const std::optional<double>& v, int decimals, const QString& suffix = {}) {
    return v ? QString::number(*v, 'f', decimals) + suffix : QStringLiteral("-");
}

// A change in percent with its sign: "+4.2%", "-0.3%".
inline QString signedPercent(double v) {
    return QStringLiteral("%1%2%").arg(v >= 0 ? QStringLiteral("+") : QString()).arg(v, 0, 'f', 1);
}

} // namespace scalelab::ui
