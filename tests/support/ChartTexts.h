#pragma once
// What a Qt chart shows as text: for tests that check a chart is readable on a laptop screen.
#include <QChart>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QStringList>

namespace scalelab::test {

// Every visible text of the chart that Qt Charts shortened to fit ("0...", "logical re..."):
// none on a readable chart.
inline QStringList elidedTexts(QChart* chart) {
    QStringList out;
    if (!chart->scene()) return out;
    for (QGraphicsItem* item : chart->scene()->items()) {
        QString text;
        if (auto* rich = dynamic_cast<QGraphicsTextItem*>(item)) text = rich->toPlainText();
        else if (auto* simple = dynamic_cast<QGraphicsSimpleTextItem*>(item)) text = simple->text();
        if (item->isVisible() && (text.contains(QStringLiteral("...")) || text.contains(QChar(0x2026)))) out << text;
    }
    return out;
}

} // namespace scalelab::test
