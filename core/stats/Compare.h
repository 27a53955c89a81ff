#pragma once
// Is series B different from series A at a client count, beyond run-to-run variation?
#include "stats/Summary.h"

#include <optional>
#include <string>
#include <vector>

namespace scalelab {

struct Comparison {
    PointSummary a, b;          // baseline and candidate
    double difference = 0;      // mean(B) - mean(A)
    std::optional<double> ratio;          // mean(B) / mean(A); none when mean(A) is 0
    std::optional<double> percentChange;  // 100 * (ratio - 1); none when mean(A) is 0
    std::optional<double> diffLow, diffHigh;      // confidence interval of the difference
    std::optional<double> percentLow, percentHigh;// confidence interval of the % change
    std::optional<double> t, df, pValue;
    bool paired = false;
    std::optional<double> sdDifferences;          // paired: the round-by-round differences' sd
    // One side has a single run: it is judged against the other side's spread as one new run
    // would be (a prediction interval, equal variances assumed); names the single-run side.
    std::string singleRunSide;  // "", "baseline" or "candidate"
    std::string verdict;        // "distinguishable", "within run-to-run variation", kBorderline, or why untestable
};

// The verdict when the runs cannot carry a judgement: fewer than 2 runs a side (Welch), fewer
// than kMinPairs pairs (paired), or no variation at all; then there is no p-value and no interval.
constexpr const char* kTooFewToJudge = "too few runs to judge";
constexpr int kMinPairs = 3;
// The t-test and the interval of the % change disagree (one says different, the other not).
constexpr const char* kBorderline = "borderline: the t-test and the change's interval disagree; more runs will tell";

// A change interval that reaches -100% or spans more than a factor of kUnboundedRatioSpan
// between its ends says nothing about the change: shown in words, not as numbers (issue 32.5:
// "-100.0% .. +2426713774.6%" from two runs a side).
constexpr double kUnboundedRatioSpan = 10;
constexpr const char* kTooFewToBound = "too few runs to bound";
bool changeIntervalBounded(double lowPct, double highPct);
// "+1.2% .. +4.5%", kTooFewToBound, or "-" when there is none.
std::string changeIntervalText(const std::optional<double>& lowPct, const std::optional<double>& highPct);

// Welch's unequal-variance t-test and interval for the difference of means; the ratio's
// interval from the delta method on log(mean B / mean A) with Welch's degrees of freedom.
// One run on one side and at least 2 on the other: the single run x against the other side's
// mean m and sd s as a new observation, t = (x - m) / (s * sqrt(1 + 1/n)), df = n - 1 (the
// other side's variance stands for both: equal variances, said in the verdict); the % change
// interval is the difference's relative to mean(A). One run against one run: too few.
Comparison compareWelch(const std::vector<double>& a, const std::vector<double>& b, double confidence = 0.95);

// Paired: a[i] and b[i] were measured in the same repetition round. t-test on the differences;
// the % change interval is the differences' interval relative to mean(A).
Comparison comparePaired(const std::vector<double>& a, const std::vector<double>& b, double confidence = 0.95);

} // namespace scalelab
