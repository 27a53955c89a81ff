#pragma once
// The experiment file: one SQLite database (WAL) holding the plan, provenance, series, runs
// with their aggregates, and every interval sample. Each run is written in one transaction,
// so a killed process loses at most the run in progress. Schema versioned (PRAGMA
// user_version) with migrations; a newer or corrupt file is refused untouched.
#include "load/LatencyHistogram.h"
#include "load/LoadSpec.h"
#include "store/RunFlags.h"
#include "util/Error.h"

#include <nlohmann/json.hpp>

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace scalelab {

namespace sqlite {
class Database;  // store/Sqlite.h: SQLite stays inside core's store
}

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

class ExperimentStore {
public:
    static constexpr int kSchemaVersion = 3;

    // A new experiment file. Throws Error when `path` exists and is not empty.
    static std::unique_ptr<ExperimentStore> create(const std::string& path);
    // An existing one. Throws Error, changing nothing, for a file that is not ScaleLab's, is
    // corrupt, or was written by a newer ScaleLab; migrates an older one unless readOnly.
    // One writer at a time: a store opened for writing (or created) holds an exclusive lock on
    // the file for its lifetime, and a second writer is refused with a message saying so;
    // readers never wait (they follow a running sweep).
    static std::unique_ptr<ExperimentStore> open(const std::string& path, bool readOnly = false);
    // Whether a writer (a sweep, an import, a change of runs; this process's or another's)
    // holds the file's lock now: a reader that sees it follows the file as it grows.
    static bool beingWritten(const std::string& path);
    // open() when the file exists, create() otherwise.
    static std::unique_ptr<ExperimentStore> openOrCreate(const std::string& path);

    const std::string& path() const;

    void savePlan(const nlohmann::json& plan, uint64_t seed);
    std::optional<std::pair<nlohmann::json, uint64_t>> plan();
    void addProvenance(const nlohmann::json& provenance);
    std::vector<nlohmann::json> provenance();
    std::vector<ProvenanceRecord> provenanceRecords();
    // The file's own facts: application, created_by, created_at (and the note).
    std::string meta(const std::string& key);

    int64_t ensureSeries(const std::string& label, const nlohmann::json& config = nlohmann::json::object());
    std::vector<StoredSeries> series();
    std::vector<std::string> seriesLabels();  // in the experiment's order: each series' colour

    // The run and its samples in one transaction. Returns the run's id. Throws Error when it
    // cannot be stored (a full disk: nothing stored before is touched), and FileRewritten, with
    // the run stored, when the file was deleted meanwhile.
    int64_t saveRun(const RunRecord& run, const std::vector<StoredSample>& samples);
    // Several runs (an import) in one transaction: all or nothing.
    void saveRuns(const std::vector<std::pair<RunRecord, std::vector<StoredSample>>>& runs);
    std::vector<RunRecord> runs();
    std::vector<StoredSample> samples(int64_t runId);
    std::set<int64_t> finishedRunIndexes();  // completed; failed and stopped attempts are history
    // excluded = false on a run that did not complete includes it on purpose (flag "included").
    void setExcluded(int64_t runId, bool excluded);
    // The user's notes: on a run, and on the whole experiment ("" when none). Throws Error for
    // a run the file does not have.
    void setRunNote(int64_t runId, const std::string& note);
    std::string note();
    void setNote(const std::string& note);

    ~ExperimentStore();
    ExperimentStore(const ExperimentStore&) = delete;
    ExperimentStore& operator=(const ExperimentStore&) = delete;

private:
    explicit ExperimentStore(std::unique_ptr<sqlite::Database> db, int writerLock = -1);
    int64_t insertRun(const RunRecord& run, const std::vector<StoredSample>& samples);
    void ensureStillOnDisk();
    std::unique_ptr<sqlite::Database> db_;
    int writerLock_ = -1;  // flock(LOCK_EX) on the file, held by a writer
    dev_t device_ = 0;     // the file's identity when opened: a name that leads elsewhere means
    ino_t inode_ = 0;      // it was deleted or replaced
    int schema_ = 0;       // the file's schema: a reader does not migrate an older file
};

// Whether a run's values go into points, comparisons and fits: completed runs that are not
// excluded, and runs that did not complete (failed, stopped) only when included on purpose
// (`scalelab runs --include ID`, which flags them RunFlag::Included).
bool countsInStatistics(const RunRecord& run);
void applyExclusion(RunRecord& run, bool excluded);  // the rule setExcluded stores

std::string utcTimestamp();  // "2026-11-30T07:58:01Z"

} // namespace scalelab
