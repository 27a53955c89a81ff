#pragma once
// Latency distributions of stored runs: each run keeps its counted window's histogram (a
// sweep stores it with the run), so a run's or a point's distribution (its rounds' histograms
// added bucket by bucket, which is exact) can be exported and drawn, not just its mean.
#include "load/LatencyHistogram.h"
#include "store/RunRecord.h"

#include <optional>
#include <string>
#include <vector>

namespace scalelab {

// The run's histogram; none for a run stored before ScaleLab kept them, or imported from
// pgbench's output. Throws Error naming the run when the stored one is damaged.
std::optional<LatencyHistogram> runHistogram(const RunRecord& run);

struct LatencyBucket {
    double lowMs = 0, highMs = 0;  // [low, high): the values the bucket holds
    uint64_t count = 0;
};
std::vector<LatencyBucket> nonEmptyBuckets(const LatencyHistogram& h);

// The percentiles a distribution table shows, and their labels in files.
const std::vector<std::pair<double, const char*>>& distributionPercentiles();  // {0.5, "p50"} ... {0.9999, "p99_99"}

// The runs that count in statistics (completed, not excluded), by series (the experiment's
// order) and clients, with their histograms merged; `runsWithout` counts the point's runs
// that have none (older or imported runs), which the merge leaves out.
struct PointDistribution {
    std::string series;
    int clients = 0;
    int runs = 0, runsWithout = 0;
    LatencyHistogram merged;
    std::vector<LatencyHistogram> rounds;  // each counted run's own, in run order: their spread
};
std::vector<PointDistribution> pointDistributions(const std::vector<RunRecord>& runs,
                                                  const std::vector<std::string>& seriesOrder);

// The percentile spectrum HdrHistogram draws: (q, latency in ms) at 20 steps a decade of
// 1/(1-q), from q = 0 up to the last q the count resolves (1 - 1/count), then the maximum at
// q = 1. Empty for an empty histogram.
std::vector<std::pair<double, double>> percentileSpectrum(const LatencyHistogram& h);

} // namespace scalelab
