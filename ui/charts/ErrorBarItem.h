#pragma once
// Error bars for a scatter series: Qt Charts has no error-bar series, so this item draws a
// vertical bar with caps per point, in the chart's value coordinates, above the plot. A bar
// never leaves the plot area, even where the painter cannot clip (an SVG generator ignores the
// clip): an end beyond it stops at the edge as an arrow.
#include <QColor>
#include <QGraphicsItem>
#include <QList>

class QChart;
class QAbstractSeries;

namespace scalelab::ui {

struct ErrorBar {
    double x, low, high;
    // The interval goes on beyond the axis at that end: drawn as an arrow at the plot's edge.
    bool lowBeyond = false, highBeyond = false;
};

class ErrorBarItem : public QGraphicsItem {
public:
    ErrorBarItem(QChart* chart, QAbstractSeries* series, QList<ErrorBar> bars, QColor color);
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) override;
    int barCount() const { return static_cast<int>(bars_.size()); }
    int arrowCount() const;  // bar ends that go on beyond the axis

private:
    QChart* chart_;
    QAbstractSeries* series_;
    QList<ErrorBar> bars_;
    QColor color_;
};

} // namespace scalelab::ui
