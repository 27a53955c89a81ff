// The precision rule's false-call rate and power, by simulation of the exact rule a sweep runs
// (core/sweep/AdaptiveSimulation: pointsNeedingRounds round by round, then the report's verdict).
//
//   build/ci/bench/adaptive_calls                 # the tables of docs/statistics.md
//   build/ci/bench/adaptive_calls --target 2 --sd 1.5 --true 8 --paired --experiments 4000
//
// Each row: the share of simulated experiments (two series, normal noise) with any
// "higher"/"lower" call, its binomial standard error, the runs per point it took and its seed
// (each row its own: --seed, then one more a row). Without a custom row: the null at 1, 2, 3
// and 8 client counts, Welch and paired, sd scanned at target 2% (the worst of each block is
// the promise), power at a true +3%, and the fixed designs.
#include "sweep/AdaptiveSimulation.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace scalelab;

namespace {

// Prints a row; returns its call rate.
double row(const char* design, AdaptiveSimSettings s) {
    AdaptiveSimResult r = simulateAdaptive(s);
    std::printf("%-22s %7.1f%% %6.1f%% %6.1f%% %7.1f%% +/- %4.1f%% %10.2f %9.1f%%", design, s.targetPct, s.sdPct,
                s.truePct, 100 * r.callRate(), 100 * r.standardError(), r.meanRoundsPerPoint,
                100.0 * r.atLimit / (2.0 * s.clientCounts * s.rates * r.experiments));
    if (r.verdicts > r.experiments) std::printf(" %12.1f%%", 100.0 * r.experimentsWithACall / r.experiments);
    std::printf("  seed %llu\n", static_cast<unsigned long long>(s.seed));
    return r.callRate();
}

void header(bool grid) {
    std::printf("%-22s %8s %7s %7s %17s %10s %10s%s\n", "design", "target", "sd", "true", "any call (+/- se)",
                "runs/point", "at limit", grid ? "  any verdict" : "");
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app("False-call rate (true 0) and power (true != 0) of the precision rule, by simulation");
    AdaptiveSimSettings s;
    s.experiments = 20000;
    app.add_option("--experiments", s.experiments, "Simulated experiments per row")->check(CLI::Range(1, 1000000));
    app.add_option("--seed", s.seed, "Random seed");
    app.add_option("--target", s.targetPct, "Precision target, % (a custom row)")->check(CLI::Range(0.01, 100.0));
    app.add_option("--sd", s.sdPct, "Run-to-run sd, % of the mean")->check(CLI::Range(0.0, 100.0));
    app.add_option("--true", s.truePct, "The candidate's true change, %");
    app.add_option("--rounds", s.repetitions, "Planned rounds")->check(CLI::Range(2, 1000));
    app.add_option("--max", s.maxRepetitions, "The rule's limit")->check(CLI::Range(2, 1000));
    app.add_option("--clients", s.clientCounts, "Client counts")->check(CLI::Range(1, 20));
    app.add_option("--rates", s.rates, "Offered rates: several make a grid, a verdict per rate (or, with one client count, over the rates)")
        ->check(CLI::Range(1, 20));
    app.add_flag("--paired", s.paired, "Judge paired by round");
    bool fixed = false;
    app.add_flag("--fixed", fixed, "No rule: exactly --rounds rounds (a custom row)");
    CLI11_PARSE(app, argc, argv);
    bool custom = app.count("--target") || app.count("--sd") || app.count("--true") || app.count("--paired") || fixed;
    s.adaptive = !fixed;
    if (s.maxRepetitions < s.repetitions) {
        std::fprintf(stderr, "adaptive_calls: --max (%d) must be at least --rounds (%d)\n", s.maxRepetitions, s.repetitions);
        return 2;
    }
    std::printf("%d experiments a row, seed %llu, %d client counts, %d planned rounds, at most %d; promise: any call "
                "<= 5%% under true 0\n", s.experiments, static_cast<unsigned long long>(s.seed), s.clientCounts,
                s.repetitions, s.maxRepetitions);
    if (s.rates > 1)
        std::printf("grid: %d client counts x %d rates, judged as the sweep's end judges it; \"any call\" per verdict, "
                    "\"any verdict\" per experiment\n", s.clientCounts, s.rates);
    header(s.rates > 1);
    if (custom) {
        row(fixed ? (s.paired ? "fixed, paired" : "fixed, Welch") : s.paired ? "rule, paired" : "rule, Welch", s);
        return 0;
    }
    // Each row its own seed (seed + row number): rows never share their noise.
    uint64_t seed = s.seed;
    auto next = [&](AdaptiveSimSettings r) {
        r.seed = seed++;
        return r;
    };
    // The null at every number of client counts, each pairing, a scan over sd / target (target
    // 2%): the promise is the worst row of each block.
    const std::vector<double> sds{0.5, 1, 1.5, 2, 3};
    for (int clients : {1, 2, 3, 8}) {
        std::printf("-- %d client count%s: the null, sd / target scanned\n", clients, clients == 1 ? "" : "s");
        for (bool paired : {false, true}) {
            double worst = 0;
            for (double sd : sds) {
                AdaptiveSimSettings r = s;
                r.clientCounts = clients, r.targetPct = 2, r.sdPct = sd, r.truePct = 0, r.paired = paired;
                worst = std::max(worst, row(paired ? "rule, paired" : "rule, Welch", next(r)));
            }
            std::printf("%-22s worst %.2f%%\n", paired ? "rule, paired" : "rule, Welch", 100 * worst);
        }
    }
    // Power: a true +3% change, sd 1.5%, target 2%.
    std::printf("-- power: true +3%%, sd 1.5%%, target 2%%\n");
    for (int clients : {1, 2, 3, 8})
        for (bool paired : {false, true}) {
            AdaptiveSimSettings r = s;
            r.clientCounts = clients, r.targetPct = 2, r.sdPct = 1.5, r.truePct = 3, r.paired = paired;
            std::printf("%d client count%s  ", clients, clients == 1 ? " " : "s");
            row(paired ? "rule, paired" : "rule, Welch", next(r));
        }
    std::printf("-- fixed designs (no rule), 8 client counts, the null\n");
    for (int rounds : {s.repetitions, s.maxRepetitions})
        for (bool paired : {false, true}) {
            AdaptiveSimSettings r = s;
            r.adaptive = false, r.repetitions = rounds, r.sdPct = 1, r.paired = paired;
            row(rounds == s.repetitions ? (paired ? "fixed planned, paired" : "fixed planned, Welch")
                                        : (paired ? "fixed max, paired" : "fixed max, Welch"),
                next(r));
        }
    return 0;
}
