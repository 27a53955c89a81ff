#pragma once
// An experiment: the plan, provenance, series, runs with their aggregates, and every interval
// sample. Each run is written in one transaction, so a killed process loses at most the run in
// progress. Kept in a file (SQLite) or in a shared PostgreSQL results store; the interface is
// one, and so are the row mappings (store/RunColumns.h).
#include "load/LatencyHistogram.h"
#include "load/LoadSpec.h"
#include "store/RunFlags.h"
#include "util/Error.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
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

// The experiment file was deleted or replaced while open for writing; it was written again
// (the message says where) with every run, and the store now writes there.
class FileRewritten : public Error {
public:
    using Error::Error;
};

// Where an experiment lives: a file (SQLite, store/ExperimentFile.h), or an experiment in a
// PostgreSQL results store shared by a team (store/PgExperiment.h), named by a location
// "postgresql://[user@]host[:port]/database[?options]#EXPERIMENT" (postgres:// too). Both keep
// the same things under the same rules; every command and the window take either.
class ExperimentStore {
public:
    static constexpr int kSchemaVersion = 3;  // the file's; the results store has its own

    // A new experiment. Throws Error when `location` exists and is not empty.
    static std::unique_ptr<ExperimentStore> create(const std::string& location);
    // An existing one. Throws Error, changing nothing, for a file that is not ScaleLab's, is
    // corrupt, or was written by a newer ScaleLab; migrates an older one unless readOnly.
    // One writer at a time: a store opened for writing (or created) holds an exclusive lock on
    // the experiment for its lifetime, and a second writer is refused with a message saying so;
    // readers never wait (they follow a running sweep).
    static std::unique_ptr<ExperimentStore> open(const std::string& location, bool readOnly = false);
    // Whether a writer (a sweep, an import, a change of runs; this process's or another's)
    // holds the experiment's lock now: a reader that sees it follows the experiment as it grows.
    static bool beingWritten(const std::string& location);
    // open() when the experiment exists, create() otherwise.
    static std::unique_ptr<ExperimentStore> openOrCreate(const std::string& location);
    // Whether the experiment exists (and is not an empty file).
    static bool exists(const std::string& location);
    // Removes it: the file with SQLite's -wal and -shm beside it, or the experiment in the
    // store with everything in it (refused while it is being written). For what a failed
    // import or copy created; never for an experiment a user made.
    static void remove(const std::string& location);

    // The file's path, or the store location (without a password: there never is one).
    virtual const std::string& path() const = 0;

    virtual void savePlan(const nlohmann::json& plan, uint64_t seed) = 0;
    virtual std::optional<std::pair<nlohmann::json, uint64_t>> plan() = 0;
    void addProvenance(const nlohmann::json& provenance);  // taken now
    virtual void addProvenanceRecord(const ProvenanceRecord& record) = 0;
    std::vector<nlohmann::json> provenance();
    virtual std::vector<ProvenanceRecord> provenanceRecords() = 0;
    // The experiment's own facts: application, created_by, created_at (and the note).
    virtual std::string meta(const std::string& key) = 0;
    virtual void setMeta(const std::string& key, const std::string& value) = 0;

    virtual int64_t ensureSeries(const std::string& label, const nlohmann::json& config = nlohmann::json::object()) = 0;
    virtual std::vector<StoredSeries> series() = 0;
    std::vector<std::string> seriesLabels();  // in the experiment's order: each series' colour

    // The run and its samples in one transaction. Returns the run's id. Throws Error when it
    // cannot be stored (a full disk: nothing stored before is touched), and FileRewritten, with
    // the run stored, when the file was deleted meanwhile.
    virtual int64_t saveRun(const RunRecord& run, const std::vector<StoredSample>& samples) = 0;
    // Several runs (an import) in one transaction: all or nothing. keepIds: each run keeps its
    // RunRecord::id (a copy of a whole experiment); otherwise ids are the next free ones.
    virtual void saveRuns(const std::vector<std::pair<RunRecord, std::vector<StoredSample>>>& runs, bool keepIds = false) = 0;
    virtual std::vector<RunRecord> runs() = 0;
    virtual std::vector<StoredSample> samples(int64_t runId) = 0;
    virtual std::set<int64_t> finishedRunIndexes() = 0;  // completed; failed and stopped attempts are history
    // excluded = false on a run that did not complete includes it on purpose (flag "included").
    virtual void setExcluded(int64_t runId, bool excluded) = 0;
    // The user's notes: on a run, and on the whole experiment ("" when none). Throws Error for
    // a run the experiment does not have.
    virtual void setRunNote(int64_t runId, const std::string& note) = 0;
    std::string note() { return meta("note"); }
    void setNote(const std::string& note) { setMeta("note", note); }

    virtual ~ExperimentStore() = default;
    ExperimentStore(const ExperimentStore&) = delete;
    ExperimentStore& operator=(const ExperimentStore&) = delete;

protected:
    ExperimentStore() = default;
};

// Whether `location` names an experiment in a PostgreSQL results store rather than a file.
bool isStoreLocation(const std::string& location);
// What to call it in titles and series labels: the file's name ("e.slab"), or the
// experiment's name in its store.
std::string experimentName(const std::string& location);
// Whether two locations name the same experiment (the same file by any path).
bool sameExperiment(const std::string& a, const std::string& b);

// Whether a run's values go into points, comparisons and fits: completed runs that are not
// excluded, and runs that did not complete (failed, stopped) only when included on purpose
// (`scalelab runs --include ID`, which flags them RunFlag::Included).
bool countsInStatistics(const RunRecord& run);
void applyExclusion(RunRecord& run, bool excluded);  // the rule setExcluded stores

std::string utcTimestamp();  // "2026-11-30T07:58:01Z"

} // namespace scalelab
