#pragma once
// System metrics as JSON: `scalelab run --json` and experiment files.
#include "metrics/SystemSampler.h"

#include <nlohmann/json.hpp>

namespace scalelab {

nlohmann::json toJson(const CpuUsage& u);
// perPu: include the per-PU breakdown (samples do; run aggregates keep it short).
nlohmann::json toJson(const SystemSample& s, bool perPu = true);
// {"rows": [{"queryid": "-123..." (a string: 64 bits survive any JSON reader), "calls", "total_ms",
// "mean_ms", "rows", "shared_blks_hit", "shared_blks_read", "shared_blks_dirtied", "wal_bytes",
// "query"}], "evicted": N}, {"reset": true} or {"unavailable": "why"}.
nlohmann::json toJson(const StatementsWindow& w);

} // namespace scalelab
