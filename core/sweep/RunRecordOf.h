#pragma once
// A run's result as the experiment file keeps it: the aggregates, the flags (unstable,
// client-bound), the detail as JSON, and the samples. A value missing from the result (no
// transaction, no latency) is missing in the record (NaN in memory, NULL in the file), never 0.
#include "load/LoadSpec.h"
#include "store/ExperimentStore.h"

#include <string>
#include <vector>

namespace scalelab {

RunRecord recordOf(const LoadResult& result, const std::string& series, int repetition);
std::vector<StoredSample> samplesOf(const LoadResult& result);

// A rate was offered (-R) and the run served clearly less: fewer transactions (committed or
// failed) than the schedule's, beyond its Poisson spread (3 standard deviations) and the one
// transaction a client may have in flight at the end, and more than 5% short. Its latency is
// then that of a growing queue, not of the service at that load (flagged below-rate).
constexpr double kBelowRateShare = 0.95;
bool belowOfferedRate(const LoadResult& result);

// No transaction, no latency: every figure NaN.
LatencySummary missingLatency();

} // namespace scalelab
