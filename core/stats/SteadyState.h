#pragma once
// Was a run steady? The coefficient of variation of its interval throughput after warm-up,
// and a linear trend test (least-squares slope of tps over time, t-test on the slope with the
// effective number of intervals of autocorrelated samples, Santer et al. 2000).
#include <optional>
#include <string>
#include <vector>

namespace scalelab {

struct SteadyState {
    int intervals = 0;
    double meanTps = 0;
    double cv = 0;                       // sd / mean of the interval tps
    std::optional<double> slopePerSecond;// tps per second
    std::optional<double> slopePValue;   // two-sided, H0: no trend (effective sample size for autocorrelation)
    double driftPercent = 0;             // slope * run length / mean, in %
    bool unstable = false;               // cv above the threshold
    std::string reason;
};

// `tps[i]` measured over an interval ending at `endSeconds[i]`. Fewer than 3 intervals: no test.
SteadyState steadyState(const std::vector<double>& tps, const std::vector<double>& endSeconds, double cvThreshold = 0.10);

} // namespace scalelab
