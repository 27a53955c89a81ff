#pragma once
// The console renderer of a StatsReport: the tables `scalelab report` prints.
#include "stats/Report.h"

#include <string>

namespace scalelab {

std::string reportText(const StatsReport& report);

} // namespace scalelab
