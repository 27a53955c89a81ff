#pragma once
// The precision rule's statistical promise, checked by simulation: experiments of two series
// with normal run-to-run noise are sampled round by round through the very functions a sweep
// runs (pointsNeedingRounds, then judgeCurve as `report --compare` judges), and the share of
// experiments with any "higher"/"lower" call is counted. Under the null (no true difference)
// that share is the false-call rate the verdict promises to keep at or below 1 - confidence;
// with a true change it is the power. Deterministic for a seed (bench/adaptive_calls, the tests).
#include <cstdint>
#include <optional>

namespace scalelab {

struct AdaptiveSimSettings {
    int clientCounts = 8;          // client counts 1, 2, 4, ...
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
    int anyCall = 0;               // experiments with a higher or lower call at some client count
    int anyWrongDirection = 0;     // a call opposite to the true change (or any, under the null)
    int allEquivalent = 0;         // every client count judged "the same within" the margin
    double meanRoundsPerPoint = 0; // runs per series and client count, averaged
    int atLimit = 0;               // points that reached maxRepetitions
    double callRate() const { return experiments ? static_cast<double>(anyCall) / experiments : 0; }
    double standardError() const;  // of callRate, binomial
};

AdaptiveSimResult simulateAdaptive(const AdaptiveSimSettings& settings);

} // namespace scalelab
