#pragma once
// What a run's own metrics say about whether it measured the server: the load generator's PUs
// saturated (client-bound), throughput still trending when the run ended, the CPUs mostly
// waiting on disk. Read from what the sweep stored with each run (flags, detail), so files of
// earlier versions are judged too.
#include "store/RunRecord.h"

#include <optional>
#include <string>

namespace scalelab {

// A run whose interval tps drifts by more than this share over its length, with a slope test
// p below kTrendP, did not measure a steady state.
constexpr double kTrendPercent = 10;
constexpr double kTrendP = 0.01;

struct RunCaveats {
    bool clientBound = false;
    std::optional<double> trendPct;    // drift over the run, % of its mean, when significant and above kTrendPercent
    const char* trendOf = "tps";       // the series whose trend trendPct is: "tps", or TPROC-C's "NOPM"
    std::optional<double> iowaitPct;   // when the CPUs waited on disk longer than they were busy
    std::optional<double> busyPct;     // beside iowaitPct
    bool excludes() const { return clientBound || trendPct.has_value(); }
};

// `nopm`: the trend of TPROC-C's NOPM intervals where the run has them (a comparison of NOPM),
// else of its tps.
RunCaveats caveatsOf(const RunRecord& run, bool nopm = false);

} // namespace scalelab
