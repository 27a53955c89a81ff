#include "charts/PointLabelItem.h"

#include <QChart>
#include <QPainter>

namespace scalelab::ui {

PointLabelItem::PointLabelItem(QChart* chart, QAbstractSeries* series, QList<PointLabel> labels, QColor color)
    : QGraphicsItem(chart), chart_(chart), series_(series), labels_(std::move(labels)), color_(color) {
    setZValue(11);
}

QRectF PointLabelItem::boundingRect() const { return chart_->plotArea(); }

QStringList PointLabelItem::texts() const {
    QStringList out;
    for (const auto& l : labels_) out << l.text;
    return out;
}

void PointLabelItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
    painter->save();
    const QRectF plot = mapRectFromParent(chart_->plotArea());
    QFont font = chart_->font();
    font.setPointSizeF(font.pointSizeF() * 0.85);
    painter->setFont(font);
    painter->setPen(color_.darker(130));
    const QFontMetricsF metrics(font);
    for (const auto& l : labels_) {
        QPointF p = mapFromParent(chart_->mapToPosition(l.at, series_));
        if (!plot.contains(p)) continue;
        // Up and to the left of the point, kept inside the plot (an SVG does not clip).
        QRectF box(p.x() - metrics.horizontalAdvance(l.text) - 5, p.y() - metrics.height() - 3,
                   metrics.horizontalAdvance(l.text) + 2, metrics.height());
        if (box.left() < plot.left()) box.moveLeft(p.x() + 5);
        if (box.top() < plot.top()) box.moveTop(p.y() + 3);
        painter->drawText(box, Qt::AlignCenter, l.text);
    }
    painter->restore();
}

} // namespace scalelab::ui
