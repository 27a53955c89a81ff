#pragma once
// The cells every renderer of a StatsReport writes the same way (console text, Markdown): a
// number, a value that may be missing ("-"), an interval's clamped lower end ("^"), the
// runs-per-side advice. Internal to the renderers.
#include "stats/Report.h"

#include <string>

namespace scalelab::report_cells {

std::string number(const char* format, double v);
std::string optional(const char* format, const std::optional<double>& v);  // "-" when missing
std::string low(const PointSummary& s);                                    // "^" when clamped at 0
std::string plusMinus(double v, double se, const char* format);            // "1.23 +/- 0.04", "+/- -" without se
std::string runsPerSide(const PointVerdict& p);                            // "12", ">10000", "3*", "-"
std::string change(const PointVerdict& p);                                 // "+1.23%" or "-"

constexpr const char* kClampedNote =
    "^: the interval reached below 0 and is clamped there (no run's value is negative): too few runs, or runs far apart";

} // namespace scalelab::report_cells
