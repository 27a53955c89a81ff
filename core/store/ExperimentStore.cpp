// What an experiment file holds: the plan, provenance, series, runs and their samples, notes
// and exclusions. Opening, creating and migrating the file: ExperimentFile.cpp.
#include "store/ExperimentStore.h"

#include "store/Sqlite.h"
#include "util/Error.h"

#include <limits>

namespace scalelab {
namespace {

RunStatus statusOf(const std::string& text, int64_t runId, const std::string& path) {
    if (auto s = runStatusFromName(text)) return *s;
    throw Error(path + ": run " + std::to_string(runId) + " has the status '" + text +
                "', which this ScaleLab does not know (completed, failed, stopped)");
}

void bindOptional(sqlite::Statement& st, int i, const std::optional<double>& v) {
    if (v) st.bind(i, *v);
    else st.bindNull(i);
}

// A value the source did not have: NULL in the file, NaN in memory (SQLite stores a NaN as
// NULL), never 0.
double realOrMissing(const sqlite::Statement& st, int col) {
    return st.isNull(col) ? std::numeric_limits<double>::quiet_NaN() : st.real(col);
}

std::optional<double> optionalReal(const sqlite::Statement& st, int col) {
    return st.isNull(col) ? std::nullopt : std::optional<double>(st.real(col));
}

} // namespace

void ExperimentStore::savePlan(const nlohmann::json& plan, uint64_t seed) {
    auto st = db_->prepare("INSERT OR REPLACE INTO plan (id, json, seed) VALUES (1, ?, ?)");
    st.bind(1, plan.dump()).bind(2, static_cast<int64_t>(seed)).run();
}

std::optional<std::pair<nlohmann::json, uint64_t>> ExperimentStore::plan() {
    auto st = db_->prepare("SELECT json, seed FROM plan WHERE id = 1");
    if (!st.step()) return std::nullopt;
    return std::make_pair(nlohmann::json::parse(st.text(0)), static_cast<uint64_t>(st.integer(1)));
}

void ExperimentStore::addProvenance(const nlohmann::json& provenance) {
    db_->prepare("INSERT INTO provenance (taken_at, json) VALUES (?, ?)").bind(1, utcTimestamp()).bind(2, provenance.dump()).run();
}

std::vector<nlohmann::json> ExperimentStore::provenance() {
    std::vector<nlohmann::json> out;
    for (auto& r : provenanceRecords()) out.push_back(std::move(r.json));
    return out;
}

std::vector<std::string> ExperimentStore::seriesLabels() {
    std::vector<std::string> out;
    for (const auto& s : series()) out.push_back(s.label);
    return out;
}

std::vector<ProvenanceRecord> ExperimentStore::provenanceRecords() {
    std::vector<ProvenanceRecord> out;
    auto st = db_->prepare("SELECT taken_at, json FROM provenance ORDER BY id");
    while (st.step()) out.push_back({st.text(0), nlohmann::json::parse(st.text(1))});
    return out;
}

std::string ExperimentStore::meta(const std::string& key) {
    auto st = db_->prepare("SELECT value FROM meta WHERE key = ?");
    st.bind(1, key);
    return st.step() ? st.text(0) : std::string();
}

int64_t ExperimentStore::ensureSeries(const std::string& label, const nlohmann::json& config) {
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

std::vector<StoredSeries> ExperimentStore::series() {
    std::vector<StoredSeries> out;
    auto st = db_->prepare("SELECT id, position, label, config FROM series ORDER BY position");
    while (st.step())
        out.push_back({st.integer(0), static_cast<int>(st.integer(1)), st.text(2), nlohmann::json::parse(st.text(3))});
    return out;
}

int64_t ExperimentStore::insertRun(const RunRecord& r, const std::vector<StoredSample>& samples) {
    int64_t series = ensureSeries(r.series);
    auto st = db_->prepare(
        "INSERT INTO runs (run_index, series_id, clients, threads, repetition, status, error, started_at, ended_at, "
        "source, excluded, flags, tps, measured_s, transactions, failures, lat_mean_ms, lat_sd_ms, lat_p50_ms, "
        "lat_p90_ms, lat_p95_ms, lat_p99_ms, lat_p999_ms, lat_max_ms, cpu_busy_pct, loadgen_cpu_pct, server_cpu_pct, "
        "logical_reads_s, commits_s, detail, note) "
        "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    st.bind(1, r.runIndex).bind(2, series).bind(3, r.clients).bind(4, r.threads).bind(5, r.repetition);
    st.bind(6, runStatusName(r.status)).bind(7, r.error).bind(8, r.startedAt).bind(9, r.endedAt).bind(10, r.source);
    st.bind(11, r.excluded ? 1 : 0).bind(12, r.flags.joined()).bind(13, r.tps).bind(14, r.measuredSeconds);
    st.bind(15, static_cast<int64_t>(r.transactions)).bind(16, static_cast<int64_t>(r.failures));
    const LatencySummary& l = r.latency;
    st.bind(17, l.meanMs).bind(18, l.stddevMs).bind(19, l.p50Ms).bind(20, l.p90Ms).bind(21, l.p95Ms);
    st.bind(22, l.p99Ms).bind(23, l.p999Ms).bind(24, l.maxMs);
    bindOptional(st, 25, r.cpuBusyPct);
    bindOptional(st, 26, r.loadGeneratorCpuPct);
    bindOptional(st, 27, r.serverCpuPct);
    bindOptional(st, 28, r.logicalReadsPerSec);
    bindOptional(st, 29, r.commitsPerSec);
    st.bind(30, r.detail.dump());
    st.bind(31, r.note);
    try {
        st.run();
    } catch (const Error& e) {
        if (std::string(e.what()).find("UNIQUE") != std::string::npos && r.runIndex)
            throw Error(path() + " already holds a completed run number " + std::to_string(*r.runIndex) +
                        " of this plan; not writing it twice");
        throw;
    }
    int64_t runId = db_->lastInsertId();
    auto ins = db_->prepare(
        "INSERT INTO samples (run_id, seq, start_s, end_s, warmup, transactions, tps, failures, lat_mean_ms, "
        "lat_p50_ms, lat_p95_ms, lat_p99_ms, system) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)");
    for (size_t i = 0; i < samples.size(); ++i) {
        const StoredSample& s = samples[i];
        ins.reset();
        ins.bind(1, runId).bind(2, static_cast<int64_t>(i)).bind(3, s.startS).bind(4, s.endS).bind(5, s.warmup ? 1 : 0);
        ins.bind(6, static_cast<int64_t>(s.transactions)).bind(7, s.tps).bind(8, static_cast<int64_t>(s.failures));
        ins.bind(9, s.latMeanMs).bind(10, s.latP50Ms).bind(11, s.latP95Ms).bind(12, s.latP99Ms);
        if (s.system.is_null()) ins.bindNull(13);
        else ins.bind(13, s.system.dump());
        ins.run();
    }
    return runId;
}

int64_t ExperimentStore::saveRun(const RunRecord& run, const std::vector<StoredSample>& samples) {
    sqlite::Transaction tx(*db_);
    int64_t id = insertRun(run, samples);
    tx.commit();
    ensureStillOnDisk();
    return id;
}

void ExperimentStore::saveRuns(const std::vector<std::pair<RunRecord, std::vector<StoredSample>>>& runs) {
    sqlite::Transaction tx(*db_);
    for (const auto& [run, samples] : runs) insertRun(run, samples);
    tx.commit();
}

std::vector<RunRecord> ExperimentStore::runs() {
    std::vector<RunRecord> out;
    auto st = db_->prepare(
        "SELECT r.id, r.run_index, s.label, r.clients, r.threads, r.repetition, r.status, r.error, r.started_at, "
        "r.ended_at, r.source, r.excluded, r.flags, r.tps, r.measured_s, r.transactions, r.failures, r.lat_mean_ms, "
        "r.lat_sd_ms, r.lat_p50_ms, r.lat_p90_ms, r.lat_p95_ms, r.lat_p99_ms, r.lat_p999_ms, r.lat_max_ms, "
        "r.cpu_busy_pct, r.loadgen_cpu_pct, r.server_cpu_pct, r.logical_reads_s, r.commits_s, r.detail, " +
        std::string(schema_ >= 3 ? "r.note" : "''") +  // a file older than notes, read without migrating
        " FROM runs r JOIN series s ON s.id = r.series_id ORDER BY r.id");
    while (st.step()) {
        RunRecord r;
        r.id = st.integer(0);
        if (!st.isNull(1)) r.runIndex = st.integer(1);
        r.series = st.text(2);
        r.clients = static_cast<int>(st.integer(3));
        r.threads = static_cast<int>(st.integer(4));
        r.repetition = static_cast<int>(st.integer(5));
        r.status = statusOf(st.text(6), r.id, path());
        r.error = st.text(7);
        r.startedAt = st.text(8);
        r.endedAt = st.text(9);
        r.source = st.text(10);
        r.excluded = st.integer(11) != 0;
        r.flags = RunFlags::parse(st.text(12));
        r.tps = st.real(13);
        r.measuredSeconds = st.real(14);
        r.transactions = static_cast<uint64_t>(st.integer(15));
        r.failures = static_cast<uint64_t>(st.integer(16));
        LatencySummary& l = r.latency;
        l.count = r.transactions;
        l.meanMs = realOrMissing(st, 17), l.stddevMs = realOrMissing(st, 18), l.p50Ms = realOrMissing(st, 19);
        l.p90Ms = realOrMissing(st, 20), l.p95Ms = realOrMissing(st, 21), l.p99Ms = realOrMissing(st, 22);
        l.p999Ms = realOrMissing(st, 23), l.maxMs = realOrMissing(st, 24);
        r.cpuBusyPct = optionalReal(st, 25);
        r.loadGeneratorCpuPct = optionalReal(st, 26);
        r.serverCpuPct = optionalReal(st, 27);
        r.logicalReadsPerSec = optionalReal(st, 28);
        r.commitsPerSec = optionalReal(st, 29);
        r.detail = nlohmann::json::parse(st.text(30));
        r.note = st.text(31);
        out.push_back(std::move(r));
    }
    return out;
}

std::vector<StoredSample> ExperimentStore::samples(int64_t runId) {
    std::vector<StoredSample> out;
    auto st = db_->prepare(
        "SELECT start_s, end_s, warmup, transactions, tps, failures, lat_mean_ms, lat_p50_ms, lat_p95_ms, lat_p99_ms, "
        "system FROM samples WHERE run_id = ? ORDER BY seq");
    st.bind(1, runId);
    while (st.step()) {
        StoredSample s;
        s.startS = st.real(0);
        s.endS = st.real(1);
        s.warmup = st.integer(2) != 0;
        s.transactions = static_cast<uint64_t>(st.integer(3));
        s.tps = st.real(4);
        s.failures = static_cast<uint64_t>(st.integer(5));
        s.latMeanMs = realOrMissing(st, 6);
        s.latP50Ms = realOrMissing(st, 7);
        s.latP95Ms = realOrMissing(st, 8);
        s.latP99Ms = realOrMissing(st, 9);
        if (!st.isNull(10)) s.system = nlohmann::json::parse(st.text(10));
        out.push_back(std::move(s));
    }
    return out;
}

std::set<int64_t> ExperimentStore::finishedRunIndexes() {
    std::set<int64_t> out;
    auto st = db_->prepare("SELECT run_index FROM runs WHERE run_index IS NOT NULL AND status = 'completed'");
    while (st.step()) out.insert(st.integer(0));
    return out;
}

void ExperimentStore::setRunNote(int64_t runId, const std::string& note) {
    auto st = db_->prepare("UPDATE runs SET note = ? WHERE id = ?");
    st.bind(1, note).bind(2, runId).run();
    if (db_->changes() == 0) throw Error(path() + " has no run " + std::to_string(runId));
}

const std::string& ExperimentStore::path() const { return db_->path(); }

std::string ExperimentStore::note() { return meta("note"); }

void ExperimentStore::setNote(const std::string& note) {
    db_->prepare("INSERT INTO meta (key, value) VALUES ('note', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
        .bind(1, note)
        .run();
}

void ExperimentStore::setExcluded(int64_t runId, bool excluded) {
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

void applyExclusion(RunRecord& r, bool excluded) {
    // A run that did not complete (failed, stopped) is left out unless included on purpose;
    // that choice is the flag "included", visible wherever flags are shown.
    r.excluded = excluded;
    r.flags.remove(RunFlag::Included);
    if (!excluded && r.status != RunStatus::Completed) r.flags.add(RunFlag::Included);
}

bool countsInStatistics(const RunRecord& run) {
    if (run.excluded) return false;
    return run.status == RunStatus::Completed || run.flags.has(RunFlag::Included);
}

} // namespace scalelab
