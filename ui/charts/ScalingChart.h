#pragma once
// The scaling chart: x = clients (linear or log2), y = the chosen metric; per series the means
// joined by a line, error bars, an optional USL curve with N* marked; vertical markers at the
// machine's cores and PUs. Draws ScalingData; computes nothing.
#include "models/ScalingData.h"

#include <QChart>
#include <QColor>

namespace scalelab::ui {

class ErrorBarItem;

// The colour of the series at `index` in its experiment, the same in every view and export
// (Okabe-Ito: told apart with the common colour-vision deficiencies), cycling after eight.
QColor seriesColor(int index);

class ScalingChart : public QChart {
    Q_OBJECT
public:
    ScalingChart();
    // data.markers: dotted lines at the cores and PUs of the machines the runs were measured on.
    void setData(const ScalingData& data, bool logX);
    int errorBarCount() const;
    int errorBarArrowCount() const;  // bar ends beyond the axis, drawn as arrows
    // A ratio chart's y labels ("0.8", "1", "1.25"), bottom up; empty for a linear axis.
    QStringList yTickLabels() const { return yLabels_; }

signals:
    void pointHovered(const QString& tooltip, bool on);

private:
    void clearAll();
    QList<ErrorBarItem*> bars_;
    QStringList yLabels_;
};

} // namespace scalelab::ui
