#pragma once
// The scaling chart as pages see it: a widget that draws ScalingData. Qt Charts stays inside
// charts/ (pages include no Qt Charts header, directly or through this one); exports reach the
// chart itself through chart().
#include "models/ScalingData.h"

#include <QSize>
#include <QStringList>
#include <QWidget>

class QChart;

namespace scalelab::ui {

class ScalingChart;

class ScalingChartView : public QWidget {
    Q_OBJECT
public:
    explicit ScalingChartView(QSize minimum, QWidget* parent = nullptr);

    void setData(const ScalingData& scaling, bool logX);
    int errorBarCount() const;
    int errorBarArrowCount() const;  // interval ends beyond the axis, drawn as arrows to the edge
    QStringList yTickLabels() const;  // a ratio chart's labels; empty for a linear axis
    QStringList seriesNames() const;  // of every series drawn (lines, points, fits, markers)
    QChart* chart() const;            // for ChartExport

signals:
    void pointHovered(const QString& tooltip, bool on);

private:
    ScalingChart* chart_;
};

} // namespace scalelab::ui
