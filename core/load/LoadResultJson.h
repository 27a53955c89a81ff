#pragma once
// LoadResult as JSON: `scalelab run --json`, and the run record of experiment files.
#include "load/LoadSpec.h"

#include <nlohmann/json.hpp>

namespace scalelab {

nlohmann::json toJson(const LatencySummary& s);
nlohmann::json toJson(const LoadSample& s);
nlohmann::json toJson(const LoadResult& r);

} // namespace scalelab
