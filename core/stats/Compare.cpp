#include "stats/Compare.h"

#include "util/Error.h"

#include <cmath>
#include <cstdio>

namespace scalelab {
namespace {

// The t-test on the difference and the interval of the % change (delta method on the ratio,
// for Welch) are two approximations: near the edge they can disagree, and a table must not put
// "within run-to-run variation" beside an interval that excludes 0 (or the reverse).
void decide(Comparison& c, double confidence) {
    bool test = *c.pValue < 1 - confidence;
    bool interval = c.percentLow ? (*c.percentLow > 0 || *c.percentHigh < 0) : test;
    c.verdict = test && interval     ? "distinguishable"
                : !test && !interval ? "within run-to-run variation"
                                     : kBorderline;
}

// mean(B) / mean(A) and the % change; both missing when mean(A) is 0 (no ratio exists).
void setRatio(Comparison& c) {
    if (c.a.mean == 0) return;
    c.ratio = c.b.mean / c.a.mean;
    c.percentChange = 100 * (*c.ratio - 1);
}

// One run on one side: that run as a new observation against the other side's runs.
Comparison compareSingleRun(Comparison c, double confidence) {
    bool baselineSingle = c.a.n == 1;
    const PointSummary& many = baselineSingle ? c.b : c.a;
    c.singleRunSide = baselineSingle ? "baseline" : "candidate";
    double se = many.sd * std::sqrt(1 + 1.0 / many.n);
    if (se == 0) {
        c.verdict = kTooFewToJudge;
        return c;
    }
    c.df = many.n - 1;
    c.t = c.difference / se;
    c.pValue = studentTTwoSidedP(*c.t, *c.df);
    double q = studentTQuantile(1 - (1 - confidence) / 2, *c.df);
    c.diffLow = c.difference - q * se;
    c.diffHigh = c.difference + q * se;
    if (c.a.mean > 0) {
        c.percentLow = 100 * *c.diffLow / c.a.mean;
        c.percentHigh = 100 * *c.diffHigh / c.a.mean;
    }
    decide(c, confidence);
    return c;
}

} // namespace

bool changeIntervalBounded(double lowPct, double highPct) {
    if (!std::isfinite(lowPct) || !std::isfinite(highPct) || lowPct <= -100) return false;
    return (100 + highPct) / (100 + lowPct) <= kUnboundedRatioSpan;
}

std::string changeIntervalText(const std::optional<double>& lowPct, const std::optional<double>& highPct) {
    if (!lowPct || !highPct) return "-";
    if (!changeIntervalBounded(*lowPct, *highPct)) return kTooFewToBound;
    char text[96];
    std::snprintf(text, sizeof text, "%+.1f%% .. %+.1f%%", *lowPct, *highPct);
    return text;
}

Comparison compareWelch(const std::vector<double>& a, const std::vector<double>& b, double confidence) {
    Comparison c;
    c.a = summarize(a, confidence, "baseline runs");
    c.b = summarize(b, confidence, "compared runs");
    c.difference = c.b.mean - c.a.mean;
    setRatio(c);
    if (c.a.n < 2 && c.b.n < 2) {
        c.verdict = std::string(kTooFewToJudge) + " (one run on each side)";
        return c;
    }
    if (c.a.n < 2 || c.b.n < 2) return compareSingleRun(c, confidence);
    double va = c.a.sd * c.a.sd / c.a.n, vb = c.b.sd * c.b.sd / c.b.n;
    double se = std::sqrt(va + vb);
    if (se == 0) {
        // No variation measured is not a variation of 0: nothing can be judged.
        c.verdict = kTooFewToJudge;
        return c;
    }
    // Welch-Satterthwaite degrees of freedom.
    c.df = (va + vb) * (va + vb) / (va * va / (c.a.n - 1) + vb * vb / (c.b.n - 1));
    c.t = c.difference / se;
    c.pValue = studentTTwoSidedP(*c.t, *c.df);
    double q = studentTQuantile(1 - (1 - confidence) / 2, *c.df);
    c.diffLow = c.difference - q * se;
    c.diffHigh = c.difference + q * se;
    if (c.a.mean > 0 && c.b.mean > 0) {
        // Delta method: Var(log mean) ~ se^2 / mean^2 on each side.
        double la = va / (c.a.mean * c.a.mean), lb = vb / (c.b.mean * c.b.mean);
        double dfLog = (la + lb) * (la + lb) / (la * la / (c.a.n - 1) + lb * lb / (c.b.n - 1));
        double half = studentTQuantile(1 - (1 - confidence) / 2, dfLog) * std::sqrt(la + lb);
        c.percentLow = 100 * (*c.ratio * std::exp(-half) - 1);
        c.percentHigh = 100 * (*c.ratio * std::exp(half) - 1);
    }
    decide(c, confidence);
    return c;
}

Comparison comparePaired(const std::vector<double>& a, const std::vector<double>& b, double confidence) {
    if (a.size() != b.size())
        throw Error("a paired comparison needs as many runs on each side (" + std::to_string(a.size()) + " and " +
                    std::to_string(b.size()) + ")");
    Comparison c;
    c.paired = true;
    c.a = summarize(a, confidence, "baseline runs");
    c.b = summarize(b, confidence, "compared runs");
    std::vector<double> d;
    for (size_t i = 0; i < a.size(); ++i) d.push_back(b[i] - a[i]);
    PointSummary diff = summarize(d, confidence, "paired differences");
    c.difference = diff.mean;
    if (diff.n > 1) c.sdDifferences = diff.sd;
    setRatio(c);
    // Two pairs give a t with 1 degree of freedom whose interval spans orders of magnitude, and
    // pairs that differ by exactly the same amount give no variance: neither can be judged.
    if (diff.n < kMinPairs || diff.se == 0) {
        c.verdict = kTooFewToJudge;
        return c;
    }
    c.df = diff.n - 1;
    c.t = diff.mean / diff.se;
    c.pValue = studentTTwoSidedP(*c.t, *c.df);
    c.diffLow = diff.ciLow;
    c.diffHigh = diff.ciHigh;
    if (c.a.mean != 0) {
        c.percentLow = 100 * *c.diffLow / c.a.mean;
        c.percentHigh = 100 * *c.diffHigh / c.a.mean;
    }
    decide(c, confidence);
    return c;
}

} // namespace scalelab
