#pragma once
// One experiment in a PostgreSQL results store (store/PgStore.h): the same content and rules
// as an experiment file, in tables keyed by the experiment. Run, series and provenance ids are
// numbered within the experiment, so `scalelab runs --exclude 7` means the same run in a file
// and in the store, and a copy keeps them. One writer at a time: a session-level advisory lock
// (pg_try_advisory_lock) held while the experiment is open for writing; readers never wait.
#include "store/ExperimentStore.h"

namespace scalelab {

namespace pgsql {
class Connection;
}

class PgExperiment final : public ExperimentStore {
public:
    static std::unique_ptr<ExperimentStore> create(const std::string& location);
    static std::unique_ptr<ExperimentStore> open(const std::string& location, bool readOnly);
    static bool beingWritten(const std::string& location);
    static bool exists(const std::string& location);

    const std::string& path() const override { return location_; }
    void savePlan(const nlohmann::json& plan, uint64_t seed) override;
    std::optional<std::pair<nlohmann::json, uint64_t>> plan() override;
    void addProvenanceRecord(const ProvenanceRecord& record) override;
    std::vector<ProvenanceRecord> provenanceRecords() override;
    std::string meta(const std::string& key) override;
    void setMeta(const std::string& key, const std::string& value) override;
    int64_t ensureSeries(const std::string& label, const nlohmann::json& config) override;
    std::vector<StoredSeries> series() override;
    int64_t saveRun(const RunRecord& run, const std::vector<StoredSample>& samples) override;
    void saveRuns(const std::vector<std::pair<RunRecord, std::vector<StoredSample>>>& runs, bool keepIds) override;
    std::vector<RunRecord> runs() override;
    std::vector<StoredSample> samples(int64_t runId) override;
    std::set<int64_t> finishedRunIndexes() override;
    void setExcluded(int64_t runId, bool excluded) override;
    void setRunNote(int64_t runId, const std::string& note) override;
    ~PgExperiment() override;

private:
    PgExperiment(std::unique_ptr<pgsql::Connection> c, std::string location, std::string conninfo, int64_t id, bool writer);
    int64_t nextId(const char* table);
    int64_t insertRun(const RunRecord& run, const std::vector<StoredSample>& samples, bool keepId);
    void reconnect();
    void touch();  // records the role writing now as the last writer
    std::optional<int64_t> storedAttempt(const RunRecord& run);
    std::unique_ptr<pgsql::Connection> c_;
    std::string location_, conninfo_;
    int64_t id_ = 0;  // scalelab.experiments.id
    bool writer_ = false;
    int session_ = 0;  // the connection's backend pid (libpq forgets it once the connection broke)
};

} // namespace scalelab
