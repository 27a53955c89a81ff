#include "stats/SteadyState.h"

#include "stats/Summary.h"

#include <cmath>

namespace scalelab {

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
        double rss = 0;
        for (size_t i = 0; i < t.size(); ++i) {
            double fitted = sum.mean + slope * (t[i] - tMean);
            rss += (tps[i] - fitted) * (tps[i] - fitted);
        }
        double dof = static_cast<double>(t.size()) - 2;
        double se = std::sqrt(rss / dof / sxx);
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
