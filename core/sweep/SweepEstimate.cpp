#include "sweep/SweepEstimate.h"

#include <algorithm>

namespace scalelab {

std::optional<double> secondsPerRun(const SweepPlan& plan) {
    if (plan.durationS <= 0) return std::nullopt;
    return plan.durationS + plan.pauseS + kRunOverheadS;
}

SweepEstimate estimateSweep(const SweepPlan& plan) {
    SweepEstimate e;
    // Every cell of the grid: series x client counts x rates x scales (the scales were left out
    // once, and a sweep over three scales was estimated at a third of its runs).
    int points = static_cast<int>(plan.series.size() * plan.clients.size() * plan.rates.size() * plan.scales.size());
    e.runs = points * plan.repetitions;
    e.maxRuns = plan.precision ? points * std::max(plan.repetitions, plan.precision->maxRepetitions) : e.runs;
    if (auto perRun = secondsPerRun(plan)) {
        e.seconds = *perRun * e.runs;
        e.maxSeconds = *perRun * e.maxRuns;
    }
    return e;
}

} // namespace scalelab
