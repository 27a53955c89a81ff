#pragma once
// System metrics as JSON: `scalelab run --json` and experiment files.
#include "metrics/SystemSampler.h"

#include <nlohmann/json.hpp>

namespace scalelab {

nlohmann::json toJson(const CpuUsage& u);
// perPu: include the per-PU breakdown (samples do; run aggregates keep it short).
nlohmann::json toJson(const SystemSample& s, bool perPu = true);

} // namespace scalelab
