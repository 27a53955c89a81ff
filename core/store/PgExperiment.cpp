// An experiment in a PostgreSQL results store: the statements of ExperimentFileRows.cpp, keyed
// by the experiment, with the same row mappings (store/RunColumns.h).
#include "store/PgExperiment.h"

#include "store/Pg.h"
#include "store/PgStore.h"
#include "store/RunColumns.h"
#include "util/Error.h"
#include "util/Versions.h"

#include <chrono>
#include <thread>
#include <utility>

namespace scalelab {
namespace {

std::string describeStore(const StoreLocation& where) { return "the results store " + where.conninfo; }

// The experiment's id, or 0.
int64_t findExperiment(pgsql::Connection& c, const std::string& name) {
    auto st = c.prepare("SELECT id FROM scalelab.experiments WHERE name = ?");
    st.bind(1, name);
    return st.step() ? st.integer(0) : 0;
}

bool tryWriterLock(pgsql::Connection& c, int64_t id) {
    auto st = c.prepare("SELECT pg_try_advisory_lock(?, ?::integer)");
    st.bind(1, static_cast<int64_t>(pgstore::kLockSpace)).bind(2, id);
    st.step();
    return st.text(0) == "t";
}

Error beingWrittenError(const std::string& location) {
    return Error(location + " is being written by another ScaleLab (a sweep, an import or a change of the runs); "
                            "wait until it has finished, or open it read-only to follow it");
}

} // namespace

PgExperiment::PgExperiment(std::unique_ptr<pgsql::Connection> c, std::string location, std::string conninfo, int64_t id, bool writer)
    : c_(std::move(c)), location_(std::move(location)), conninfo_(std::move(conninfo)), id_(id), writer_(writer),
      session_(PQbackendPID(c_->handle())) {}

PgExperiment::~PgExperiment() = default;  // closing the connection releases the writer's lock

std::unique_ptr<ExperimentStore> PgExperiment::create(const std::string& location) {
    StoreLocation where = parseStoreLocation(location);
    auto c = std::make_unique<pgsql::Connection>(where.conninfo);
    pgstore::ensureSchema(*c, describeStore(where));
    pgsql::Transaction tx(*c);
    auto ins = c->prepare("INSERT INTO scalelab.experiments (name) VALUES (?) ON CONFLICT (name) DO NOTHING RETURNING id");
    ins.bind(1, where.experiment);
    if (!ins.step())
        throw Error(location + " already exists; choose another name, or open it to continue (`scalelab experiments " +
                    where.conninfo + "` lists the store's experiments)");
    int64_t id = ins.integer(0);
    // Locked before anyone can see it: taken in this transaction, held by the session.
    if (!tryWriterLock(*c, id)) throw beingWrittenError(location);
    auto meta = c->prepare("INSERT INTO scalelab.meta (experiment_id, key, value) VALUES (?, 'application', 'ScaleLab'), "
                           "(?, 'created_by', ?), (?, 'created_at', ?)");
    meta.bind(1, id).bind(2, id).bind(3, "ScaleLab " + scalelabVersion()).bind(4, id).bind(5, utcTimestamp()).run();
    tx.commit();
    return std::unique_ptr<ExperimentStore>(new PgExperiment(std::move(c), location, where.conninfo, id, true));
}

std::unique_ptr<ExperimentStore> PgExperiment::open(const std::string& location, bool readOnly) {
    StoreLocation where = parseStoreLocation(location);
    auto c = std::make_unique<pgsql::Connection>(where.conninfo);
    int version = pgstore::schemaVersion(*c, describeStore(where));
    if (version == 0) throw Error("no experiment " + location + ": the database holds no ScaleLab results store");
    if (!readOnly && version < pgstore::kSchemaVersion) pgstore::ensureSchema(*c, describeStore(where));
    int64_t id = findExperiment(*c, where.experiment);
    if (id == 0)
        throw Error("no experiment " + location + " (`scalelab experiments " + where.conninfo + "` lists the store's experiments)");
    if (!readOnly) {
        // Said once here, in words, rather than as a row-level security refusal (or an UPDATE
        // that changes nothing) at the first write.
        auto may = c->prepare("SELECT scalelab.may_write(id), owner, current_user FROM scalelab.experiments WHERE id = ?");
        may.bind(1, id);
        if (may.step() && may.text(0) != "t")
            throw Error(location + " belongs to role " + may.text(1) + "; you (" + may.text(2) +
                        ") may read it but not change it: its owner can add you to its writers (docs/results-store.md)");
        if (!tryWriterLock(*c, id)) throw beingWrittenError(location);
    }
    return std::unique_ptr<ExperimentStore>(new PgExperiment(std::move(c), location, where.conninfo, id, !readOnly));
}

bool PgExperiment::exists(const std::string& location) {
    StoreLocation where = parseStoreLocation(location);
    pgsql::Connection c(where.conninfo);
    return pgstore::schemaVersion(c, describeStore(where)) > 0 && findExperiment(c, where.experiment) != 0;
}

bool PgExperiment::beingWritten(const std::string& location) {
    StoreLocation where = parseStoreLocation(location);
    pgsql::Connection c(where.conninfo);
    if (pgstore::schemaVersion(c, describeStore(where)) == 0) return false;
    int64_t id = findExperiment(c, where.experiment);
    if (id == 0) return false;
    auto st = c.prepare("SELECT " + pgstore::writerLockHeld("?::bigint"));
    st.bind(1, static_cast<int64_t>(pgstore::kLockSpace)).bind(2, id);
    st.step();
    return st.text(0) == "t";
}

namespace {

// The writer's lock after its connection broke. Its old session may still hold it: a server
// notices a broken connection only when it next reads or writes on it (at once on a local
// socket; over a network, not before TCP keepalive gives up, often hours later). That session
// is this writer's own (its backend pid): it is ended, and the lock taken once it is gone.
// A lock held by any other session is never touched.
bool takeWriterLockAgain(pgsql::Connection& c, int64_t id, int oldSession) {
    if (tryWriterLock(c, id)) return true;
    if (oldSession <= 0) return false;
    auto end = c.prepare("SELECT pg_terminate_backend(l.pid) FROM pg_locks l WHERE l.locktype = 'advisory' AND l.classid = ?"
                         " AND l.objid::bigint = ? AND l.objsubid = 2 AND l.granted AND l.pid = ?");
    end.bind(1, static_cast<int64_t>(pgstore::kLockSpace)).bind(2, id).bind(3, static_cast<int64_t>(oldSession));
    if (!end.step()) return false;  // another writer holds it
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
        if (tryWriterLock(c, id)) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
}

} // namespace

// A writer whose connection broke (a restarted store, a network blip) connects again and
// takes its lock again; refused when another writer took the experiment meanwhile.
void PgExperiment::reconnect() {
    auto c = std::make_unique<pgsql::Connection>(conninfo_);
    if (writer_ && !takeWriterLockAgain(*c, id_, session_)) throw beingWrittenError(location_);
    c_ = std::move(c);
    session_ = PQbackendPID(c_->handle());
}

// The role that wrote last, and when (store schema 2), in the transaction of the change.
void PgExperiment::touch() {
    c_->prepare("UPDATE scalelab.experiments SET last_written_by = current_user, last_written_at = now() WHERE id = ?")
        .bind(1, id_)
        .run();
}

void PgExperiment::savePlan(const nlohmann::json& plan, uint64_t seed) {
    touch();
    c_->prepare("INSERT INTO scalelab.plan (experiment_id, json, seed) VALUES (?, ?, ?) "
                "ON CONFLICT (experiment_id) DO UPDATE SET json = excluded.json, seed = excluded.seed")
        .bind(1, id_)
        .bind(2, plan.dump())
        .bind(3, static_cast<int64_t>(seed))
        .run();
}

std::optional<std::pair<nlohmann::json, uint64_t>> PgExperiment::plan() {
    auto st = c_->prepare("SELECT json, seed FROM scalelab.plan WHERE experiment_id = ?");
    st.bind(1, id_);
    if (!st.step()) return std::nullopt;
    return std::make_pair(columns::storedJson(st.text(0), path(), "the plan"), static_cast<uint64_t>(st.integer(1)));
}

int64_t PgExperiment::nextId(const char* table) {
    // One writer per experiment (the lock), so max + 1 is free.
    auto st = c_->prepare(std::string("SELECT coalesce(max(id), 0) + 1 FROM scalelab.") + table + " WHERE experiment_id = ?");
    st.bind(1, id_);
    st.step();
    return st.integer(0);
}

void PgExperiment::addProvenanceRecord(const ProvenanceRecord& record) {
    touch();
    c_->prepare("INSERT INTO scalelab.provenance (experiment_id, id, taken_at, json) VALUES (?, ?, ?, ?)")
        .bind(1, id_)
        .bind(2, nextId("provenance"))
        .bind(3, record.takenAt)
        .bind(4, record.json.dump())
        .run();
}

std::vector<ProvenanceRecord> PgExperiment::provenanceRecords() {
    std::vector<ProvenanceRecord> out;
    auto st = c_->prepare("SELECT taken_at, json FROM scalelab.provenance WHERE experiment_id = ? ORDER BY id");
    st.bind(1, id_);
    while (st.step()) out.push_back({st.text(0), columns::storedJson(st.text(1), path(), "a provenance record")});
    return out;
}

std::string PgExperiment::meta(const std::string& key) {
    auto st = c_->prepare("SELECT value FROM scalelab.meta WHERE experiment_id = ? AND key = ?");
    st.bind(1, id_).bind(2, key);
    return st.step() ? st.text(0) : std::string();
}

void PgExperiment::setMeta(const std::string& key, const std::string& value) {
    touch();
    c_->prepare("INSERT INTO scalelab.meta (experiment_id, key, value) VALUES (?, ?, ?) "
                "ON CONFLICT (experiment_id, key) DO UPDATE SET value = excluded.value")
        .bind(1, id_)
        .bind(2, key)
        .bind(3, value)
        .run();
}

int64_t PgExperiment::ensureSeries(const std::string& label, const nlohmann::json& config) {
    auto find = c_->prepare("SELECT id FROM scalelab.series WHERE experiment_id = ? AND label = ?");
    find.bind(1, id_).bind(2, label);
    if (find.step()) return find.integer(0);
    auto next = c_->prepare("SELECT coalesce(max(position), -1) + 1 FROM scalelab.series WHERE experiment_id = ?");
    next.bind(1, id_);
    next.step();
    int64_t id = nextId("series");
    c_->prepare("INSERT INTO scalelab.series (experiment_id, id, position, label, config) VALUES (?, ?, ?, ?, ?)")
        .bind(1, id_)
        .bind(2, id)
        .bind(3, next.integer(0))
        .bind(4, label)
        .bind(5, config.dump())
        .run();
    return id;
}

std::vector<StoredSeries> PgExperiment::series() {
    std::vector<StoredSeries> out;
    auto st = c_->prepare("SELECT id, position, label, config FROM scalelab.series WHERE experiment_id = ? ORDER BY position");
    st.bind(1, id_);
    while (st.step())
        out.push_back({st.integer(0), static_cast<int>(st.integer(1)), st.text(2),
                        columns::storedJson(st.text(3), path(), "the configuration of series " + st.text(2))});
    return out;
}

int64_t PgExperiment::insertRun(const RunRecord& r, const std::vector<StoredSample>& samples, bool keepId) {
    int64_t series = ensureSeries(r.series, nlohmann::json::object());
    int64_t runId = keepId ? r.id : nextId("runs");
    auto st = c_->prepare(std::string("INSERT INTO scalelab.runs (experiment_id, id, ") + columns::kRunInsert + ") VALUES (?, ?, " +
                          columns::placeholders(columns::kRunInsertCount) + ")");
    st.bind(1, id_).bind(2, runId);
    columns::bindRun(st, 3, r, series);
    try {
        st.run();
    } catch (const Error& e) {
        if (std::string(e.what()).find("runs_completed_once") != std::string::npos && r.runIndex)
            throw Error(path() + " already holds a completed run number " + std::to_string(*r.runIndex) +
                        " of this plan; not writing it twice");
        throw;
    }
    auto ins = c_->prepare(std::string("INSERT INTO scalelab.samples (experiment_id, run_id, ") + columns::kSampleInsert +
                           ") VALUES (?, ?, " + columns::placeholders(columns::kSampleInsertCount) + ")");
    for (size_t i = 0; i < samples.size(); ++i) {
        ins.reset();
        ins.bind(1, id_).bind(2, runId);
        columns::bindSample(ins, 3, static_cast<int64_t>(i), samples[i]);
        ins.run();
    }
    return runId;
}

int64_t PgExperiment::saveRun(const RunRecord& run, const std::vector<StoredSample>& samples) {
    auto attempt = [&] {
        pgsql::Transaction tx(*c_);
        touch();
        int64_t id = insertRun(run, samples, false);
        tx.commit();
        return id;
    };
    try {
        return attempt();
    } catch (const Error& e) {
        if (c_->ok()) throw;
        // The connection broke: once more on a new one. A COMMIT whose answer was lost may have
        // stored the run already: that row is the run's, not a second copy (a failed run would
        // be history twice; a completed one would be refused by runs_completed_once).
        try {
            reconnect();
        } catch (const Error& again) {
            throw Error(std::string(e.what()) + "; connecting again failed too (" + again.what() + "); the run was not stored");
        }
        if (auto stored = storedAttempt(run)) return *stored;
        return attempt();
    }
}

// The row of this very attempt, if it is stored: every column the same (its series, run
// number, status, start and end to the second, figures, error and detail). Two attempts of one
// run never agree on all of them, so this finds only a row whose COMMIT's answer was lost.
std::optional<int64_t> PgExperiment::storedAttempt(const RunRecord& r) {
    auto series = c_->prepare("SELECT id FROM scalelab.series WHERE experiment_id = ? AND label = ?");
    series.bind(1, id_).bind(2, r.series);
    if (!series.step()) return std::nullopt;
    int64_t seriesId = series.integer(0);
    std::string where = "experiment_id = ?";
    std::string list = columns::kRunInsert;
    for (size_t from = 0; from < list.size();) {
        size_t comma = list.find(", ", from);
        std::string column = list.substr(from, comma == std::string::npos ? std::string::npos : comma - from);
        where += " AND " + (column == "detail" ? std::string("detail::text") : column) + " IS NOT DISTINCT FROM ?";
        from = comma == std::string::npos ? list.size() : comma + 2;
    }
    auto st = c_->prepare("SELECT id FROM scalelab.runs WHERE " + where + " ORDER BY id DESC LIMIT 1");
    st.bind(1, id_);
    columns::bindRun(st, 2, r, seriesId);
    if (!st.step()) return std::nullopt;
    return st.integer(0);
}

void PgExperiment::saveRuns(const std::vector<std::pair<RunRecord, std::vector<StoredSample>>>& runs, bool keepIds) {
    pgsql::Transaction tx(*c_);
    touch();
    for (const auto& [run, samples] : runs) insertRun(run, samples, keepIds);
    tx.commit();
}

std::vector<RunRecord> PgExperiment::runs() {
    std::vector<RunRecord> out;
    auto st = c_->prepare("SELECT " + columns::runSelect() +
                          " FROM scalelab.runs r JOIN scalelab.series s ON s.experiment_id = r.experiment_id AND s.id = r.series_id"
                          " WHERE r.experiment_id = ? ORDER BY r.id");
    st.bind(1, id_);
    while (st.step()) out.push_back(columns::readRun(st, path()));
    return out;
}

std::vector<StoredSample> PgExperiment::samples(int64_t runId) {
    std::vector<StoredSample> out;
    auto st = c_->prepare(std::string("SELECT ") + columns::kSampleSelect +
                          " FROM scalelab.samples WHERE experiment_id = ? AND run_id = ? ORDER BY seq");
    st.bind(1, id_).bind(2, runId);
    while (st.step()) out.push_back(columns::readSample(st, path()));
    return out;
}

std::set<int64_t> PgExperiment::finishedRunIndexes() {
    std::set<int64_t> out;
    auto st = c_->prepare("SELECT run_index FROM scalelab.runs WHERE experiment_id = ? AND run_index IS NOT NULL AND status = 'completed'");
    st.bind(1, id_);
    while (st.step()) out.insert(st.integer(0));
    return out;
}

void PgExperiment::setRunNote(int64_t runId, const std::string& note) {
    touch();
    auto st = c_->prepare("UPDATE scalelab.runs SET note = ? WHERE experiment_id = ? AND id = ?");
    st.bind(1, note).bind(2, id_).bind(3, runId).run();
    if (st.changes() == 0) throw Error(path() + " has no run " + std::to_string(runId));
}

void PgExperiment::setExcluded(int64_t runId, bool excluded) {
    auto st = c_->prepare("SELECT status, flags FROM scalelab.runs WHERE experiment_id = ? AND id = ?");
    st.bind(1, id_).bind(2, runId);
    if (!st.step()) throw Error(path() + " has no run " + std::to_string(runId));
    RunRecord r;
    r.status = columns::statusOf(st.text(0), runId, path());
    r.flags = RunFlags::parse(st.text(1));
    applyExclusion(r, excluded);
    touch();
    c_->prepare("UPDATE scalelab.runs SET excluded = ?, flags = ? WHERE experiment_id = ? AND id = ?")
        .bind(1, r.excluded ? 1 : 0)
        .bind(2, r.flags.joined())
        .bind(3, id_)
        .bind(4, runId)
        .run();
}

} // namespace scalelab
