#pragma once
// Table cells of the result pages: read-only items, and the text of the numbers in them.
#include <QFont>
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

// A value a point may not have: "-" when missing, never 0.
inline QString numberOrMissing(const std::optional<double>& v, int decimals, const QString& suffix = {}) {
    return v ? QString::number(*v, 'f', decimals) + suffix : QStringLiteral("-");
}

// A change in percent with its sign: "+4.2%", "-0.3%".
inline QString signedPercent(double v) {
    return QStringLiteral("%1%2%").arg(v >= 0 ? QStringLiteral("+") : QString()).arg(v, 0, 'f', 1);
}

} // namespace scalelab::ui
