#pragma once
// The latency distributions in an export: each run's histogram and each point's (its rounds
// merged), as bucket bounds and counts and as a percentile table (docs/sweeps.md, "Latency
// distributions").
#include "store/RunRecord.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace scalelab {

// DIR/latency-histograms.csv and DIR/latency-percentiles.csv; appends them to `written`.
void writeLatencyCsv(const std::vector<RunRecord>& runs, const std::vector<std::string>& seriesOrder,
                     const std::string& dir, std::vector<std::string>& written);
// A run's distribution for the JSON export: {"buckets": [{low_ms, high_ms, count}],
// "percentiles": {"p50": ms, ...}, "max_ms"}; null when the run has no histogram.
nlohmann::json latencyDistributionJson(const RunRecord& run);

} // namespace scalelab
