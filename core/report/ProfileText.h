#pragma once
// `scalelab report --profile`: where each point's server CPU went (the functions by self time
// per 1,000 transactions) and, with two series, the functions whose self time per transaction
// changed, as console tables.
#include "report/StatementText.h"
#include "stats/ProfileReport.h"

#include <string>
#include <vector>

namespace scalelab {

using ProfileTextOptions = StatementTextOptions;

// Throws Error for a series or x the experiment does not have.
std::string profileText(const std::vector<PointProfile>& points, const ProfileTextOptions& options);

} // namespace scalelab
