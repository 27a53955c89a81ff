#pragma once
// How many runs a point needs: the power of the two-sided t-test that compares two series at a
// client count, and the runs per side that reach a wanted power for a given change. Noncentral
// Student t (Boost.Math), the same formulas as statsmodels' TTestIndPower / TTestPower.
#include <optional>
#include <string>

namespace scalelab {

// Power of the two-sided two-sample t-test (pooled variance, n runs on each side) to detect a
// standardized difference `effect` (difference / standard deviation) at level `alpha`.
// dfPerRun: degrees of freedom per extra run on each side; 2 is the pooled test's 2n - 2 (and
// statsmodels'); Welch's with unequal variances has fewer (welchDfPerRun), down to n - 1.
double twoSamplePower(double effect, double nPerSide, double alpha, double dfPerRun = 2);
// Welch-Satterthwaite's degrees of freedom for n runs a side, divided by n - 1: in [1, 2].
double welchDfPerRun(double sdA, double sdB);
// The same for the one-sample (paired) t-test on n differences; effect = mean / sd of the
// differences.
double pairedPower(double effect, double n, double alpha);

// The smallest whole n >= 2 whose power reaches `power`; none when more than kMaxAdvisedRuns
// would be needed (an effect that small cannot be told apart in practice).
constexpr int kMaxAdvisedRuns = 10000;
std::optional<int> runsForPower(double effect, double power, double alpha, bool paired, double dfPerRun = 2);

// One side has a single run: the runs k of that side (the other keeping its nOther runs, one sd
// for both) whose two-sample t-test reaches `power` for `effect` at `alpha`; none when no k up
// to kMaxAdvisedRuns does (with few runs on the other side its own noise limits the power).
std::optional<int> singleSideRuns(double effect, int nOther, double power, double alpha);

struct RunCountAdvice {
    double changePct = 5;                   // the change to detect, % of the baseline mean
    double power = 0.8;
    std::optional<double> powerNow;         // with the runs there are
    std::optional<int> runsPerSide;         // for one client count at the per-point level
    std::optional<int> runsForCurve;        // at alpha / (client counts judged): for the curve summary
    std::optional<double> halfWidthPct;     // the change interval's half-width with runsPerSide runs
    std::optional<double> curveHalfWidthPct;// the simultaneous interval's (alpha / comparisons) with runsForCurve
    std::optional<int> runsForSeenChange;   // to confirm a change the size of the one measured, at the curve's level
                                            // (sized from the change seen: observed power, an optimistic guess)
    std::optional<int> runsForSingleSide;   // one side has one run: that side's runs for the curve's level
    std::string reason;                     // why there is no advice (one run, no variation)
};

// From the runs measured at one client count: means and standard deviations of both sides (or,
// paired, the sd of the round-by-round differences), the runs there are, and the number of
// client counts the curve summary corrects over.
struct AdviceInput {
    double meanA = 0;
    double sdA = 0, sdB = 0;                // Welch: each side's sample sd
    std::optional<double> sdDifferences;    // paired: the differences' sd
    int nA = 0, nB = 0;
    double confidence = 0.95;
    int comparisons = 1;
    double seenChangePct = 0;               // the change measured, % of meanA
};
RunCountAdvice adviseRunCount(const AdviceInput& in, double changePct = 5, double power = 0.8);

} // namespace scalelab
