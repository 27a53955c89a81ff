#include "stats/Summary.h"

#include "util/Error.h"

#include <boost/math/distributions/students_t.hpp>

#include <algorithm>
#include <cmath>

namespace scalelab {
namespace {
// In double, not boost's default long double: about 1e-15 relative either way, and the
// quantile and p-value of every verdict are most of what the adaptive rounds' simulation spends
// (bench/adaptive_calls; docs/performance.md, "The statistics' simulation").
using DoubleOnly = boost::math::policies::policy<boost::math::policies::promote_double<false>>;
using StudentT = boost::math::students_t_distribution<double, DoubleOnly>;
} // namespace

double studentTQuantile(double p, double df) {
    return boost::math::quantile(StudentT(df), p);
}

double studentTTwoSidedP(double t, double df) {
    return 2 * boost::math::cdf(boost::math::complement(StudentT(df), std::fabs(t)));
}

PointSummary summarize(const std::vector<double>& values, double confidence, const std::string& what) {
    if (values.empty()) throw Error("no " + what + " to summarize");
    if (!(confidence > 0 && confidence < 1))
        throw Error("confidence level must be between 0 and 1 (got " + std::to_string(confidence) + ")");
    for (size_t i = 0; i < values.size(); ++i)
        if (!std::isfinite(values[i]))
            throw Error(what + ": value " + std::to_string(i + 1) + " of " + std::to_string(values.size()) +
                        " is not a number (" + std::to_string(values[i]) + ")");
    PointSummary s;
    s.n = static_cast<int>(values.size());
    s.confidence = confidence;
    double sum = 0;
    for (double v : values) sum += v;
    s.mean = sum / s.n;
    std::vector<double> sorted = values;
    std::sort(sorted.begin(), sorted.end());
    s.min = sorted.front();
    s.max = sorted.back();
    s.median = s.n % 2 ? sorted[static_cast<size_t>(s.n / 2)]
                       : (sorted[static_cast<size_t>(s.n / 2 - 1)] + sorted[static_cast<size_t>(s.n / 2)]) / 2;
    if (s.n < 2) {
        s.note = "one run: no standard deviation and no confidence interval";
        return s;
    }
    double squares = 0;
    for (double v : values) squares += (v - s.mean) * (v - s.mean);
    s.sd = std::sqrt(squares / (s.n - 1));
    s.se = s.sd / std::sqrt(static_cast<double>(s.n));
    double half = studentTQuantile(1 - (1 - confidence) / 2, s.n - 1) * s.se;
    s.ciLow = s.mean - half;
    s.ciHigh = s.mean + half;
    return s;
}

} // namespace scalelab
