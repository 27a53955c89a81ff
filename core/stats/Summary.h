#pragma once
// What the error bars of one point stand on: the runs of one (series, client count).
#include <optional>
#include <string>
#include <vector>

namespace scalelab {

struct PointSummary {
    int n = 0;
    double mean = 0;
    double sd = 0;        // sample standard deviation (n - 1)
    double se = 0;        // sd / sqrt(n)
    double median = 0, min = 0, max = 0;
    double confidence = 0.95;
    std::optional<double> ciLow, ciHigh;  // mean -/+ t(1 - (1 - confidence) / 2, n - 1) * se; none for n = 1
    std::string note;     // why there is no interval, when there is none
    // A metric's interval whose lower end fell below 0 starts at 0 instead (no tps, latency or
    // CPU share is negative; issue 32.5): set by summarizePoints, said wherever it is shown.
    bool ciLowClamped = false;
};

// Throws Error for an empty list, a value that is not finite (naming its position and `what`),
// or a confidence outside (0, 1). Two-pass: the mean first, then squared deviations from it.
PointSummary summarize(const std::vector<double>& values, double confidence = 0.95, const std::string& what = "values");

// Student's t quantile: P(T <= t) = p for `df` degrees of freedom (Boost.Math).
double studentTQuantile(double p, double df);
// Two-sided p-value of a t statistic.
double studentTTwoSidedP(double t, double df);

} // namespace scalelab
