#pragma once
// The latency distribution chart: x = "nines" (p0, p90, p99, p99.9 ...: -log10(1 - q), the
// percentile spectrum as HdrHistogram plots it), y = latency in ms on a log axis; per series the
// merged curve, and each round's own curve thin and pale behind it. Draws DistributionData;
// computes nothing.
#include "models/DistributionData.h"

#include <QChart>

namespace scalelab::ui {

class DistributionChart : public QChart {
    Q_OBJECT
public:
    DistributionChart();
    void setData(const DistributionData& data);
    QStringList xTickLabels() const { return xLabels_; }

private:
    QStringList xLabels_;
};

} // namespace scalelab::ui
