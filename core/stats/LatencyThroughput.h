#pragma once
// Latency against throughput, the hockey stick: per point, the mean achieved tps of its runs and
// the mean of their latency percentile, with how many of them fell below the offered rate (the
// knee: from there latency is that of a queue) and how many skipped transactions under pgbench's
// -L (the limit began to shed load). Of the runs that count in points.
#include "stats/PointAxis.h"
#include "stats/RoundSpread.h"
#include "store/ExperimentStore.h"

#include <string>
#include <vector>

namespace scalelab {

struct LatencyThroughputPoint {
    std::string series;
    int clients = 0;       // the point's x (an offered rate when the runs were put on the rate axis)
    int runs = 0;          // runs with both a tps and the percentile
    double tps = 0;        // mean achieved tps
    double latencyMs = 0;  // mean of the runs' percentile
    int belowRate = 0;     // runs flagged below-rate
    int skipping = 0;      // runs that skipped transactions (-L)
};

// Series in `order`, each point's x ascending; a point without such a run is left out.
std::vector<LatencyThroughputPoint> latencyThroughput(const std::vector<RunRecord>& runs,
                                                      const std::vector<std::string>& order, LatencyPercentile p);

// Where a curve's knee and skips begin, in words ("async commit: below the offered rate from
// 4000 tps offered (3 of 3 runs there)"), a line per series that has either; `axis`: what the
// points' x is.
std::vector<std::string> kneeNotes(const std::vector<LatencyThroughputPoint>& points, PointAxis axis);

} // namespace scalelab
