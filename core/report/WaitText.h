#pragma once
// `scalelab report --waits`: where each point's sessions waited (average active sessions and
// wait time per transaction by wait event, other backends apart) and, with two series, the
// events whose wait time per transaction changed, as console tables.
#include "report/StatementText.h"
#include "stats/WaitReport.h"

#include <string>
#include <vector>

namespace scalelab {

// The same choices as the statements' tables: the points at one x, events per table, a pair.
using WaitTextOptions = StatementTextOptions;

// Throws Error for a series or x the experiment does not have.
std::string waitsText(const std::vector<PointWaits>& points, const WaitTextOptions& options);

} // namespace scalelab
