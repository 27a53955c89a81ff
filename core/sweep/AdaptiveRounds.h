#pragma once
// Sweeps that stop when sure: after the planned rounds, which points need another round (the
// tps interval wider than the plan's precision target, or a named comparison still undecided
// there), the next interleaved round of just those points, and how many runs that may still
// take. Pure functions of the plan and the runs stored, so a resumed sweep decides the same.
#include "store/ExperimentStore.h"
#include "sweep/SweepPlan.h"

#include <cstdint>
#include <string>
#include <vector>

namespace scalelab {

struct PointNeed {
    int series = 0;        // index into plan.series
    int clients = 0;
    int rounds = 0;        // counted runs so far
    std::string reason;    // "interval +/-3.1%, target +/-2%", "comparison undecided: ..."
};

// Points below the plan's max_repetitions that need a round; empty without a precision rule.
std::vector<PointNeed> pointsNeedingRounds(const SweepPlan& plan, const std::vector<RunRecord>& runs);

// Points at the limit that still miss the target (said at the end of a sweep).
std::vector<PointNeed> pointsShortAtLimit(const SweepPlan& plan, const std::vector<RunRecord>& runs);

// The compared pair's verdict in sentences as the sweep ends, judged as the rule judged it
// (paired or not, with the plan's equivalence margin): what `report --compare` would say.
std::vector<std::string> comparisonAtEnd(const SweepPlan& plan, const std::vector<RunRecord>& runs);

// One interleaved round of `needs`: client counts in order, the series of each in an order
// shuffled from the seed and the round, indexes from `firstIndex`, repetition `round`.
std::vector<PlannedRun> extraRound(const SweepPlan& plan, const std::vector<PointNeed>& needs, int firstIndex,
                                   int round, uint64_t seed);

// Runs the precision rule may still add, from each point's variation so far (the runs for the
// interval to reach the target, up to the limit); for the ETA.
int estimatedExtraRuns(const SweepPlan& plan, const std::vector<RunRecord>& runs);

} // namespace scalelab
