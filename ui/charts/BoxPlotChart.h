#pragma once
// Box plots of a latency percentile across rounds: x = client counts (categories), y = ms; per
// series and client count a box from the first to the third quartile of its rounds, the median
// across it, whiskers to the least and greatest round; the series side by side at each count.
// Draws BoxPlotData; computes nothing.
#include "models/BoxPlotData.h"

#include <QChart>

namespace scalelab::ui {

class BoxPlotChart : public QChart {
    Q_OBJECT
public:
    BoxPlotChart();
    void setData(const BoxPlotData& data);
    int boxCount() const { return boxes_; }
    QStringList xTickLabels() const { return xLabels_; }

private:
    int boxes_ = 0;
    QStringList xLabels_;
};

} // namespace scalelab::ui
