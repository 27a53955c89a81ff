#pragma once
// An experiment: the plan, provenance, series, runs with their aggregates, and every interval
// sample. Each run is written in one transaction, so a killed process loses at most the run in
// progress. Kept in a file (SQLite) or in a shared PostgreSQL results store; the interface is
// one, and so are the row mappings (store/RunColumns.h).
#include "store/RunRecord.h"
#include "util/Error.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace scalelab {

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

std::string utcTimestamp();  // "2026-11-30T07:58:01Z"

} // namespace scalelab
