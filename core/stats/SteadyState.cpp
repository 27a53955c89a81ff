#include "stats/SteadyState.h"

#include "stats/Summary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace scalelab {
namespace {

// Interval samples of one run are autocorrelated (a slow second is followed by a slow second),
// and the plain OLS standard error treats them as independent, so its p-values are too small.
// The residuals' lag-1 autocorrelation r gives an effective number of intervals,
// n_eff = n (1 - r) / (1 + r) (Santer et al. 2000, J. Geophys. Res. 105(D6), for a trend in AR(1)
// noise): the slope's variance is OLS's times (n - 2) / (n_eff - 2), with n_eff - 2 degrees of
// freedom. A negative r is taken as 0: it must not make the test bolder.
struct TrendError {
    double se = 0, dof = 0;
};
TrendError autocorrelatedSlopeError(const std::vector<double>& t, const std::vector<double>& y, double tMean,
                                    double yMean, double slope, double sxx) {
    size_t n = t.size();
    std::vector<double> e(n);
    double rss = 0;
    for (size_t i = 0; i < n; ++i) {
        e[i] = y[i] - yMean - slope * (t[i] - tMean);
        rss += e[i] * e[i];
    }
    double lag = 0;
    for (size_t i = 1; i < n; ++i) lag += e[i] * e[i - 1];
    double r = rss > 0 ? std::max(0.0, lag / rss) : 0;
    double nEff = static_cast<double>(n) * (1 - r) / (1 + r);
    TrendError out;
    out.dof = std::max(1.0, nEff - 2);
    out.se = std::sqrt(rss / out.dof / sxx);
    return out;
}

} // namespace

SteadyState steadyState(const std::vector<double>& tps, const std::vector<double>& t, double cvThreshold) {
    SteadyState s;
    s.intervals = static_cast<int>(tps.size());
    if (tps.size() < 3 || t.size() != tps.size()) {
        s.reason = "fewer than 3 intervals: steadiness not judged";
        return s;
    }
    PointSummary sum = summarize(tps, 0.95, "interval throughput");
    s.meanTps = sum.mean;
    s.cv = sum.mean != 0 ? sum.sd / sum.mean : 0;
    double tMean = 0;
    for (double x : t) tMean += x;
    tMean /= static_cast<double>(t.size());
    double sxx = 0, sxy = 0;
    for (size_t i = 0; i < t.size(); ++i) {
        sxx += (t[i] - tMean) * (t[i] - tMean);
        sxy += (t[i] - tMean) * (tps[i] - sum.mean);
    }
    if (sxx > 0) {
        double slope = sxy / sxx;
        TrendError err = autocorrelatedSlopeError(t, tps, tMean, sum.mean, slope, sxx);
        double se = err.se, dof = err.dof;
        s.slopePerSecond = slope;
        s.slopePValue = se > 0 ? studentTTwoSidedP(slope / se, dof) : (slope == 0 ? 1.0 : 0.0);
        if (sum.mean != 0) s.driftPercent = 100 * slope * (t.back() - t.front()) / sum.mean;
    }
    s.unstable = s.cv > cvThreshold;
    if (s.unstable) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "interval throughput varies by %.1f%% (coefficient of variation), above %.1f%%",
                      100 * s.cv, 100 * cvThreshold);
        s.reason = buf;
    }
    return s;
}

} // namespace scalelab
