#pragma once
// Latency against throughput: x = achieved tps, y = a latency percentile (ms, linear or log10)
// or another run metric (CPU, logical reads);
// per series its points joined in the order of their offered rate (or client count), each
// labelled with it; squares where runs fell below the offered rate (the knee), triangles where
// -L skipped transactions. Draws LatencyThroughputData; computes nothing.
#include "models/LatencyThroughputData.h"

#include <QChart>

namespace scalelab::ui {

class PointLabelItem;

class LatencyThroughputChart : public QChart {
    Q_OBJECT
public:
    LatencyThroughputChart();
    void setData(const LatencyThroughputData& data, bool logY);
    QStringList pointLabels() const;  // every point's label, curve by curve
    int kneeMarkers() const { return knees_; }
    int skipMarkers() const { return skips_; }

private:
    QList<PointLabelItem*> labels_;
    int knees_ = 0, skips_ = 0;
};

} // namespace scalelab::ui
