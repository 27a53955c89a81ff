#pragma once
// Ratio charts: series B's metric divided by series A's at each client count both have, with
// the comparison's confidence interval (core/stats compareSeries: Welch's, or paired by
// repetition round). "How much faster, and is it more than noise" as a curve, drawn by the same
// scaling chart as the series themselves, with a line at 1 (no difference).
#include "models/ScalingData.h"

#include <string>
#include <utility>
#include <vector>

namespace scalelab::ui {

struct RatioChoice {
    std::vector<std::pair<std::string, std::string>> pairs;  // {baseline A, candidate B}: B / A
    bool paired = false;                                     // compare by repetition round
    bool empty() const { return pairs.empty(); }
};

// One series per pair, labelled "B / A", in B's colour. Throws scalelab::Error naming the
// experiment's series when a pair names one it lacks, or when a pair has no client count with
// runs of both (a paired one: no round both have).
// `axis`: what the runs' `clients` are (onViewAxis put them on it).
ScalingData buildRatioData(const std::vector<RunRecord>& runs, const std::vector<std::string>& seriesOrder,
                           RunMetric metric, double confidence, const RatioChoice& choice,
                           PointAxis axis = PointAxis::Clients);

} // namespace scalelab::ui
