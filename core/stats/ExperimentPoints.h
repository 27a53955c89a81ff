#pragma once
// From an experiment's runs to the points of a scaling chart or table: completed runs that
// are not excluded, grouped by series (in the experiment's order) and client count.
#include "stats/Compare.h"
#include "stats/Peak.h"
#include "store/RunRecord.h"

#include <optional>
#include <string>
#include <vector>

namespace scalelab {

// Nopm and Tpm are TPROC-C's (load/data/TpccResults.h): none for a run of another workload.
enum class RunMetric { Tps, LatencyMean, LatencyP95, LatencyP99, LogicalReads, CpuBusy, ServerCpu, Nopm, Tpm };
RunMetric parseRunMetric(const std::string& name);  // "tps", "latency_p95", ...; throws Error listing them
const char* runMetricName(RunMetric m);
const char* runMetricUnit(RunMetric m);
// In words, for menus, chart titles and captions ("latency p95"); runMetricName is the id
// options, files and JSON use ("latency_p95").
const char* runMetricLabel(RunMetric m);
std::optional<double> metricOf(const RunRecord& run, RunMetric m);  // none when the run lacks it (NaN, NULL)
std::vector<RunMetric> allRunMetrics();
// The USL describes throughput (tps, logical reads/s, NOPM, TPM); a fit to latency or CPU would be a
// curve through numbers the law does not model.
bool isThroughputMetric(RunMetric m);
// The metrics at least one completed, included run has; every metric when there is no such run
// yet. Menus offer only these: a tps-only import has no latency to plot.
std::vector<RunMetric> metricsPresent(const std::vector<RunRecord>& runs);

// Each point's values keep the run order, so a paired comparison can match rounds.
struct PointRuns {
    std::string series;
    int clients = 0;
    std::vector<double> values;
    std::vector<int> repetitions;
};

std::vector<PointRuns> pointRuns(const std::vector<RunRecord>& runs, const std::vector<std::string>& seriesOrder,
                                 RunMetric metric);
// Each point's summary; an interval's lower end below 0 is clamped at 0 (ciLowClamped).
std::vector<SeriesPoint> summarizePoints(const std::vector<PointRuns>& points, double confidence);

struct PointComparison {
    int clients = 0;
    Comparison comparison;
};

// `candidate` against `baseline` at each client count both have. Welch's test on all runs, or,
// paired, on the runs of the rounds both sides have (a client count with none is left out).
std::vector<PointComparison> compareSeries(const std::vector<PointRuns>& points, const std::string& baseline,
                                           const std::string& candidate, bool paired, double confidence);

} // namespace scalelab
