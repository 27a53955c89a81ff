#pragma once
// The precision rule's statistical promise, checked by simulation: experiments of two series
// with normal run-to-run noise are sampled round by round through the very functions a sweep
// runs (pointsNeedingRounds, then judgeCurve as `report --compare` judges), and the share of
// experiments with any "higher"/"lower" call is counted. Under the null (no true difference)
// that share is the false-call rate the verdict promises to keep at or below 1 - confidence;
// with a true change it is the power. Deterministic for a seed (bench/adaptive_calls, the tests).
// With several offered rates the grid is client counts x rates (scales are the same to the rule),
// judged as the sweep's end and the report judge it (pairVerdictsAtEnd): with several client
// counts a verdict per rate, over the client counts; with one, a verdict over the rates. The
// rate counted is then per verdict.
#include <cstdint>
#include <optional>

namespace scalelab {

struct AdaptiveSimSettings {
    int clientCounts = 8;          // client counts 1, 2, 4, ...
    int rates = 1;                 // offered rates 100, 200, ...: several make a grid
    int repetitions = 3;           // planned rounds
    int maxRepetitions = 10;       // the rule's limit
    double targetPct = 2;          // the rule's target (half-width, % of the mean)
    double sdPct = 1;              // run-to-run sd, % of the mean, the same on both sides
    double truePct = 0;            // the candidate's true change (0: the null)
    bool paired = false;           // the rule and the verdict judge paired by round
    bool adaptive = true;          // false: exactly `repetitions` rounds (the fixed design)
    std::optional<double> equivalencePct;  // also count "same within" calls
    int experiments = 2000;
    uint64_t seed = 1;
};

struct AdaptiveSimResult {
    int experiments = 0;
    int verdicts = 0;              // verdicts judged: one per experiment, or one per curve on a grid
    int anyCall = 0;               // verdicts with a higher or lower call at some point
    int anyWrongDirection = 0;     // a call opposite to the true change (or any, under the null)
    int allEquivalent = 0;         // verdicts with every point judged "the same within" the margin
    int experimentsWithACall = 0;  // experiments with a call in any of their verdicts
    double meanRoundsPerPoint = 0; // runs per series and point, averaged
    int atLimit = 0;               // points that reached maxRepetitions
    double callRate() const { return verdicts ? static_cast<double>(anyCall) / verdicts : 0; }
    double standardError() const;  // of callRate, binomial (verdicts of one experiment taken as independent)
};

AdaptiveSimResult simulateAdaptive(const AdaptiveSimSettings& settings);

} // namespace scalelab
