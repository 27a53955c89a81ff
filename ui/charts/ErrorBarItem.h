#pragma once
// Error bars for a scatter series: Qt Charts has no error-bar series, so this item draws a
// vertical bar with caps per point, in the chart's value coordinates, above the plot.
#include <QColor>
#include <QGraphicsItem>
#include <QList>

class QChart;
class QAbstractSeries;

namespace scalelab::ui {

struct ErrorBar {
    double x, low, high;
};

class ErrorBarItem : public QGraphicsItem {
public:
    ErrorBarItem(QChart* chart, QAbstractSeries* series, QList<ErrorBar> bars, QColor color);
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) override;
    int barCount() const { return static_cast<int>(bars_.size()); }

private:
    QChart* chart_;
    QAbstractSeries* series_;
    QList<ErrorBar> bars_;
    QColor color_;
};

} // namespace scalelab::ui
