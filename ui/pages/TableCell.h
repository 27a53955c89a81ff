#pragma once
// A table cell the user can select and copy but not edit.
#include <QTableWidgetItem>

namespace scalelab::ui {

inline QTableWidgetItem* readOnlyCell(const QString& text) {
    auto* i = new QTableWidgetItem(text);
    i->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    return i;
}

} // namespace scalelab::ui
