#include "sweep/SweepEstimate.h"

#include <algorithm>

namespace scalelab {

std::optional<double> secondsPerRun(const SweepPlan& plan) {
    if (plan.durationS <= 0) return std::nullopt;
    return plan.durationS + plan.pauseS + kRunOverheadS;
}

SweepEstimate estimateSweep(const SweepPlan& plan) {
    SweepEstimate e;
    int points = static_cast<int>(plan.series.size() * plan.clients.size() * plan.rates.size());
    e.runs = points * plan.repetitions;
    e.maxRuns = plan.precision ? points * std::max(plan.repetitions, plan.precision->maxRepetitions) : e.runs;
    if (auto perRun = secondsPerRun(plan)) {
        e.seconds = *perRun * e.runs;
        e.maxSeconds = *perRun * e.maxRuns;
    }
    return e;
}

} // namespace scalelab
