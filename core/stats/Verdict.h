#pragma once
// The answer of a comparison of two series: per client count whether the difference stands out
// from run-to-run noise, and a summary over the curve in plain words, with the runs that would
// be needed and what the runs' own metrics say about whether they measured the server.
//
// Across client counts the summary uses Bonferroni's correction: with m client counts judged,
// each is tested at (1 - confidence) / m and its change interval is the 1 - (1 - confidence) / m
// interval, so every statement of the summary holds together at the report's confidence (the
// chance of calling any difference where there is none stays below 1 - confidence). An
// equivalence margin adds "within +/- X%" calls with the same correction (two one-sided tests).
// docs/statistics.md explains the rules with worked examples.
#include "stats/ExperimentPoints.h"
#include "stats/PointAxis.h"
#include "stats/Power.h"

#include <optional>
#include <string>
#include <vector>

namespace scalelab {

enum class PointCall {
    Higher,        // the candidate's value is higher, after the correction
    Lower,
    NoDifference,  // no difference told apart from noise, after the correction
    Undecided,     // test and interval disagree, or different before the correction only
    TooFew,        // too few runs (or no variation) to judge
    NotJudged,     // a run measured the wrong thing (client-bound, still trending)
};
const char* pointCallName(PointCall c);  // "higher", "lower", "no difference", ... (files, JSON)

struct PointVerdict {
    int clients = 0;
    Comparison comparison;                        // at the report's confidence, this point alone
    std::optional<double> pAdjusted;              // Bonferroni: min(1, p * m)
    std::optional<double> simultaneousLow, simultaneousHigh;  // % change, 1 - (1 - confidence) / m
    PointCall call = PointCall::TooFew;
    std::string why;                              // NotJudged, Undecided, TooFew: in words
    std::vector<std::string> notes;               // caveats that do not stop the judgement (IO-bound)
    RunCountAdvice advice;
    // With an equivalence margin: two one-sided tests, each at (1 - confidence) / m, which is the
    // 1 - 2 (1 - confidence) / m interval of the % change inside +/- margin. None when not
    // judged, or without a margin.
    std::optional<bool> equivalent;
    std::optional<double> equivalenceLow, equivalenceHigh;  // that interval, % change
};

struct VerdictOptions {
    double confidence = 0.95;
    bool paired = false;
    double changePct = 5;      // the change the run-count advice is for
    double power = 0.8;
    std::optional<double> equivalencePct;  // "the same within X%": the margin, % of the baseline
    bool advise = true;        // false: no run-count advice (simulations, adaptive rounds: the
                               // noncentral t is the costly part)
    PointAxis axis = PointAxis::Clients;  // what the points' `clients` are (the sentences say it)
};

struct CurveVerdict {
    std::string baseline, candidate;
    RunMetric metric = RunMetric::Tps;
    VerdictOptions options;
    int judged = 0;                               // m: client counts with a test and runs that count
    std::optional<double> equivalenceLevel;       // with a margin: 1 - 2 (1 - confidence) / m, the TOST interval's
    std::vector<PointVerdict> points;             // by client count
    std::vector<std::string> summary;             // sentences, the curve's answer first
};

// "2%" or "2" as a margin in % (above 0, below 100); throws Error naming `option` otherwise.
double parseMarginPct(const std::string& text, const std::string& option);

// `points` as pointRuns() gives them with `caveats` from the same runs (pointCaveats()).
// Throws Error as compareSeries() does.
CurveVerdict judgeCurve(const std::vector<PointRuns>& points, const std::vector<RunRecord>& runs,
                        const std::string& baseline, const std::string& candidate, RunMetric metric,
                        const VerdictOptions& options);

} // namespace scalelab
