#pragma once
// LoadResult as JSON: `scalelab run --json`, and the run record of experiment files.
#include "load/LoadSpec.h"

#include <nlohmann/json.hpp>

namespace scalelab {

nlohmann::json toJson(const LatencySummary& s);
nlohmann::json toJson(const LoadSample& s);
nlohmann::json toJson(const LoadResult& r);
nlohmann::json toJson(const HistogramData& h);

// What a load host sends its coordinator, read back: the counts, times, failures, -r's commands,
// the samples and the histograms (system metrics stay on the host's side). Throws Error naming
// the field that is missing or of the wrong type.
LoadResult loadResultFromJson(const nlohmann::json& j);
LoadSample loadSampleFromJson(const nlohmann::json& j);
HistogramData histogramFromJson(const nlohmann::json& j);
ScriptReport scriptReportFromJson(const nlohmann::json& j);
LatencySummary latencySummaryFromJson(const nlohmann::json& j);  // null values (none measured) read as 0 with count 0

} // namespace scalelab
