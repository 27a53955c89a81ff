#include "charts/ErrorBarItem.h"

#include <QChart>
#include <QPainter>

namespace scalelab::ui {

ErrorBarItem::ErrorBarItem(QChart* chart, QAbstractSeries* series, QList<ErrorBar> bars, QColor color)
    : QGraphicsItem(chart), chart_(chart), series_(series), bars_(std::move(bars)), color_(color) {
    setZValue(10);
}

QRectF ErrorBarItem::boundingRect() const { return chart_->plotArea(); }

void ErrorBarItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
    painter->save();
    painter->setClipRect(chart_->plotArea());
    painter->setPen(QPen(color_, 1.5));
    const double cap = 4;
    for (const auto& b : bars_) {
        if (b.high <= b.low) continue;  // one run, or identical runs: nothing to draw
        QPointF top = mapFromParent(chart_->mapToPosition(QPointF(b.x, b.high), series_));
        QPointF bottom = mapFromParent(chart_->mapToPosition(QPointF(b.x, b.low), series_));
        painter->drawLine(top, bottom);
        painter->drawLine(QPointF(top.x() - cap, top.y()), QPointF(top.x() + cap, top.y()));
        painter->drawLine(QPointF(bottom.x() - cap, bottom.y()), QPointF(bottom.x() + cap, bottom.y()));
    }
    painter->restore();
}

} // namespace scalelab::ui
