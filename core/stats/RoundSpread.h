#pragma once
// How a latency percentile spreads across a point's rounds: each run's own percentile (p99 of
// its counted window), and per point the five numbers of a box plot over those runs. Error bars
// on a mean say how sure the mean is; a box says how far apart the rounds themselves were.
#include "store/RunRecord.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace scalelab {

enum class LatencyPercentile { P50, P90, P95, P99, P999, Max };
const char* latencyPercentileName(LatencyPercentile p);  // "p50", "p90", "p95", "p99", "p99.9", "max"
// "p99", "99", "p99.9", "max"...; throws Error listing the names.
LatencyPercentile parseLatencyPercentile(std::string_view name, const std::string& what);
std::vector<LatencyPercentile> allLatencyPercentiles();
// The run's percentile in ms; none when the run has no latency (no transaction, an import
// without it).
std::optional<double> latencyPercentileOf(const RunRecord& run, LatencyPercentile p);

// Minimum, quartiles, median and maximum. Quartiles interpolate linearly between the sorted
// values (Hyndman and Fan's type 7, R's and numpy's default). Throws Error for no value.
struct BoxSummary {
    int n = 0;
    double min = 0, q1 = 0, median = 0, q3 = 0, max = 0;
};
BoxSummary boxSummary(std::vector<double> values);

struct PointBox {
    std::string series;
    int clients = 0;
    std::vector<double> values;  // each round's percentile, in run order
    int runsWithout = 0;         // runs that count but have no such percentile
    std::optional<BoxSummary> box;  // none when no run has the percentile
};

// Completed, included runs by series (in `order`) and client count.
std::vector<PointBox> percentileBoxes(const std::vector<RunRecord>& runs, const std::vector<std::string>& order,
                                      LatencyPercentile p);

} // namespace scalelab
