#include "charts/ErrorBarItem.h"

#include <QChart>
#include <QPainter>

#include <algorithm>

namespace scalelab::ui {

ErrorBarItem::ErrorBarItem(QChart* chart, QAbstractSeries* series, QList<ErrorBar> bars, QColor color)
    : QGraphicsItem(chart), chart_(chart), series_(series), bars_(std::move(bars)), color_(color) {
    setZValue(10);
}

QRectF ErrorBarItem::boundingRect() const { return chart_->plotArea(); }

int ErrorBarItem::arrowCount() const {
    int n = 0;
    for (const auto& b : bars_) n += int(b.lowBeyond) + int(b.highBeyond);
    return n;
}

void ErrorBarItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
    painter->save();
    const QRectF plot = mapRectFromParent(chart_->plotArea());
    painter->setClipRect(plot);
    painter->setPen(QPen(color_, 1.5));
    const double cap = 4;
    // A cap across the end, or an arrow head pointing on (up: -1, down: +1) at the edge.
    auto end = [&](QPointF at, bool beyond, double direction) {
        if (beyond)
            painter->drawPolyline(QPolygonF{{at.x() - cap, at.y() - direction * cap * 1.5}, at,
                                            {at.x() + cap, at.y() - direction * cap * 1.5}});
        else
            painter->drawLine(QPointF(at.x() - cap, at.y()), QPointF(at.x() + cap, at.y()));
    };
    for (const auto& b : bars_) {
        if (b.high <= b.low) continue;  // one run, or identical runs: nothing to draw
        QPointF top = mapFromParent(chart_->mapToPosition(QPointF(b.x, b.high), series_));
        QPointF bottom = mapFromParent(chart_->mapToPosition(QPointF(b.x, b.low), series_));
        if (top.x() < plot.left() || top.x() > plot.right()) continue;
        // Clamped by hand: QSvgGenerator draws outside a clip rectangle (issue 32.4).
        bool topBeyond = b.highBeyond || top.y() < plot.top(), bottomBeyond = b.lowBeyond || bottom.y() > plot.bottom();
        top.setY(std::clamp(top.y(), plot.top(), plot.bottom()));
        bottom.setY(std::clamp(bottom.y(), plot.top(), plot.bottom()));
        painter->drawLine(top, bottom);
        end(top, topBeyond, -1);
        end(bottom, bottomBeyond, +1);
    }
    painter->restore();
}

} // namespace scalelab::ui
