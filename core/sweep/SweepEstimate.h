#pragma once
// How long a sweep will take before it has timed a run of its own: one rule for the Setup
// page's estimate and the runner's first ETA (after a run, the runner uses its own pace).
#include "sweep/SweepPlan.h"

#include <optional>

namespace scalelab {

// What a run costs besides its measured duration and the plan's pause: connecting, sampling,
// recording. Measured: 0.62 s a run at 8 clients on a 2-vCPU machine (docs/performance.md,
// "The sweep's own cost"); far more at 1,000 clients, where the runner's own pace takes over.
constexpr double kRunOverheadS = 0.6;

struct SweepEstimate {
    int runs = 0;                    // planned: series x clients x rates x scales x repetitions
    int maxRuns = 0;                 // with a precision rule, up to max_repetitions rounds; else runs
    std::optional<double> seconds;   // none for runs of a transaction count: the server decides
    std::optional<double> maxSeconds;
};

// Seconds one run is expected to take; none for runs of a transaction count.
std::optional<double> secondsPerRun(const SweepPlan& plan);
SweepEstimate estimateSweep(const SweepPlan& plan);

} // namespace scalelab
