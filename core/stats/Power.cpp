#include "stats/Power.h"

#include "util/Error.h"

#include <boost/math/distributions/non_central_t.hpp>
#include <boost/math/distributions/students_t.hpp>

#include <algorithm>
#include <cmath>

namespace scalelab {
namespace {

// Both tails, as statsmodels does: P(T' > t) + P(T' < -t), T' noncentral with `ncp`.
double tTestPower(double ncp, double df, double alpha) {
    double crit = boost::math::quantile(boost::math::students_t(df), 1 - alpha / 2);
    boost::math::non_central_t dist(df, ncp);
    return boost::math::cdf(boost::math::complement(dist, crit)) + boost::math::cdf(dist, -crit);
}

void checkAlpha(double alpha) {
    if (!(alpha > 0 && alpha < 1)) throw Error("test level must be between 0 and 1 (got " + std::to_string(alpha) + ")");
}

double halfWidth(int n, double sd, double alpha, bool paired, double dfPerRun) {
    double df = paired ? n - 1 : dfPerRun * (n - 1);
    double se = paired ? sd / std::sqrt(static_cast<double>(n)) : sd * std::sqrt(2.0 / n);
    return boost::math::quantile(boost::math::students_t(df), 1 - alpha / 2) * se;
}

// Power grows with n: bracket by doubling, then bisect to the smallest n that is enough; none
// above kMaxAdvisedRuns.
template <typename Enough>
std::optional<int> smallestEnough(Enough enough) {
    int lo = 1, hi = 2;
    while (!enough(hi)) {
        if (hi >= kMaxAdvisedRuns) return std::nullopt;
        lo = hi;
        hi = std::min(2 * hi, kMaxAdvisedRuns);
    }
    while (hi - lo > 1) {
        int mid = lo + (hi - lo) / 2;
        (enough(mid) ? hi : lo) = mid;
    }
    return hi;
}

} // namespace

double twoSamplePower(double effect, double n, double alpha, double dfPerRun) {
    checkAlpha(alpha);
    if (n < 2) throw Error("power needs at least 2 runs per side");
    return tTestPower(effect * std::sqrt(n / 2), dfPerRun * (n - 1), alpha);
}

double welchDfPerRun(double sdA, double sdB) {
    double va = sdA * sdA, vb = sdB * sdB;
    return va + vb > 0 ? (va + vb) * (va + vb) / (va * va + vb * vb) : 2;
}

double pairedPower(double effect, double n, double alpha) {
    checkAlpha(alpha);
    if (n < 2) throw Error("power needs at least 2 pairs");
    return tTestPower(effect * std::sqrt(n), n - 1, alpha);
}

std::optional<int> runsForPower(double effect, double power, double alpha, bool paired, double dfPerRun) {
    if (!(power > 0 && power < 1)) throw Error("power must be between 0 and 1 (got " + std::to_string(power) + ")");
    auto enough = [&](int n) { return (paired ? pairedPower(effect, n, alpha) : twoSamplePower(effect, n, alpha, dfPerRun)) >= power; };
    if (effect == 0 || !std::isfinite(effect)) return std::nullopt;
    auto n = smallestEnough(enough);
    // A paired comparison judges nothing below 3 pairs (kMinPairs in stats/Compare.h).
    if (n) n = std::max(*n, paired ? 3 : 2);
    return n;
}

std::optional<int> singleSideRuns(double effect, int nOther, double power, double alpha) {
    if (effect == 0 || !std::isfinite(effect) || nOther < 2) return std::nullopt;
    // k runs against nOther, one sd for both: ncp = effect / sqrt(1/k + 1/nOther), df k + nOther - 2.
    auto enough = [&](int k) {
        return tTestPower(effect / std::sqrt(1.0 / k + 1.0 / nOther), k + nOther - 2, alpha) >= power;
    };
    auto k = smallestEnough(enough);
    if (k) k = std::max(*k, 2);
    return k;
}

RunCountAdvice adviseRunCount(const AdviceInput& in, double changePct, double power) {
    RunCountAdvice a;
    a.changePct = changePct;
    a.power = power;
    bool paired = in.sdDifferences.has_value();
    if (in.nA < 2 && in.nB < 2) {
        a.reason = "one run on each side: nothing can be judged; a variation needs at least 2 runs on a side";
        return a;
    }
    if (in.nA < 2 || in.nB < 2) {
        // One side has a single run: the other side's sd stands for both (as the judgement does).
        double sd = in.nA < 2 ? in.sdB : in.sdA;
        int nOther = std::max(in.nA, in.nB);
        if (!(sd > 0) || !(in.meanA > 0)) {
            a.reason = "no variation measured (or no baseline mean): the runs needed cannot be estimated";
            return a;
        }
        double alpha = 1 - in.confidence;
        double effect = changePct / 100 * in.meanA / sd;
        a.runsForSingleSide = singleSideRuns(effect, nOther, power, alpha / std::max(1, in.comparisons));
        a.runsPerSide = runsForPower(effect, power, alpha, false);
        a.runsForCurve = runsForPower(effect, power, alpha / std::max(1, in.comparisons), false);
        if (a.runsForCurve)
            a.curveHalfWidthPct = 100 * halfWidth(*a.runsForCurve, sd, alpha / std::max(1, in.comparisons), false, 2) / in.meanA;
        if (!a.runsForSingleSide)
            a.reason = "against " + std::to_string(nOther) + " runs, no number of runs of the single-run side reaches " +
                       "the power wanted";
        return a;
    }
    // Welch's sides may vary differently; the advice plans equal runs on both sides with their
    // average variance (the variance of the difference is then exact) and Welch's degrees of
    // freedom (fewer than the pooled test's when one side varies much more).
    double sd = paired ? *in.sdDifferences : std::sqrt((in.sdA * in.sdA + in.sdB * in.sdB) / 2);
    double dfPerRun = paired ? 1 : welchDfPerRun(in.sdA, in.sdB);
    if (!(sd > 0) || !(in.meanA > 0)) {
        a.reason = "no variation measured (or no baseline mean): the runs needed cannot be estimated";
        return a;
    }
    double alpha = 1 - in.confidence;
    double effect = changePct / 100 * in.meanA / sd;
    a.powerNow = paired ? pairedPower(effect, std::min(in.nA, in.nB), alpha)
                        : twoSamplePower(effect, std::min(in.nA, in.nB), alpha, dfPerRun);
    a.runsPerSide = runsForPower(effect, power, alpha, paired, dfPerRun);
    a.runsForCurve = runsForPower(effect, power, alpha / std::max(1, in.comparisons), paired, dfPerRun);
    if (in.seenChangePct != 0)
        a.runsForSeenChange = runsForPower(std::fabs(in.seenChangePct) / 100 * in.meanA / sd, power,
                                           alpha / std::max(1, in.comparisons), paired, dfPerRun);
    if (a.runsPerSide) a.halfWidthPct = 100 * halfWidth(*a.runsPerSide, sd, alpha, paired, dfPerRun) / in.meanA;
    if (a.runsForCurve)
        a.curveHalfWidthPct = 100 * halfWidth(*a.runsForCurve, sd, alpha / std::max(1, in.comparisons), paired, dfPerRun) / in.meanA;
    if (!a.runsPerSide) a.reason = "more than " + std::to_string(kMaxAdvisedRuns) + " runs per side would be needed";
    return a;
}

} // namespace scalelab
