#pragma once
// What an experiment keeps, as values: runs with their aggregates, interval samples, series and
// provenance, and the rules every reader applies to runs (which count, where they stand on the
// grid). Statistics and reports read these without the store's interface (store/ExperimentStore.h).
#include "load/LatencyHistogram.h"
#include "load/RunStatus.h"
#include "store/RunFlags.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace scalelab {

struct RunRecord {
    int64_t id = 0;
    std::optional<int64_t> runIndex;  // place in the plan's order; none for imported runs
    std::string series;
    int clients = 0, threads = 0, repetition = 0;
    RunStatus status = RunStatus::Completed;
    std::string error;
    std::string startedAt, endedAt;   // ISO 8601, UTC
    std::string source = "sweep";     // or "import: FILE"
    bool excluded = false;
    RunFlags flags;
    double tps = 0, measuredSeconds = 0;
    uint64_t transactions = 0, failures = 0;
    LatencySummary latency;
    std::optional<double> cpuBusyPct, loadGeneratorCpuPct, serverCpuPct, logicalReadsPerSec, commitsPerSec;
    nlohmann::json detail = nlohmann::json::object();  // the whole result (placement, system, ...), no samples
    std::string note;                 // the user's words on the run (why it was excluded ...)
};

// The rate the run's clients were asked for (pgbench -R, detail "rate"); 0: unthrottled, and
// for runs stored or imported without one.
double offeredRateOf(const RunRecord& run);
// The scale of the pgbench data the run ran on: detail "data_scale" (a sweep records it), else
// the :scale it ran with (for the built-in scripts the data's); 0: not recorded.
int64_t dataScaleOf(const RunRecord& run);
// Where runs stand off the client axis: an offered rate (0: unthrottled) and a data scale (0:
// not recorded). The tidy exports write the points of each apart.
struct GridCell {
    double rate = 0;
    int64_t scale = 0;
    bool operator<(const GridCell& o) const { return scale != o.scale ? scale < o.scale : rate < o.rate; }
    bool operator==(const GridCell& o) const { return rate == o.rate && scale == o.scale; }
};
GridCell gridCellOf(const RunRecord& run);
// The cells of `runs`, each once, by scale then rate.
std::vector<GridCell> gridCells(const std::vector<RunRecord>& runs);
// The runs of one cell.
std::vector<RunRecord> runsIn(const std::vector<RunRecord>& runs, const GridCell& cell);

struct StoredSample {
    double startS = 0, endS = 0;
    bool warmup = false;
    uint64_t transactions = 0, failures = 0;
    double tps = 0, latMeanMs = 0, latP50Ms = 0, latP95Ms = 0, latP99Ms = 0;
    nlohmann::json system;  // null when not sampled
};

struct ProvenanceRecord {
    std::string takenAt;  // ISO 8601, UTC: when a sweep session started measuring
    nlohmann::json json;  // machine, server, scripts
};

struct StoredSeries {
    int64_t id = 0;
    int position = 0;
    std::string label;
    nlohmann::json config;
};

// Whether a run's values go into points, comparisons and fits: completed runs that are not
// excluded, and runs that did not complete (failed, stopped) only when included on purpose
// (`scalelab runs --include ID`, which flags them RunFlag::Included).
bool countsInStatistics(const RunRecord& run);
void applyExclusion(RunRecord& run, bool excluded);  // the rule setExcluded stores

} // namespace scalelab
