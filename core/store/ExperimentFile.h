#pragma once
// The experiment file: one SQLite database (WAL). Schema versioned (PRAGMA user_version) with
// migrations; a newer or corrupt file is refused untouched. One writer at a time (flock); a
// file deleted or replaced while written is written again (FileRewritten).
#include "store/ExperimentStore.h"

#include <sys/types.h>

namespace scalelab {

namespace sqlite {
class Database;  // store/Sqlite.h: SQLite stays inside core's store
}

class ExperimentFile final : public ExperimentStore {
public:
    static std::unique_ptr<ExperimentStore> create(const std::string& path);
    static std::unique_ptr<ExperimentStore> open(const std::string& path, bool readOnly);
    static bool beingWritten(const std::string& path);

    const std::string& path() const override;
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
    ~ExperimentFile() override;

private:
    explicit ExperimentFile(std::unique_ptr<sqlite::Database> db, int writerLock = -1);
    int64_t insertRun(const RunRecord& run, const std::vector<StoredSample>& samples, bool keepId);
    void ensureStillOnDisk();
    std::unique_ptr<sqlite::Database> db_;
    int writerLock_ = -1;  // flock(LOCK_EX) on the file, held by a writer
    dev_t device_ = 0;     // the file's identity when opened: a name that leads elsewhere means
    ino_t inode_ = 0;      // it was deleted or replaced
    int schema_ = 0;       // the file's schema: a reader does not migrate an older file
};

} // namespace scalelab
