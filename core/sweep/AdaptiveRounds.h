#pragma once
// Sweeps that stop when sure: after the planned rounds, which points need another round (the
// tps interval wider than the plan's precision target, or a named comparison still undecided
// there), the next interleaved round of just those points, and how many runs that may still
// take. Pure functions of the plan and the runs stored, so a resumed sweep decides the same.
// A point is a cell of the plan's grid: a client count at one of its rates and scales.
#include "store/RunRecord.h"
#include "stats/PointAxis.h"
#include "stats/Verdict.h"
#include "sweep/SweepPlan.h"

#include <cstdint>
#include <string>
#include <vector>

namespace scalelab {

// A cell of a plan's grid.
struct GridPoint {
    int clients = 0;
    double rate = 0;       // offered tps, 0: unthrottled
    int64_t scale = 10;
    bool operator<(const GridPoint& o) const {
        return scale != o.scale ? scale < o.scale : clients != o.clients ? clients < o.clients : rate < o.rate;
    }
    bool operator==(const GridPoint& o) const { return clients == o.clients && rate == o.rate && scale == o.scale; }
};

// Every cell of the plan's grid, by scale, client count and rate.
std::vector<GridPoint> gridPoints(const SweepPlan& plan);
// The cell a run of the plan ran at: the rate and scale it recorded where the plan has several
// (a plan with one takes its own, so runs from before the axes existed count).
GridPoint gridPointOf(const SweepPlan& plan, const RunRecord& run);
// "8 clients"; with several rates or scales in the plan also "8 clients, 400 tps offered, scale 10".
std::string gridPointText(const SweepPlan& plan, const GridPoint& point);

struct PointNeed {
    int series = 0;        // index into plan.series
    GridPoint at;
    int rounds = 0;        // counted runs so far
    std::string reason;    // "interval +/-3.1%, target +/-2%", "comparison undecided: ..."
};

// Points below the plan's max_repetitions that need a round; empty without a precision rule.
std::vector<PointNeed> pointsNeedingRounds(const SweepPlan& plan, const std::vector<RunRecord>& runs);

// Points at the limit that still miss the target (said at the end of a sweep).
std::vector<PointNeed> pointsShortAtLimit(const SweepPlan& plan, const std::vector<RunRecord>& runs);

// The compared pair's verdicts as `report --compare` gives them, with the rule's pairing and
// equivalence margin: one over the client counts, or on a grid one per curve on the runs' own
// axis (docs/sweeps.md, "The points' x axis"): "A, 400 tps offered" against "B, 400 tps offered".
struct PairVerdict {
    std::string baseline, candidate;  // the curves' names
    PointAxis axis = PointAxis::Clients;
    CurveVerdict verdict;
};
std::vector<PairVerdict> pairVerdictsAtEnd(const PrecisionRule& rule, const std::vector<RunRecord>& runs);

// The compared pair's verdict in sentences as the sweep ends, judged as the rule judged it
// (paired or not, with the plan's equivalence margin): what `report --compare` would say.
std::vector<std::string> comparisonAtEnd(const SweepPlan& plan, const std::vector<RunRecord>& runs);

// One interleaved round of `needs`: points in the plan's order (scale by scale, then client
// counts and rates ascending), the series of each in an order shuffled from the seed and the
// round, indexes from `firstIndex`, repetition `round`. With several scales, every other round
// walks the scales downwards, so that a round starts at the scale the one before ended on (the
// data is rebuilt at each change of scale).
std::vector<PlannedRun> extraRound(const SweepPlan& plan, const std::vector<PointNeed>& needs, int firstIndex,
                                   int round, uint64_t seed);

// Runs the precision rule may still add, from each point's variation so far (the runs for the
// interval to reach the target, up to the limit); for the ETA.
int estimatedExtraRuns(const SweepPlan& plan, const std::vector<RunRecord>& runs);

} // namespace scalelab
