#include "sweep/AdaptiveSimulation.h"

#include "sweep/AdaptiveRounds.h"

#include <cmath>
#include <random>

namespace scalelab {
namespace {

SweepPlan planFor(const AdaptiveSimSettings& s) {
    SweepPlan p;
    p.series.resize(2);
    p.series[0].label = "A";
    p.series[1].label = "B";
    for (int i = 0; i < s.clientCounts; ++i) p.clients.push_back(1 << i);
    p.rates.clear();
    if (s.rates <= 1) p.rates.push_back(0);
    for (int i = 0; s.rates > 1 && i < s.rates; ++i) p.rates.push_back(100.0 * (i + 1));
    p.repetitions = s.repetitions;
    p.durationS = 1;
    if (s.adaptive) {
        PrecisionRule r;
        r.targetPct = s.targetPct;
        r.maxRepetitions = s.maxRepetitions;
        r.baseline = "A";
        r.candidate = "B";
        r.paired = s.paired;
        p.precision = r;
    }
    return p;
}

RunRecord run(const std::string& series, int clients, double rate, int repetition, double tps) {
    RunRecord r;
    if (rate > 0) r.detail["rate"] = rate;
    r.series = series;
    r.clients = clients;
    r.threads = 1;
    r.repetition = repetition;
    r.status = RunStatus::Completed;
    r.tps = tps;
    return r;
}

} // namespace

double AdaptiveSimResult::standardError() const {
    double p = callRate();
    return verdicts ? std::sqrt(p * (1 - p) / verdicts) : 0;
}

AdaptiveSimResult simulateAdaptive(const AdaptiveSimSettings& s) {
    SweepPlan plan = planFor(s);
    std::mt19937_64 rng(s.seed);
    std::normal_distribution<double> noise(0, 1);
    const double mean = 1000, sd = mean * s.sdPct / 100;
    auto draw = [&](int series) { return mean * (series == 1 ? 1 + s.truePct / 100 : 1) + sd * noise(rng); };
    AdaptiveSimResult out;
    long points = 0, runsTotal = 0;
    for (int e = 0; e < s.experiments; ++e) {
        std::vector<RunRecord> runs;
        for (int rep = 1; rep <= s.repetitions; ++rep)
            for (int c : plan.clients)
                for (double rate : plan.rates)
                    for (int series : {0, 1}) runs.push_back(run(series ? "B" : "A", c, rate, rep, draw(series)));
        if (s.adaptive)
            for (int round = s.repetitions + 1;; ++round) {
                std::vector<PointNeed> needs = pointsNeedingRounds(plan, runs);
                if (needs.empty()) break;
                for (const auto& n : needs)
                    runs.push_back(run(n.series ? "B" : "A", n.at.clients, n.at.rate, round, draw(n.series)));
            }
        // The verdicts the sweep's end and the report give: one over the client counts, or on a
        // grid one per curve of the runs' own axis.
        PrecisionRule rule;
        rule.baseline = "A", rule.candidate = "B", rule.paired = s.paired, rule.equivalencePct = s.equivalencePct;
        bool experimentCalled = false;
        for (const auto& pv : pairVerdictsAtEnd(rule, runs)) {
            const CurveVerdict& v = pv.verdict;
            bool any = false, wrong = false, same = !v.points.empty();
            for (const auto& p : v.points) {
                bool call = p.call == PointCall::Higher || p.call == PointCall::Lower;
                any = any || call;
                bool right = s.truePct > 0 ? p.call == PointCall::Higher : s.truePct < 0 ? p.call == PointCall::Lower : false;
                wrong = wrong || (call && !right);
                same = same && p.equivalent.value_or(false);
                points += 2, runsTotal += p.comparison.a.n + p.comparison.b.n;
                out.atLimit += (p.comparison.a.n >= s.maxRepetitions) + (p.comparison.b.n >= s.maxRepetitions);
            }
            ++out.verdicts;
            out.anyCall += any;
            out.anyWrongDirection += wrong;
            out.allEquivalent += same && s.equivalencePct.has_value();
            experimentCalled = experimentCalled || any;
        }
        ++out.experiments;
        out.experimentsWithACall += experimentCalled;
    }
    out.meanRoundsPerPoint = points ? static_cast<double>(runsTotal) / points : 0;
    return out;
}

} // namespace scalelab
