#pragma once
// Table cells of the result pages: read-only items, and the text of the numbers in them.
#include <QString>
#include <QTableWidgetItem>

#include <optional>

namespace scalelab::ui {

// A cell the user can select and copy but not edit.
inline QTableWidgetItem* readOnlyCell(const QString& text) {
    auto* i = new QTableWidgetItem(text);
    i->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    return i;
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
