#pragma once
// Latency against throughput, the hockey stick: per point, the mean achieved tps of its runs and
// the mean of their latency percentile, with how many of them fell below the offered rate (the
// knee: from there latency is that of a queue) and how many skipped transactions under pgbench's
// -L (the limit began to shed load). Of the runs that count in points. The y may be another
// run metric (CPU, logical reads): achieved tps as the x of any y.
#include "stats/ExperimentPoints.h"
#include "stats/PointAxis.h"
#include "stats/RoundSpread.h"
#include "store/RunRecord.h"

#include <optional>
#include <string>
#include <vector>

namespace scalelab {

// What is drawn against achieved tps: a latency percentile, or a run metric other than tps.
// latency_p95 and latency_p99 are the percentiles p95 and p99 here, not metrics of their own.
struct ThroughputY {
    std::optional<LatencyPercentile> percentile;  // none: `metric`
    RunMetric metric = RunMetric::LatencyMean;
    std::string name() const;   // "p99", "cpu_busy": options, menus' ids
    std::string label() const;  // "p99 latency", "CPU busy": titles, notes
    std::string unit() const;   // "ms", "%"
    std::optional<double> of(const RunRecord& run) const;  // none: the run lacks it
};
ThroughputY throughputY(LatencyPercentile p);
// "p50" ... "max", or a run metric's name other than tps; Error naming them all, `what` first.
ThroughputY parseThroughputY(const std::string& name, const std::string& what);
std::vector<ThroughputY> allThroughputYs();  // the percentiles, then latency mean, logical reads, CPU

struct LatencyThroughputPoint {
    std::string series;
    int clients = 0;       // the point's x (an offered rate when the runs were put on the rate axis)
    int runs = 0;          // runs with both a tps and the percentile
    double tps = 0;        // mean achieved tps
    double value = 0;      // mean of the runs' y (the percentile, ms)
    int belowRate = 0;     // runs flagged below-rate
    int skipping = 0;      // runs that skipped transactions (-L)
};

// Series in `order`, each point's x ascending; a point without such a run is left out.
std::vector<LatencyThroughputPoint> againstThroughput(const std::vector<RunRecord>& runs,
                                                      const std::vector<std::string>& order, const ThroughputY& y);
inline std::vector<LatencyThroughputPoint> latencyThroughput(const std::vector<RunRecord>& runs,
                                                             const std::vector<std::string>& order, LatencyPercentile p) {
    return againstThroughput(runs, order, throughputY(p));
}

// Where a curve's knee and skips begin, in words ("async commit: below the offered rate from
// 4000 tps offered (3 of 3 runs there)"), a line per series that has either; `axis`: what the
// points' x is.
std::vector<std::string> kneeNotes(const std::vector<LatencyThroughputPoint>& points, PointAxis axis);

} // namespace scalelab
