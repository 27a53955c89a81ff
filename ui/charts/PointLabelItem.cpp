#include "charts/PointLabelItem.h"

#include <QChart>
#include <QPainter>

#include <optional>

namespace scalelab::ui {

QRectF placeLabel(QPointF p, QSizeF size, const QRectF& plot, const QList<QRectF>& placed, const QList<QRectF>& points) {
    const double w = size.width(), h = size.height();
    const QPointF offsets[] = {{-w - 5, -h - 3},     {5, -h - 3},     {5, 3},     {-w - 5, 3},
                               {-w - 5, -2 * h - 3}, {5, -2 * h - 3}, {5, h + 3}, {-w - 5, h + 3}};
    std::optional<QRectF> firstInside;
    for (const QPointF& o : offsets) {
        QRectF box(p + o, size);
        if (!plot.contains(box)) continue;
        if (!firstInside) firstInside = box;
        auto hits = [&](const QList<QRectF>& boxes) {
            for (const QRectF& b : boxes)
                if (b.intersects(box)) return true;
            return false;
        };
        if (!hits(placed) && !hits(points)) return box;
    }
    if (firstInside) return *firstInside;
    // Not even one place inside (a point at a corner of a small plot): up-left, moved inside.
    QRectF box(p + offsets[0], size);
    if (box.left() < plot.left()) box.moveLeft(p.x() + 5);
    if (box.top() < plot.top()) box.moveTop(p.y() + 3);
    return box;
}

PointLabelItem::PointLabelItem(QChart* chart, QAbstractSeries* series, QList<PointLabel> labels)
    : QGraphicsItem(chart), chart_(chart), series_(series), labels_(std::move(labels)) {
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
    const QFontMetricsF metrics(font);
    // Every point's dot (8 px) is kept clear of every label; a label at its own point's up-left
    // corner clears it by a pixel.
    QList<QPointF> at;
    QList<QRectF> points;
    for (const auto& l : labels_) {
        at.append(mapFromParent(chart_->mapToPosition(l.at, series_)));
        points.append(QRectF(at.back() - QPointF(4, 4), QSizeF(8, 8)));
    }
    QList<QRectF> placed;
    for (int i = 0; i < labels_.size(); ++i) {
        const PointLabel& l = labels_[i];
        if (!plot.contains(at[i])) continue;
        // Inside the plot: an SVG does not clip.
        QRectF box = placeLabel(at[i], QSizeF(metrics.horizontalAdvance(l.text) + 2, metrics.height()), plot, placed, points);
        placed.append(box);
        painter->setPen(l.color.darker(130));
        painter->drawText(box, Qt::AlignCenter, l.text);
    }
    painter->restore();
}

} // namespace scalelab::ui
