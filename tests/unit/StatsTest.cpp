// core/stats against reference values from an independent tool: SciPy 1.10 (Debian 12's
// python3-scipy), computed by tests/data/stats_reference.py, whose output is pasted below.
// t quantiles there are solved on SciPy's t CDF (its t.ppf is off by ~1e-9 at fractional df),
// and curve_fit runs with the analytic Jacobian and tolerances of 1e-15.
#include "stats/Compare.h"
#include "stats/ExperimentPoints.h"
#include "stats/MachineMarkers.h"
#include "stats/Peak.h"
#include "stats/SteadyState.h"
#include "stats/Summary.h"
#include "stats/Usl.h"
#include "util/Error.h"

#include "ErrorOf.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <cstdio>

using namespace scalelab;
using test::errorOf;

namespace {

// |got - want| <= rel * |want|
::testing::AssertionResult near(double got, double want, double rel) {
    if (std::fabs(got - want) <= rel * std::fabs(want)) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "got " << got << ", want " << want << " (relative " << rel << ")";
}

const std::vector<double> kA = {2310.5, 2254.1, 2401.7, 2298.3, 2350.0};
const std::vector<double> kB = {2420.2, 2390.8, 2466.1, 2405.5};


} // namespace

TEST(Summary, MatchesScipyTo1e9) {
    // summary_a mean=2322.92 sd=55.75887373324531 se=24.936126403272798
    //           ci_low=2253.68621390504 ci_high=2392.15378609496 median=2310.5
    PointSummary s = summarize(kA);
    EXPECT_EQ(s.n, 5);
    EXPECT_TRUE(near(s.mean, 2322.92, 1e-9));
    EXPECT_TRUE(near(s.sd, 55.75887373324531, 1e-9));
    EXPECT_TRUE(near(s.se, 24.936126403272798, 1e-9));
    EXPECT_TRUE(near(*s.ciLow, 2253.68621390504, 1e-9));
    EXPECT_TRUE(near(*s.ciHigh, 2392.15378609496, 1e-9));
    EXPECT_EQ(s.median, 2310.5);
    EXPECT_EQ(s.min, 2254.1);
    EXPECT_EQ(s.max, 2401.7);
    // summary_a_90 ci_low=2269.7599990637477 ci_high=2376.0800009362524
    PointSummary s90 = summarize(kA, 0.90);
    EXPECT_TRUE(near(*s90.ciLow, 2269.7599990637477, 1e-9));
    EXPECT_TRUE(near(*s90.ciHigh, 2376.0800009362524, 1e-9));
}

TEST(Summary, IsNumericallyStableForLargeValues) {
    PointSummary s = summarize({1e8 + 1, 1e8 + 2, 1e8 + 3});
    EXPECT_EQ(s.sd, 1.0);  // big sd=1.0
    EXPECT_EQ(s.mean, 1e8 + 2);
}

TEST(Summary, EdgeCases) {
    PointSummary one = summarize({42});
    EXPECT_EQ(one.n, 1);
    EXPECT_EQ(one.mean, 42);
    EXPECT_FALSE(one.ciLow);
    EXPECT_EQ(one.note, "one run: no standard deviation and no confidence interval");
    PointSummary same = summarize({7, 7, 7});
    EXPECT_EQ(same.sd, 0);
    EXPECT_EQ(*same.ciLow, 7);
    EXPECT_EQ(*same.ciHigh, 7);
    PointSummary zeros = summarize({0, 0});
    EXPECT_EQ(zeros.mean, 0);
    EXPECT_EQ(summarize({1, 2, 3, 4}).median, 2.5);
    EXPECT_EQ(errorOf([] { summarize({1, std::nan(""), 3}, 0.95, "tps of SMT on at 8 clients"); }),
              "tps of SMT on at 8 clients: value 2 of 3 is not a number (nan)");
    EXPECT_EQ(errorOf([] { summarize({}); }), "no values to summarize");
    EXPECT_EQ(errorOf([] { summarize({1, 2}, 1.5); }), "confidence level must be between 0 and 1 (got 1.500000)");
}

TEST(Compare, WelchMatchesScipy) {
    // welch t=3.280808910877276 p=0.014802155207713955 df=6.552519195833355
    //       diff_low=26.304687783401718 diff_high=169.1553122165983
    Comparison c = compareWelch(kA, kB);
    EXPECT_TRUE(near(*c.t, 3.280808910877276, 1e-9));
    EXPECT_TRUE(near(*c.df, 6.552519195833355, 1e-9));
    EXPECT_TRUE(near(*c.pValue, 0.014802155207713955, 1e-6));
    EXPECT_TRUE(near(*c.diffLow, 26.304687783401718, 1e-9));
    EXPECT_TRUE(near(*c.diffHigh, 169.1553122165983, 1e-9));
    EXPECT_TRUE(near(*c.percentChange, 100 * (2420.65 / 2322.92 - 1), 1e-12));
    EXPECT_LT(*c.percentLow, *c.percentChange);
    EXPECT_GT(*c.percentHigh, *c.percentChange);
    EXPECT_GT(*c.percentLow, 0);
    EXPECT_EQ(c.verdict, "distinguishable");
    EXPECT_EQ(compareWelch(kA, kB, 0.99).verdict, "within run-to-run variation");  // p = 0.0148 > 0.01
}

// Measured: 8 clients, all cores, two experiments a day apart. Welch's p is 0.0507 while the
// delta-method interval of the change is +1.2% .. +55.8%: neither verdict alone may stand
// beside that interval.
TEST(Compare, AVerdictNeverContradictsTheIntervalShownBesideIt) {
    Comparison c = compareWelch({34500, 29922.5, 29389.5}, {41691.6666666667, 41357.6666666667, 34759});
    ASSERT_TRUE(c.pValue && c.percentLow);
    EXPECT_GT(*c.pValue, 0.05);
    EXPECT_GT(*c.percentLow, 0);
    EXPECT_EQ(c.verdict, kBorderline);
    // Far from the edge both agree.
    EXPECT_EQ(compareWelch({100, 101, 99}, {150, 151, 149}).verdict, "distinguishable");
    EXPECT_EQ(compareWelch({100, 110, 90}, {101, 111, 91}).verdict, "within run-to-run variation");
}

TEST(Compare, PairedMatchesScipy) {
    // paired t=3.8060102844992794 p=0.0318741951035571
    //        diff_low=0.5324691162039854 diff_high=5.967530883796014
    Comparison c = comparePaired({100, 102, 98, 101}, {104, 103, 101, 106});
    EXPECT_TRUE(c.paired);
    EXPECT_TRUE(near(*c.t, 3.8060102844992794, 1e-9));
    EXPECT_TRUE(near(*c.pValue, 0.0318741951035571, 1e-6));
    EXPECT_TRUE(near(*c.diffLow, 0.5324691162039854, 1e-9));
    EXPECT_TRUE(near(*c.diffHigh, 5.967530883796014, 1e-9));
    EXPECT_EQ(c.verdict, "distinguishable");
    EXPECT_THROW(comparePaired({1, 2}, {1}), Error);
}

TEST(Compare, OneRunIsJudgedAgainstTheOtherSidesSpread) {
    // x = 100 against {101, 102}: t = 1.5 / (0.7071 * sqrt(1 + 1/2)) = sqrt(3), df 1 (Cauchy):
    // p = 1 - 2/pi * atan(sqrt(3)) = 1/3 exactly.
    Comparison c = compareWelch({100}, {101, 102});
    EXPECT_EQ(c.singleRunSide, "baseline");
    ASSERT_TRUE(c.pValue);
    EXPECT_TRUE(near(*c.t, std::sqrt(3.0), 1e-12));
    EXPECT_EQ(*c.df, 1);
    EXPECT_TRUE(near(*c.pValue, 1.0 / 3, 1e-9));
    EXPECT_EQ(c.verdict, "within run-to-run variation");
    // A candidate's single run far outside four runs of the baseline: distinguishable.
    Comparison far = compareWelch({1000, 1010, 990, 1005}, {1200});
    EXPECT_EQ(far.singleRunSide, "candidate");
    double m = 1001.25, s = std::sqrt((1.25 * 1.25 + 8.75 * 8.75 + 11.25 * 11.25 + 3.75 * 3.75) / 3);
    EXPECT_TRUE(near(*far.t, (1200 - m) / (s * std::sqrt(1.25)), 1e-9));
    EXPECT_EQ(far.verdict, "distinguishable");
    EXPECT_TRUE(near(*far.percentLow, 100 * *far.diffLow / m, 1e-9));
    // One run against one run stays too few.
    EXPECT_EQ(compareWelch({100}, {101}).verdict, "too few runs to judge (one run on each side)");
}

TEST(Compare, AZeroBaselineHasNoRatioAndNoPercentChange) {
    Comparison c = compareWelch({-1, 0, 1}, {5, 6, 7});
    EXPECT_FALSE(c.ratio);
    EXPECT_FALSE(c.percentChange);
    EXPECT_TRUE(c.pValue) << "the difference itself is still tested";
    Comparison p = comparePaired({-1, 0, 1}, {5, 6, 8});
    EXPECT_FALSE(p.ratio);
    EXPECT_FALSE(p.percentChange);
}

TEST(Compare, OneRunOrIdenticalRunsAreTooFewToJudge) {
    Comparison same = compareWelch({5, 5}, {6, 6});  // no variation: not a variation of 0
    EXPECT_EQ(same.verdict, "too few runs to judge");
    EXPECT_FALSE(same.pValue.has_value());
    EXPECT_FALSE(same.diffLow.has_value());
}

TEST(Compare, PairedNeedsThreePairsWithSomeVariation) {
    Comparison two = comparePaired({100, 110}, {105, 111});
    EXPECT_EQ(two.verdict, "too few runs to judge");
    EXPECT_FALSE(two.pValue.has_value());
    Comparison constant = comparePaired({100, 110, 120}, {105, 115, 125});  // every pair differs by 5
    EXPECT_EQ(constant.verdict, "too few runs to judge");
    EXPECT_FALSE(constant.diffLow.has_value());
    EXPECT_TRUE(comparePaired({100, 110, 120}, {105, 114, 126}).pValue.has_value());
}

TEST(Compare, PairingRefusesARoundTwiceOnASide) {
    std::vector<PointRuns> points = {{"A", 8, {100, 101, 99}, {1, 2, 2}}, {"B", 8, {110, 111, 109}, {1, 2, 3}}};
    try {
        compareSeries(points, "A", "B", true, 0.95);
        FAIL() << "accepted a duplicated round";
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()), "cannot pair the runs of 'A' at 8 clients: round 2 is there more than once "
                                         "(exclude the extra runs, or compare unpaired)");
    }
    EXPECT_EQ(compareSeries(points, "A", "B", false, 0.95).size(), 1u);  // unpaired is fine
}

TEST(Usl, RecoversExactParametersFromNoiselessData) {
    std::vector<ScalingPoint> pts;
    UslFit truth;
    truth.lambda = 1000, truth.sigma = 0.05, truth.kappa = 0.001;
    for (double n : {1, 2, 4, 8, 16, 32, 48, 64}) pts.push_back({n, truth.predict(n), 0});
    UslFit f = fitUsl(pts);
    EXPECT_EQ(f.model, "USL");
    EXPECT_TRUE(near(f.lambda, 1000, 1e-6));
    EXPECT_TRUE(near(f.sigma, 0.05, 1e-6));
    EXPECT_TRUE(near(f.kappa, 0.001, 1e-6));
    EXPECT_TRUE(near(f.rSquared, 1.0, 1e-9));
    // N* = sqrt((1 - 0.05) / 0.001) = 30.8220700...
    EXPECT_TRUE(near(*f.peakClients, std::sqrt(0.95 / 0.001), 1e-6));
    EXPECT_TRUE(near(*f.peakThroughput, truth.predict(std::sqrt(950.0)), 1e-6));
}

// lambda 1000, sigma 0.05, kappa 0.001 times noise of up to 2% (tests/data/stats_reference.py).
std::vector<ScalingPoint> noisyUslPoints() {
    std::vector<double> n = {1, 2, 4, 8, 16, 32, 48, 64};
    std::vector<double> x = {1010.0, 1863.1178707224335, 3511.18760757315, 5633.001422475107,
                             8160.8040201005015, 8898.927159796725, 8562.25472707813, 7900.268882913712};
    std::vector<ScalingPoint> pts;
    for (size_t i = 0; i < n.size(); ++i) pts.push_back({n[i], x[i], 0});
    return pts;
}

TEST(Usl, MatchesScipyCurveFitOnNoisyDataAndRecoversTheTruthWithinItsStandardErrors) {
    // usl_noisy lam=1014.8311047068058 sig=0.05251185636208674 kap=0.000983045176824771
    //           lam_se=25.985472317811855 sig_se=0.004125102807651971 kap_se=4.180483779768891e-05
    std::vector<ScalingPoint> pts = noisyUslPoints();
    UslFit f = fitUsl(pts);
    EXPECT_TRUE(near(f.lambda, 1014.8311047068058, 1e-6));
    EXPECT_TRUE(near(f.sigma, 0.05251185636208674, 1e-6));
    EXPECT_TRUE(near(f.kappa, 0.000983045176824771, 1e-6));
    EXPECT_TRUE(near(f.lambdaSe, 25.985472317811855, 1e-6));
    EXPECT_TRUE(near(f.sigmaSe, 0.004125102807651971, 1e-6));
    EXPECT_TRUE(near(f.kappaSe, 4.180483779768891e-05, 1e-6));
    // The data came from lambda 1000, sigma 0.05, kappa 0.001 times noise of up to 2%.
    EXPECT_LT(std::fabs(f.lambda - 1000), f.lambdaSe);
    EXPECT_LT(std::fabs(f.sigma - 0.05), f.sigmaSe);
    EXPECT_LT(std::fabs(f.kappa - 0.001), f.kappaSe);
    EXPECT_TRUE(f.peakClients.has_value());
}

TEST(Usl, KeepsTheUslAndShowsAmdahlBesideItWhenKappaIsNotAboveZero) {
    std::vector<ScalingPoint> pts;
    for (double n : {1, 2, 4, 8, 16}) pts.push_back({n, 500 * n / (1 + 0.1 * (n - 1)) * (n == 4 ? 1.01 : 1.0), 0});
    UslFit f = fitUsl(pts);
    EXPECT_EQ(f.model, "USL");  // never silently replaced
    EXPECT_FALSE(f.kappaAboveZero);
    ASSERT_TRUE(f.amdahl.has_value());
    EXPECT_TRUE(near(f.amdahl->sigma, 0.1, 0.05));
    EXPECT_NE(f.note.find("kappa is not significantly above 0"), std::string::npos) << f.note;
}

// A curve that peaks near 40 clients and falls after, with noise that leaves kappa's interval
// touching 0: the USL, its N* and X(N*) with their uncertainty are still reported.
TEST(Usl, ReportsThePeakWithItsUncertaintyEvenWhenKappaIsNotSignificant) {
    UslFit truth;
    truth.lambda = 1000, truth.sigma = 0.02, truth.kappa = 0.0006;  // N* = 40.4
    std::vector<double> noise = {1.0, 0.91, 1.12, 0.85, 1.18, 0.79, 1.21, 0.82};  // up to 21%
    std::vector<ScalingPoint> pts;
    std::vector<double> ns = {1, 8, 16, 24, 32, 40, 48, 64};
    for (size_t i = 0; i < ns.size(); ++i) pts.push_back({ns[i], truth.predict(ns[i]) * noise[i], 0});
    UslFit f = fitUsl(pts);
    EXPECT_EQ(f.model, "USL");
    EXPECT_TRUE(f.converged);
    EXPECT_FALSE(f.kappaAboveZero);       // fit: kappa 0.00079 +/- 0.00039
    EXPECT_TRUE(f.amdahl.has_value());
    ASSERT_TRUE(f.peakClients.has_value());
    EXPECT_GT(*f.peakClients, 25);        // fit: 35.5 +/- 8.2
    EXPECT_LT(*f.peakClients, 50);
    ASSERT_TRUE(f.peakClientsSe.has_value());
    EXPECT_GT(*f.peakClientsSe, 0);
    ASSERT_TRUE(f.peakThroughputSe.has_value());
    EXPECT_GT(*f.peakThroughputSe, 0);
}

// Delta method on the SciPy-checked fit: N*'s standard error is positive and no larger than
// the sum of the two parameters' contributions (sigma and kappa are negatively correlated).
TEST(Usl, PeakUncertaintyFollowsTheParametersStandardErrors) {
    std::vector<ScalingPoint> pts = noisyUslPoints();
    UslFit f = fitUsl(pts);
    ASSERT_TRUE(f.kappaAboveZero);
    ASSERT_TRUE(f.peakClientsSe.has_value());
    // Upper bound without the (negative) sigma-kappa covariance: |dN/dsigma| se_s + |dN/dkappa| se_k.
    double nStar = *f.peakClients;
    double bound = f.sigmaSe / (2 * f.kappa * nStar) + nStar / (2 * f.kappa) * f.kappaSe;
    EXPECT_GT(*f.peakClientsSe, 0);
    EXPECT_LE(*f.peakClientsSe, bound * 1.000001);
    EXPECT_FALSE(f.amdahl.has_value());
}

// A curve that bends upwards (cache effects) fits a negative kappa: said as such, never as
// "kappa = 0", and without a peak.
TEST(Usl, ANegativeKappaIsSaidAsNegative) {
    std::vector<ScalingPoint> pts;
    for (double n : {1, 2, 4, 8, 12, 16}) pts.push_back({n, 100 * n / (1 + 0.2 * (n - 1) - 0.002 * n * (n - 1)), 0});
    UslFit f = fitUsl(pts);
    ASSERT_TRUE(f.converged);
    EXPECT_TRUE(near(f.kappa, -0.002, 1e-6)) << f.kappa;
    EXPECT_FALSE(f.peakClients);
    EXPECT_NE(f.note.find("kappa < 0: the curve bends upwards"), std::string::npos) << f.note;
    EXPECT_EQ(f.note.find("kappa = 0"), std::string::npos) << f.note;
}

// A fit that ran out of evaluations has not converged: no peak is shown from it, and an Amdahl
// fit beside it that did not converge either says so.
TEST(Usl, AFitThatDidNotConvergeShowsNoPeak) {
    std::vector<ScalingPoint> pts = noisyUslPoints();
    UslFit good = fitUsl(pts);
    ASSERT_TRUE(good.converged && good.peakClients);
    UslFit f = fitUsl(pts, false, 1);
    EXPECT_FALSE(f.converged);
    EXPECT_FALSE(f.peakClients);
    EXPECT_FALSE(f.peakThroughput);
    EXPECT_TRUE(std::isnan(f.kappaSe));
    EXPECT_NE(f.note.find("the fit did not converge"), std::string::npos) << f.note;
    ASSERT_TRUE(f.amdahl);
    EXPECT_FALSE(f.amdahl->converged);
    EXPECT_NE(f.note.find("Amdahl's law did not converge either"), std::string::npos) << f.note;
}

TEST(Usl, ExactlyDeterminedFitsHaveNoStandardErrorsRatherThanZero) {
    UslFit truth;
    truth.lambda = 1000, truth.sigma = 0.05, truth.kappa = 0.001;
    std::vector<ScalingPoint> pts;
    for (double n : {1, 8, 32}) pts.push_back({n, truth.predict(n), 0});
    UslFit f = fitUsl(pts);
    EXPECT_TRUE(std::isnan(f.kappaSe));
    EXPECT_FALSE(f.peakClientsSe.has_value());
    EXPECT_NE(f.note.find("no standard errors"), std::string::npos) << f.note;
}

// Issue 32.6: three client counts gave "R² 1.000, N* 2.5" with no warning. Below five client
// counts there is no N* and the note says why; from five on the peak is reported.
TEST(Usl, NoPeakFromFewerThanFiveClientCounts) {
    UslFit truth;
    truth.lambda = 1000, truth.sigma = 0.05, truth.kappa = 0.02;
    for (std::vector<double> counts : {std::vector<double>{1, 2, 4}, {1, 2, 4, 8}}) {
        std::vector<ScalingPoint> pts;
        for (double n : counts) pts.push_back({n, truth.predict(n), 0});
        UslFit f = fitUsl(pts);
        EXPECT_FALSE(f.peakClients.has_value());
        EXPECT_FALSE(f.peakThroughput.has_value());
        EXPECT_NE(f.note.find("no N*: a peak needs at least 5 client counts, this series has " + std::to_string(counts.size())),
                  std::string::npos)
            << f.note;
    }
    std::vector<ScalingPoint> five;
    for (double n : {1, 2, 4, 8, 16}) five.push_back({n, truth.predict(n), 0});
    UslFit f = fitUsl(five);
    ASSERT_TRUE(f.peakClients.has_value());
    EXPECT_NEAR(*f.peakClients, std::sqrt((1 - truth.sigma) / truth.kappa), 1e-3);
}

TEST(Usl, RefusesTooFewPointsAndBadInput) {
    EXPECT_EQ(errorOf([] { fitUsl({{1, 100, 0}, {2, 190, 0}}); }),
              "the USL has 3 parameters and needs at least 3 client counts; this series has 2");
    EXPECT_EQ(errorOf([] { fitUsl({{4, 100, 0}}); }),
              "the USL has 3 parameters and needs at least 3 client counts; this series has 1");
    EXPECT_EQ(errorOf([] { fitUsl({{1, 100, 0}, {2, std::nan(""), 0}, {4, 300, 0}}); }),
              "USL fit: a point is not a number (clients 2.000000)");
    EXPECT_EQ(errorOf([] { fitUsl({{1, 100, 5}, {2, 190, 0}, {4, 300, 9}}, true); }),
              "USL fit weighted by 1/variance needs a standard deviation above 0 at every point "
              "(clients 2 has none: one run, or identical runs)");
}

TEST(Usl, WeightingByVarianceFavoursThePrecisePoints) {
    UslFit truth;
    truth.lambda = 800, truth.sigma = 0.02, truth.kappa = 0.0005;
    std::vector<ScalingPoint> pts;
    for (double n : {1, 2, 4, 8, 16, 32, 64}) pts.push_back({n, truth.predict(n), 1});
    pts[3].mean *= 1.2;  // one point far off, but marked very uncertain
    pts[3].sd = 1e4;
    UslFit weighted = fitUsl(pts, true), plain = fitUsl(pts, false);
    EXPECT_TRUE(weighted.weighted);
    EXPECT_LT(std::fabs(weighted.lambda - 800), std::fabs(plain.lambda - 800));
    EXPECT_TRUE(near(weighted.kappa, 0.0005, 1e-3));
}

TEST(Peak, HighestMeanPerSeriesAndPercentOfBaseline) {
    auto point = [](const std::string& series, int clients, std::vector<double> v) {
        return SeriesPoint{series, clients, summarize(v)};
    };
    std::vector<SeriesPoint> pts = {point("2 cores", 1, {900, 910}), point("2 cores", 2, {1700, 1720}),
                                    point("2 cores", 4, {1650, 1690}), point("4 cores", 1, {905, 915}),
                                    point("4 cores", 4, {3100, 3140}), point("4 cores", 8, {3000, 3020})};
    auto rows = peakTable(pts, "2 cores");
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].series, "2 cores");
    EXPECT_EQ(rows[0].clients, 2);
    EXPECT_EQ(rows[0].at.mean, 1710);
    EXPECT_EQ(*rows[0].percentOfBaseline, 100);
    EXPECT_EQ(rows[1].clients, 4);
    EXPECT_TRUE(near(*rows[1].percentOfBaseline, 100.0 * 3120 / 1710, 1e-12));
    EXPECT_FALSE(peakTable(pts)[1].percentOfBaseline);
    EXPECT_EQ(errorOf([&] { peakTable(pts, "8 cores"); }), "no series named '8 cores' to use as the baseline (it has: 2 cores, 4 cores)");
    EXPECT_EQ(errorOf([&] { peakTable({}, "8 cores"); }), "no series named '8 cores' to use as the baseline (it has none)");
}

TEST(SteadyState, FlagsVariableRunsAndMeasuresTrend) {
    std::vector<double> t = {1, 2, 3, 4, 5, 6};
    SteadyState steady = steadyState({1000, 1010, 990, 1005, 995, 1000}, t);
    EXPECT_FALSE(steady.unstable);
    EXPECT_LT(steady.cv, 0.02);
    EXPECT_GT(*steady.slopePValue, 0.05);
    SteadyState drifting = steadyState({1000, 1100, 1200, 1300, 1400, 1500}, t);
    EXPECT_TRUE(near(*drifting.slopePerSecond, 100, 1e-12));
    EXPECT_LT(*drifting.slopePValue, 1e-6);
    EXPECT_TRUE(drifting.unstable);  // cv = 0.15
    EXPECT_NE(drifting.reason.find("above 10.0%"), std::string::npos) << drifting.reason;
    EXPECT_EQ(steadyState({1, 2}, {1, 2}).reason, "fewer than 3 intervals: steadiness not judged");
}

// Interval samples are autocorrelated. 2000 runs of 60 intervals of AR(1) noise with no trend:
// at phi 0.7 the plain OLS slope test (computed here) calls a trend at p < 0.01 in 27% of them;
// the test ScaleLab runs (effective sample size, Santer et al. 2000) in 3.4%. With independent
// intervals (phi 0) both call 0.7%.
TEST(SteadyState, TheTrendTestAllowsForAutocorrelatedIntervals) {
    const int runs = 2000, n = 60;
    std::vector<double> t(n), y(n);
    for (int i = 0; i < n; ++i) t[static_cast<size_t>(i)] = i + 1;
    for (double phi : {0.0, 0.7}) {
        std::mt19937_64 rng(42);
        std::normal_distribution<double> z(0, 1);
        int ols = 0, ours = 0;
        for (int r = 0; r < runs; ++r) {
            double e = z(rng) / std::sqrt(1 - phi * phi);
            for (auto& v : y) v = 1000 + 20 * (e = phi * e + z(rng));
            double tm = 30.5, ym = 0, sxx = 0, sxy = 0, rss = 0;
            for (double v : y) ym += v / n;
            for (int i = 0; i < n; ++i) sxx += (t[i] - tm) * (t[i] - tm), sxy += (t[i] - tm) * (y[i] - ym);
            double b = sxy / sxx;
            for (int i = 0; i < n; ++i) rss += std::pow(y[i] - ym - b * (t[i] - tm), 2);
            ols += studentTTwoSidedP(b / std::sqrt(rss / (n - 2) / sxx), n - 2) < 0.01;
            ours += *steadyState(y, t).slopePValue < 0.01;
        }
        std::printf("trend p < 0.01 with no trend, AR(1) phi %.1f, %d runs of %d intervals: OLS %.1f%%, ScaleLab %.1f%%\n",
                    phi, runs, n, 100.0 * ols / runs, 100.0 * ours / runs);
        if (phi > 0) {
            EXPECT_GT(ols, runs / 10) << "the plain test is too bold on correlated intervals";
            EXPECT_LT(ours, runs / 20) << "within 5% at a nominal 1%";
        } else {
            EXPECT_LE(ours, runs / 50) << "independent intervals: near the nominal 1%";
            EXPECT_LE(ours, ols) << "never bolder than OLS";
        }
    }
}

TEST(UslScope, OnlyThroughputMetricsAreFitted) {
    EXPECT_TRUE(isThroughputMetric(RunMetric::Tps));
    EXPECT_TRUE(isThroughputMetric(RunMetric::LogicalReads));
    for (RunMetric m : {RunMetric::LatencyMean, RunMetric::LatencyP95, RunMetric::LatencyP99, RunMetric::CpuBusy,
                        RunMetric::ServerCpu})
        EXPECT_FALSE(isThroughputMetric(m)) << runMetricName(m);
}

namespace {
RunRecord markerRun(const std::string& source, const nlohmann::json& detail = nlohmann::json::object()) {
    RunRecord r;
    r.series = "A", r.clients = 8, r.repetition = 1, r.status = RunStatus::Completed, r.tps = 100, r.source = source;
    r.detail = detail;
    return r;
}
std::vector<std::string> labels(const std::vector<MachineMarker>& m) {
    std::vector<std::string> out;
    for (const auto& x : m) out.push_back(x.label);
    return out;
}
} // namespace

TEST(MachineMarkers, OnlyForMachinesTheRunsWereMeasuredOn) {
    ThisMachine here{"bench-1", 2, 2};
    nlohmann::json fromHere = {{"machine", {{"hostname", "bench-1"}, {"cores", 2}, {"pus", 2}}}};
    nlohmann::json fromThere = {{"machine", {{"hostname", "db-64"}, {"cores", 32}, {"pus", 64}}}};
    // A sweep measured here: this machine's cores.
    EXPECT_EQ(labels(machineMarkers({markerRun("sweep")}, {fromHere}, here)), std::vector<std::string>{"this machine: 2 cores"});
    // A sweep measured on another machine, opened here: that machine's, named.
    EXPECT_EQ(labels(machineMarkers({markerRun("sweep")}, {fromThere}, here)),
              (std::vector<std::string>{"db-64: 32 cores", "db-64: 64 PUs"}));
    // The server on a server host (or a metrics host's): that machine's cores, not the
    // clients' machine's.
    nlohmann::json serverThere = fromHere;
    serverThere["server_machine"] = {{"hostname", "db-64"}, {"cores", 32}, {"pus", 64}, {"server_host", "bench@db-64"}};
    EXPECT_EQ(labels(machineMarkers({markerRun("sweep")}, {serverThere}, here)),
              (std::vector<std::string>{"db-64: 32 cores", "db-64: 64 PUs"}));
    // Imported pgbench outputs: none, unless the import said the source machine.
    EXPECT_TRUE(machineMarkers({markerRun("import: a.txt")}, {}, here).empty());
    EXPECT_EQ(labels(machineMarkers({markerRun("import: a.txt", {{"machine", {{"cores", 16}, {"pus", 32}}}})}, {}, here)),
              (std::vector<std::string>{"imported: 16 cores", "imported: 32 PUs"}));
    // Runs that do not count draw nothing.
    RunRecord failed = markerRun("sweep");
    failed.status = RunStatus::Failed;
    EXPECT_TRUE(machineMarkers({failed}, {fromHere}, here).empty());
}
