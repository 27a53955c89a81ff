#include "sweep/AdaptiveRounds.h"

#include "load/Random.h"
#include "stats/ExperimentPoints.h"
#include "stats/Summary.h"
#include "stats/Verdict.h"
#include "util/Error.h"
#include "util/Format.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace scalelab {
namespace {

std::string pct(double v) { return formatNumber("%.1f%%", v); }

// The counted tps of every point of the plan, by (series index, clients); a point without a
// counted run has none.
std::map<std::pair<int, int>, std::vector<double>> countedTps(const SweepPlan& plan, const std::vector<RunRecord>& runs) {
    std::map<std::pair<int, int>, std::vector<double>> out;
    std::vector<std::string> labels;
    for (size_t s = 0; s < plan.series.size(); ++s) {
        labels.push_back(plan.series[s].label);
        for (int c : plan.clients) out[{static_cast<int>(s), c}];
    }
    for (auto& p : pointRuns(runs, labels, RunMetric::Tps)) {
        auto s = std::find(labels.begin(), labels.end(), p.series);
        if (s == labels.end()) continue;
        auto at = out.find({static_cast<int>(s - labels.begin()), p.clients});
        if (at != out.end()) at->second = std::move(p.values);
    }
    return out;
}

// The interval's half-width, % of the mean; none below 2 runs or at a mean of 0.
std::optional<double> halfWidthPct(const std::vector<double>& values) {
    if (values.size() < 2) return std::nullopt;
    PointSummary s = summarize(values, 0.95, "runs");
    if (!(s.mean > 0) || !s.ciHigh) return std::nullopt;
    return 100 * (*s.ciHigh - s.mean) / s.mean;
}

// The compared pair's verdict as a report with the rule's pairing would give it. A paired
// comparison that cannot be made (a round twice on a side) is judged unpaired, as the report
// would refuse it.
CurveVerdict pairVerdict(const PrecisionRule& rule, const std::vector<RunRecord>& runs, bool withEquivalence = false) {
    VerdictOptions o;
    o.advise = false;
    o.paired = rule.paired;
    if (withEquivalence) o.equivalencePct = rule.equivalencePct;
    std::vector<std::string> order{rule.baseline, rule.candidate};
    auto points = pointRuns(runs, order, RunMetric::Tps);
    try {
        return judgeCurve(points, runs, rule.baseline, rule.candidate, RunMetric::Tps, o);
    } catch (const Error&) {
        o.paired = false;
        return judgeCurve(points, runs, rule.baseline, rule.candidate, RunMetric::Tps, o);
    }
}

std::optional<std::string> ownNeed(const std::vector<double>& values, double targetPct) {
    auto half = halfWidthPct(values);
    if (!half) return std::string(values.empty() ? "no completed run" : "one run: no interval yet");
    if (*half > targetPct) return "interval +/-" + pct(*half) + ", target +/-" + pct(targetPct);
    return std::nullopt;
}

// Decided on precision alone, never on the call: stopping where a difference appears (or
// vanishes) would sample until noise crosses the line. A series that is not compared stops
// when its own interval is within the target. The compared pair gets its rounds together, at
// every client count, until the simultaneous interval of the change at each (the one the
// report's verdict gives, Bonferroni over the client counts judged) is within +/- target,
// whichever side of 0 it lies: both sides stay balanced (paired rounds stay pairs), and whether
// the pair stops never depends on how the two compare.
std::vector<PointNeed> assess(const SweepPlan& plan, const std::vector<RunRecord>& runs, bool atLimit) {
    std::vector<PointNeed> needs;
    if (!plan.precision) return needs;
    const PrecisionRule& rule = *plan.precision;
    auto tps = countedTps(plan, runs);
    int a = -1, b = -1;
    for (size_t s = 0; s < plan.series.size(); ++s) {
        if (!rule.baseline.empty() && plan.series[s].label == rule.baseline) a = static_cast<int>(s);
        if (!rule.candidate.empty() && plan.series[s].label == rule.candidate) b = static_cast<int>(s);
    }
    std::map<std::pair<int, int>, std::string> reasons;
    for (const auto& [point, values] : tps) {
        if (point.first == a || point.first == b) continue;
        if (auto why = ownNeed(values, rule.targetPct)) reasons[point] = *why;
    }
    if (a >= 0 && b >= 0) {
        CurveVerdict v = pairVerdict(rule, runs);
        std::vector<std::pair<int, std::string>> open;  // client counts not yet precise, and why
        for (int c : plan.clients) {
            auto p = std::find_if(v.points.begin(), v.points.end(), [&](const PointVerdict& x) { return x.clients == c; });
            std::string why;
            if (p == v.points.end()) {
                why = "comparison: no completed run of both series yet";
            } else if (p->call == PointCall::NotJudged) {
                // More of the same runs would not fix what they measure; each side's own
                // precision still counts, for both together.
                auto wa = ownNeed(tps[{a, c}], rule.targetPct), wb = ownNeed(tps[{b, c}], rule.targetPct);
                if (wa || wb) why = (wa ? rule.baseline + " " + *wa : rule.candidate + " " + *wb) + " (not judged: " + p->why + ")";
            } else if (!p->simultaneousLow || !p->simultaneousHigh) {
                why = "comparison: " + std::string(pointCallName(p->call)) + (p->why.empty() ? "" : " (" + p->why + ")");
            } else {
                double half = (*p->simultaneousHigh - *p->simultaneousLow) / 2;
                if (half > rule.targetPct)
                    why = changeIntervalBounded(*p->simultaneousLow, *p->simultaneousHigh)
                              ? "change interval " + pct(*p->simultaneousLow) + " .. " + pct(*p->simultaneousHigh) +
                                    " (+/-" + pct(half) + "), target +/-" + pct(rule.targetPct)
                              : "change interval: " + std::string(kTooFewToBound) + ", target +/-" + pct(rule.targetPct);
            }
            if (!why.empty()) open.emplace_back(c, why);
        }
        // The pair stops at every client count together, once every one is precise enough: a
        // client count that stopped alone would stop when its own sd happened to be small, and
        // its calls would be too many (docs/statistics.md, "Adaptive rounds").
        std::string where;
        for (const auto& o : open) where += (where.empty() ? "" : ", ") + std::to_string(o.first);
        for (int c : plan.clients) {
            auto own = std::find_if(open.begin(), open.end(), [&](const auto& o) { return o.first == c; });
            if (own != open.end()) {
                reasons[{a, c}] = reasons[{b, c}] = own->second;
            } else if (!open.empty() && !atLimit) {
                // Precise here, but the pair runs on together (not said at the limit: not short).
                reasons[{a, c}] = reasons[{b, c}] = "the comparison is not yet precise at " + where + " clients";
            }
        }
    }
    for (const auto& [point, reason] : reasons) {
        int rounds = static_cast<int>(tps[point].size());
        if ((rounds >= rule.maxRepetitions) == atLimit) needs.push_back({point.first, point.second, rounds, reason});
    }
    return needs;
}

} // namespace

std::vector<PointNeed> pointsNeedingRounds(const SweepPlan& plan, const std::vector<RunRecord>& runs) {
    return assess(plan, runs, false);
}

std::vector<PointNeed> pointsShortAtLimit(const SweepPlan& plan, const std::vector<RunRecord>& runs) {
    return assess(plan, runs, true);
}

std::vector<std::string> comparisonAtEnd(const SweepPlan& plan, const std::vector<RunRecord>& runs) {
    std::vector<std::string> out;
    if (!plan.precision || plan.precision->baseline.empty()) return out;
    const PrecisionRule& rule = *plan.precision;
    CurveVerdict v = pairVerdict(rule, runs, true);
    out.push_back(rule.candidate + " against " + rule.baseline + " (" + (v.options.paired ? "paired by round" : "Welch") +
                  "), as `scalelab report --compare` says it" + (v.options.paired ? " with --paired" : "") +
                  " (after adaptive rounds its intervals are approximate: docs/statistics.md, \"Adaptive rounds\"):");
    for (const auto& s : v.summary) out.push_back("  " + s);
    return out;
}

std::vector<PlannedRun> extraRound(const SweepPlan& plan, const std::vector<PointNeed>& needs, int firstIndex, int round,
                                   uint64_t seed) {
    std::vector<PlannedRun> out;
    Random rng(seed ^ (0xa0761d6478bd642full * static_cast<uint64_t>(round)));
    std::vector<int> clients = plan.clients;
    std::sort(clients.begin(), clients.end());
    for (int c : clients) {
        std::vector<int> series;
        for (const auto& n : needs)
            if (n.clients == c) series.push_back(n.series);
        std::sort(series.begin(), series.end());
        for (int i = static_cast<int>(series.size()) - 1; i > 0; --i)
            std::swap(series[static_cast<size_t>(i)], series[static_cast<size_t>(rng.between(0, i))]);
        // A precision rule runs with one rate and one scale (parsePlan refuses lists): the plan's.
        for (int s : series)
            out.push_back({firstIndex + static_cast<int>(out.size()), round, s, c, plan.rates.front(), plan.scales.front()});
    }
    return out;
}

int estimatedExtraRuns(const SweepPlan& plan, const std::vector<RunRecord>& runs) {
    if (!plan.precision) return 0;
    const PrecisionRule& rule = *plan.precision;
    auto more = [&](int n, double want) {  // runs beyond what is planned or done, up to the limit
        int need = static_cast<int>(std::min<double>(rule.maxRepetitions, want));
        return std::max(0, need - std::max(n, plan.repetitions));
    };
    int extra = 0;
    bool compared = !rule.baseline.empty();
    for (const auto& [point, values] : countedTps(plan, runs)) {
        const std::string& label = plan.series[static_cast<size_t>(point.first)].label;
        if (compared && (label == rule.baseline || label == rule.candidate)) continue;
        int n = static_cast<int>(values.size());
        if (n < 2 || n >= rule.maxRepetitions) continue;
        PointSummary s = summarize(values, 0.95, "runs");
        if (!(s.mean > 0)) continue;
        // n with t(0.975, n - 1) * sd / sqrt(n) <= target * mean, the t of the runs there are.
        double t = studentTQuantile(0.975, n - 1);
        extra += more(n, std::ceil(std::pow(t * s.sd / (rule.targetPct / 100 * s.mean), 2)));
    }
    if (compared)
        for (const auto& p : pairVerdict(rule, runs).points) {
            int n = std::min(p.comparison.a.n, p.comparison.b.n);
            if (!p.simultaneousLow || n >= rule.maxRepetitions) continue;
            // The interval narrows as 1 / sqrt(n) (the t quantile's fall ignored): a round on both sides.
            double half = (*p.simultaneousHigh - *p.simultaneousLow) / 2;
            extra += 2 * more(n, std::ceil(n * std::pow(half / rule.targetPct, 2)));
        }
    return extra;
}

} // namespace scalelab
