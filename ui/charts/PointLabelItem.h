#pragma once
// Text beside points, in the chart's value coordinates: Qt Charts labels a point only with its
// own coordinates, and the latency-versus-throughput chart labels each with the rate it was
// offered (or its client count). One item holds every curve's labels, so that they are placed
// together: two curves' "500" at nearly the same point no longer print over each other.
#include <QColor>
#include <QGraphicsItem>
#include <QList>
#include <QPointF>
#include <QRectF>
#include <QString>

class QChart;
class QAbstractSeries;

namespace scalelab::ui {

struct PointLabel {
    QPointF at;     // in values
    QString text;
    QColor color;   // its curve's
};

// Where a label of `size` goes beside the point `p` (pixels): the first of up-left, up-right,
// down-right, down-left (then the same a line further out) that lies inside `plot` and overlaps
// neither a label already placed nor a point's marker (`points`, a box each); if none is free,
// the first inside the plot. Pure, for tests.
QRectF placeLabel(QPointF p, QSizeF size, const QRectF& plot, const QList<QRectF>& placed, const QList<QRectF>& points);

class PointLabelItem : public QGraphicsItem {
public:
    // `series`: any series on the chart's axes (the values are mapped through it).
    PointLabelItem(QChart* chart, QAbstractSeries* series, QList<PointLabel> labels);
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) override;
    QStringList texts() const;

private:
    QChart* chart_;
    QAbstractSeries* series_;
    QList<PointLabel> labels_;
};

} // namespace scalelab::ui
