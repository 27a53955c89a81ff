#pragma once
// From an experiment's runs to the points of a scaling chart or table: completed runs that
// are not excluded, grouped by series (in the experiment's order) and client count.
#include "stats/Peak.h"
#include "store/ExperimentStore.h"

#include <optional>
#include <string>
#include <vector>

namespace scalelab {

enum class RunMetric { Tps, LatencyMean, LatencyP95, LatencyP99, LogicalReads, CpuBusy, ServerCpu };
RunMetric parseRunMetric(const std::string& name);  // "tps", "latency_p95", ...; throws Error listing them
const char* runMetricName(RunMetric m);
const char* runMetricUnit(RunMetric m);
std::optional<double> metricOf(const RunRecord& run, RunMetric m);

// Each point's values keep the run order, so a paired comparison can match rounds.
struct PointRuns {
    std::string series;
    int clients = 0;
    std::vector<double> values;
    std::vector<int> repetitions;
};

std::vector<PointRuns> pointRuns(const std::vector<RunRecord>& runs, const std::vector<std::string>& seriesOrder,
                                 RunMetric metric);
std::vector<SeriesPoint> summarizePoints(const std::vector<PointRuns>& points, double confidence);

} // namespace scalelab
