#pragma once
// Where a run's waits are read from ($.diagnostics.waits_source; docs/metrics.md).

namespace scalelab {

constexpr const char* kWaitSamplingSource = "pg_wait_sampling";
constexpr const char* kActivitySource = "pg_stat_activity";

// Auto: pg_wait_sampling's profile where the server loads the extension, else pg_stat_activity.
// WaitSampling: the extension or no waits (refused before the sweep where it cannot be used).
enum class WaitSource { Auto, WaitSampling, Activity };

} // namespace scalelab
