#include "sweep/AdaptiveRounds.h"

#include "load/Random.h"
#include "stats/ExperimentPoints.h"
#include "stats/Summary.h"
#include "stats/Verdict.h"
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

std::vector<PointNeed> assess(const SweepPlan& plan, const std::vector<RunRecord>& runs, bool atLimit) {
    std::vector<PointNeed> needs;
    if (!plan.precision) return needs;
    const PrecisionRule& rule = *plan.precision;
    auto tps = countedTps(plan, runs);
    std::map<std::pair<int, int>, std::string> reasons;
    for (const auto& [point, values] : tps) {
        auto half = halfWidthPct(values);
        if (!half) reasons[point] = values.empty() ? "no completed run" : "one run: no interval yet";
        else if (*half > rule.targetPct) reasons[point] = "interval +/-" + pct(*half) + ", target +/-" + pct(rule.targetPct);
    }
    if (!rule.baseline.empty()) {
        int a = -1, b = -1;
        for (size_t s = 0; s < plan.series.size(); ++s) {
            if (plan.series[s].label == rule.baseline) a = static_cast<int>(s);
            if (plan.series[s].label == rule.candidate) b = static_cast<int>(s);
        }
        std::vector<std::string> order{rule.baseline, rule.candidate};
        VerdictOptions o;
        o.advise = false;
        CurveVerdict v = judgeCurve(pointRuns(runs, order, RunMetric::Tps), runs, rule.baseline, rule.candidate,
                                    RunMetric::Tps, o);
        for (const auto& p : v.points) {
            // Decided: a difference, or no difference with the whole interval inside the target.
            bool narrow = p.simultaneousLow && std::fabs(*p.simultaneousLow) <= rule.targetPct &&
                          std::fabs(*p.simultaneousHigh) <= rule.targetPct;
            bool open = p.call == PointCall::Undecided || p.call == PointCall::TooFew ||
                        (p.call == PointCall::NoDifference && !narrow);
            if (!open) continue;
            std::string why = std::string("comparison ") + pointCallName(p.call) +
                              (p.simultaneousLow ? " (change " + pct(*p.simultaneousLow) + " .. " + pct(*p.simultaneousHigh) + ")"
                                                 : std::string());
            for (int s : {a, b}) {
                std::string& r = reasons[{s, p.clients}];
                r += (r.empty() ? "" : "; ") + why;
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
        for (int s : series) out.push_back({firstIndex + static_cast<int>(out.size()), round, s, c});
    }
    return out;
}

int estimatedExtraRuns(const SweepPlan& plan, const std::vector<RunRecord>& runs) {
    if (!plan.precision) return 0;
    const PrecisionRule& rule = *plan.precision;
    int extra = 0;
    for (const auto& [point, values] : countedTps(plan, runs)) {
        int n = static_cast<int>(values.size());
        if (n < 2 || n >= rule.maxRepetitions) continue;
        PointSummary s = summarize(values, 0.95, "runs");
        if (!(s.mean > 0)) continue;
        // n with t(0.975, n - 1) * sd / sqrt(n) <= target * mean, the t of the runs there are.
        double t = studentTQuantile(0.975, n - 1);
        double want = std::ceil(std::pow(t * s.sd / (rule.targetPct / 100 * s.mean), 2));
        int need = static_cast<int>(std::min<double>(rule.maxRepetitions, want));
        extra += std::max(0, need - std::max(n, plan.repetitions));  // beyond what is planned or done
    }
    return extra;
}

} // namespace scalelab
