#include "report/ReportCells.h"

#include "stats/Power.h"
#include "util/Format.h"

#include <cmath>

namespace scalelab::report_cells {

std::string number(const char* format, double v) { return formatNumber(format, v); }

std::string optional(const char* format, const std::optional<double>& v) { return v ? number(format, *v) : "-"; }

std::string low(const PointSummary& s) { return optional("%.2f", s.ciLow) + (s.ciLowClamped ? "^" : ""); }

std::string plusMinus(double v, double se, const char* format) {
    return number(format, v) + (std::isnan(se) ? std::string(" +/- -") : " +/- " + number(format, se));
}

std::string runsPerSide(const PointVerdict& p) {
    if (!p.comparison.singleRunSide.empty())
        return p.advice.runsForSingleSide ? std::to_string(*p.advice.runsForSingleSide) + "*" : "-";
    return p.advice.runsForCurve ? std::to_string(*p.advice.runsForCurve)
           : p.advice.powerNow  ? ">" + std::to_string(kMaxAdvisedRuns)
                                : "-";
}

std::string change(const PointVerdict& p) {
    return p.comparison.percentChange ? number("%+.2f%%", *p.comparison.percentChange) : "-";
}

} // namespace scalelab::report_cells
