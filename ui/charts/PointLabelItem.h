#pragma once
// Text beside points of a series, in the chart's value coordinates: Qt Charts labels a point
// only with its own coordinates, and the latency-versus-throughput chart labels each with the
// rate it was offered (or its client count).
#include <QColor>
#include <QGraphicsItem>
#include <QList>
#include <QPointF>
#include <QString>

class QChart;
class QAbstractSeries;

namespace scalelab::ui {

struct PointLabel {
    QPointF at;     // in values
    QString text;
};

class PointLabelItem : public QGraphicsItem {
public:
    PointLabelItem(QChart* chart, QAbstractSeries* series, QList<PointLabel> labels, QColor color);
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) override;
    QStringList texts() const;

private:
    QChart* chart_;
    QAbstractSeries* series_;
    QList<PointLabel> labels_;
    QColor color_;
};

} // namespace scalelab::ui
