// What an experiment file holds: the plan, provenance, series, runs and their samples, notes
// and exclusions. Opening, creating and migrating the file: ExperimentFile.cpp.
#include "store/ExperimentFile.h"

#include "store/RunColumns.h"
#include "store/Sqlite.h"
#include "util/Error.h"

namespace scalelab {
using columns::statusOf;

void ExperimentFile::savePlan(const nlohmann::json& plan, uint64_t seed) {
    auto st = db_->prepare("INSERT OR REPLACE INTO plan (id, json, seed) VALUES (1, ?, ?)");
    st.bind(1, plan.dump()).bind(2, static_cast<int64_t>(seed)).run();
}

std::optional<std::pair<nlohmann::json, uint64_t>> ExperimentFile::plan() {
    auto st = db_->prepare("SELECT json, seed FROM plan WHERE id = 1");
    if (!st.step()) return std::nullopt;
    return std::make_pair(columns::storedJson(st.text(0), path(), "the plan"), static_cast<uint64_t>(st.integer(1)));
}

void ExperimentFile::addProvenanceRecord(const ProvenanceRecord& record) {
    db_->prepare("INSERT INTO provenance (taken_at, json) VALUES (?, ?)").bind(1, record.takenAt).bind(2, record.json.dump()).run();
}

std::vector<ProvenanceRecord> ExperimentFile::provenanceRecords() {
    std::vector<ProvenanceRecord> out;
    auto st = db_->prepare("SELECT taken_at, json FROM provenance ORDER BY id");
    while (st.step()) out.push_back({st.text(0), columns::storedJson(st.text(1), path(), "a provenance record")});
    return out;
}

std::string ExperimentFile::meta(const std::string& key) {
    auto st = db_->prepare("SELECT value FROM meta WHERE key = ?");
    st.bind(1, key);
    return st.step() ? st.text(0) : std::string();
}

void ExperimentFile::setMeta(const std::string& key, const std::string& value) {
    db_->prepare("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
        .bind(1, key)
        .bind(2, value)
        .run();
}

int64_t ExperimentFile::ensureSeries(const std::string& label, const nlohmann::json& config) {
    auto find = db_->prepare("SELECT id FROM series WHERE label = ?");
    find.bind(1, label);
    if (find.step()) return find.integer(0);
    auto next = db_->prepare("SELECT coalesce(max(position), -1) + 1 FROM series");
    next.step();
    db_->prepare("INSERT INTO series (position, label, config) VALUES (?, ?, ?)")
        .bind(1, next.integer(0))
        .bind(2, label)
        .bind(3, config.dump())
        .run();
    return db_->lastInsertId();
}

std::vector<StoredSeries> ExperimentFile::series() {
    std::vector<StoredSeries> out;
    auto st = db_->prepare("SELECT id, position, label, config FROM series ORDER BY position");
    while (st.step())
        out.push_back({st.integer(0), static_cast<int>(st.integer(1)), st.text(2),
                       columns::storedJson(st.text(3), path(), "the configuration of series " + st.text(2))});
    return out;
}

int64_t ExperimentFile::insertRun(const RunRecord& r, const std::vector<StoredSample>& samples, bool keepId) {
    int64_t series = ensureSeries(r.series, nlohmann::json::object());
    auto st = db_->prepare(std::string("INSERT INTO runs (id, ") + columns::kRunInsert + ") VALUES (?, " +
                           columns::placeholders(columns::kRunInsertCount) + ")");
    if (keepId) st.bind(1, r.id);
    else st.bindNull(1);  // the next free id
    columns::bindRun(st, 2, r, series);
    try {
        st.run();
    } catch (const Error& e) {
        if (std::string(e.what()).find("UNIQUE") != std::string::npos && r.runIndex)
            throw Error(path() + " already holds a completed run number " + std::to_string(*r.runIndex) +
                        " of this plan; not writing it twice");
        throw;
    }
    int64_t runId = db_->lastInsertId();
    auto ins = db_->prepare(std::string("INSERT INTO samples (run_id, ") + columns::kSampleInsert + ") VALUES (?, " +
                            columns::placeholders(columns::kSampleInsertCount) + ")");
    for (size_t i = 0; i < samples.size(); ++i) {
        ins.reset();
        ins.bind(1, runId);
        columns::bindSample(ins, 2, static_cast<int64_t>(i), samples[i]);
        ins.run();
    }
    return runId;
}

int64_t ExperimentFile::saveRun(const RunRecord& run, const std::vector<StoredSample>& samples) {
    sqlite::Transaction tx(*db_);
    int64_t id = insertRun(run, samples, false);
    tx.commit();
    ensureStillOnDisk();
    return id;
}

void ExperimentFile::saveRuns(const std::vector<std::pair<RunRecord, std::vector<StoredSample>>>& runs, bool keepIds) {
    sqlite::Transaction tx(*db_);
    for (const auto& [run, samples] : runs) insertRun(run, samples, keepIds);
    tx.commit();
}

std::vector<RunRecord> ExperimentFile::runs() {
    std::vector<RunRecord> out;
    auto st = db_->prepare("SELECT " + columns::runSelect(schema_ >= 3) +
                           " FROM runs r JOIN series s ON s.id = r.series_id ORDER BY r.id");
    while (st.step()) out.push_back(columns::readRun(st, path()));
    return out;
}

std::vector<StoredSample> ExperimentFile::samples(int64_t runId) {
    std::vector<StoredSample> out;
    auto st = db_->prepare(std::string("SELECT ") + columns::kSampleSelect + " FROM samples WHERE run_id = ? ORDER BY seq");
    st.bind(1, runId);
    while (st.step()) out.push_back(columns::readSample(st, path()));
    return out;
}

std::set<int64_t> ExperimentFile::finishedRunIndexes() {
    std::set<int64_t> out;
    auto st = db_->prepare("SELECT run_index FROM runs WHERE run_index IS NOT NULL AND status = 'completed'");
    while (st.step()) out.insert(st.integer(0));
    return out;
}

void ExperimentFile::setRunNote(int64_t runId, const std::string& note) {
    auto st = db_->prepare("UPDATE runs SET note = ? WHERE id = ?");
    st.bind(1, note).bind(2, runId).run();
    if (db_->changes() == 0) throw Error(path() + " has no run " + std::to_string(runId));
}

const std::string& ExperimentFile::path() const { return db_->path(); }

void ExperimentFile::setExcluded(int64_t runId, bool excluded) {
    auto st = db_->prepare("SELECT status, flags FROM runs WHERE id = ?");
    st.bind(1, runId);
    if (!st.step()) throw Error(path() + " has no run " + std::to_string(runId));
    RunRecord r;
    r.status = statusOf(st.text(0), runId, path());
    r.flags = RunFlags::parse(st.text(1));
    applyExclusion(r, excluded);
    db_->prepare("UPDATE runs SET excluded = ?, flags = ? WHERE id = ?")
        .bind(1, r.excluded ? 1 : 0)
        .bind(2, r.flags.joined())
        .bind(3, runId)
        .run();
}

} // namespace scalelab
