#include "store/ExperimentStore.h"

#include "store/Sqlite.h"
#include "util/Error.h"
#include "util/Versions.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <limits>

#include <ctime>
#include <filesystem>

namespace scalelab {
namespace {

// Migration N brings a file from user_version N to N + 1.
const char* const kMigrations[] = {
    R"sql(
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE plan (id INTEGER PRIMARY KEY CHECK (id = 1), json TEXT NOT NULL, seed INTEGER NOT NULL);
    CREATE TABLE provenance (id INTEGER PRIMARY KEY, taken_at TEXT NOT NULL, json TEXT NOT NULL);
    CREATE TABLE series (id INTEGER PRIMARY KEY, position INTEGER NOT NULL, label TEXT NOT NULL UNIQUE,
                         config TEXT NOT NULL);
    CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        run_index INTEGER,
        series_id INTEGER NOT NULL REFERENCES series(id),
        clients INTEGER NOT NULL, threads INTEGER NOT NULL, repetition INTEGER NOT NULL,
        status TEXT NOT NULL, error TEXT NOT NULL DEFAULT '',
        started_at TEXT NOT NULL, ended_at TEXT NOT NULL,
        source TEXT NOT NULL, excluded INTEGER NOT NULL DEFAULT 0, flags TEXT NOT NULL DEFAULT '',
        tps REAL NOT NULL, measured_s REAL NOT NULL, transactions INTEGER NOT NULL, failures INTEGER NOT NULL,
        lat_mean_ms REAL, lat_sd_ms REAL, lat_p50_ms REAL, lat_p90_ms REAL, lat_p95_ms REAL, lat_p99_ms REAL,
        lat_p999_ms REAL, lat_max_ms REAL,
        cpu_busy_pct REAL, loadgen_cpu_pct REAL, server_cpu_pct REAL, logical_reads_s REAL, commits_s REAL,
        detail TEXT NOT NULL);
    -- A planned run is finished once: completed or failed. Aborted attempts stay as history.
    CREATE UNIQUE INDEX runs_finished_once ON runs (run_index) WHERE status IN ('completed', 'failed');
    CREATE TABLE samples (
        run_id INTEGER NOT NULL REFERENCES runs(id), seq INTEGER NOT NULL,
        start_s REAL NOT NULL, end_s REAL NOT NULL, warmup INTEGER NOT NULL,
        transactions INTEGER NOT NULL, tps REAL NOT NULL, failures INTEGER NOT NULL,
        lat_mean_ms REAL, lat_p50_ms REAL, lat_p95_ms REAL, lat_p99_ms REAL,
        system TEXT,
        PRIMARY KEY (run_id, seq));
    )sql",
    // 2: a failed run is history too, so that a retry (at the end of a sweep, or on resume) can
    // complete the point; only a completed run finishes a planned one.
    R"sql(
    DROP INDEX runs_finished_once;
    CREATE UNIQUE INDEX runs_completed_once ON runs (run_index) WHERE status = 'completed';
    )sql",
    // 3: a note on a run (why it was excluded, what happened); the experiment's note is in meta.
    R"sql(
    ALTER TABLE runs ADD COLUMN note TEXT NOT NULL DEFAULT '';
    )sql",
};
constexpr int kMigrationCount = sizeof kMigrations / sizeof kMigrations[0];
static_assert(kMigrationCount == ExperimentStore::kSchemaVersion, "one migration per schema version");

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

int schemaVersionOf(sqlite::Database& db) {
    auto st = db.prepare("PRAGMA user_version");
    st.step();
    return static_cast<int>(st.integer(0));
}

void migrate(sqlite::Database& db, int from) {
    sqlite::Transaction tx(db);
    for (int v = from; v < ExperimentStore::kSchemaVersion; ++v) db.exec(kMigrations[v]);
    db.exec("PRAGMA user_version = " + std::to_string(ExperimentStore::kSchemaVersion));
    tx.commit();
}

} // namespace

std::string utcTimestamp() {
    std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

ExperimentStore::ExperimentStore(std::unique_ptr<sqlite::Database> db, int writerLock)
    : db_(std::move(db)), writerLock_(writerLock), schema_(schemaVersionOf(*db_)) {
    struct stat st {};
    if (stat(db_->path().c_str(), &st) == 0) {
        device_ = st.st_dev;
        inode_ = st.st_ino;
    }
}

ExperimentStore::~ExperimentStore() {
    db_.reset();
    if (writerLock_ >= 0) close(writerLock_);  // releases the lock
}

namespace {
// An advisory lock of whole-file writers (flock, which on Linux does not interact with
// SQLite's own fcntl locks). Two sweeps into one file, or an import into a file a sweep is
// writing, would interleave their runs and plans; the second is refused instead.
int lockForWriting(const std::string& path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw Error("cannot open " + path + ": " + std::strerror(errno));
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int err = errno;
        close(fd);
        if (err == EWOULDBLOCK)
            throw Error(path + " is being written by another ScaleLab (a sweep, an import or a change of the runs); "
                               "wait until it has finished, or open the file read-only to follow it");
        throw Error("cannot lock " + path + ": " + std::strerror(err));
    }
    return fd;
}
} // namespace

namespace {

std::string directoryOf(const std::string& path) {
    std::filesystem::path dir = std::filesystem::path(path).parent_path();
    return dir.empty() ? "." : dir.string();
}

bool onReadOnlyFileSystem(const std::string& path) {
    struct statvfs fs {};
    return statvfs(path.c_str(), &fs) == 0 && (fs.f_flag & ST_RDONLY);
}

// Why this process cannot write `path` and the -wal and -shm files SQLite keeps next to it,
// or "" when it can.
std::string whyNotWritable(const std::string& path) {
    std::string dir = directoryOf(path);
    if (onReadOnlyFileSystem(dir)) return dir + " is on a read-only file system";
    if (access(dir.c_str(), W_OK | X_OK) != 0) return "the directory " + dir + " is not writable (" + std::strerror(errno) + ")";
    if (access(path.c_str(), F_OK) == 0 && access(path.c_str(), W_OK) != 0)
        return "the file is not writable (" + std::string(std::strerror(errno)) + ")";
    return "";
}

void removeDatabaseFiles(const std::string& path) {
    std::error_code ec;
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) std::filesystem::remove(path + suffix, ec);
}

} // namespace

std::unique_ptr<ExperimentStore> ExperimentStore::create(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::exists(path, ec) && std::filesystem::file_size(path, ec) > 0)
        throw Error(path + " already exists; choose another file, or open it to continue");
    if (!std::filesystem::is_directory(directoryOf(path), ec))
        throw Error("cannot create " + path + ": no directory " + directoryOf(path));
    if (std::string why = whyNotWritable(path); !why.empty()) throw Error("cannot create " + path + ": " + why);
    bool existed = std::filesystem::exists(path, ec);
    std::unique_ptr<sqlite::Database> db;
    int lock = -1;
    try {
        db = std::make_unique<sqlite::Database>(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
        lock = lockForWriting(path);
        // WAL: readers (the GUI, `scalelab runs`) never block the sweep that writes.
        db->exec("PRAGMA journal_mode = WAL");
        migrate(*db, 0);
        db->exec("INSERT INTO meta (key, value) VALUES ('application', 'ScaleLab'), ('created_by', 'ScaleLab " +
                 scalelabVersion() + "'), ('created_at', '" + utcTimestamp() + "')");
    } catch (const std::exception& e) {
        // Nothing is left behind by a create that failed (a full disk, say).
        db.reset();
        if (lock >= 0) close(lock);
        if (!existed) removeDatabaseFiles(path);
        throw Error(std::string("cannot create ") + path + ": " + e.what());
    }
    return std::unique_ptr<ExperimentStore>(new ExperimentStore(std::move(db), lock));
}

std::unique_ptr<ExperimentStore> ExperimentStore::open(const std::string& path, bool readOnly) {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) throw Error("no experiment file " + path);
    if (!readOnly)
        if (std::string why = whyNotWritable(path); !why.empty())
            throw Error("cannot write " + path + ": " + why +
                        "; it can still be read (`scalelab runs`, `report`, `export`, the window)");
    // On a read-only file system nobody writes the file, and SQLite cannot create the -shm
    // file a WAL reader needs: read it as immutable.
    bool immutable = readOnly && onReadOnlyFileSystem(path);
    int version = 0;
    {
        // Look before touching: a read-only connection cannot change the file.
        sqlite::Database probe(path, SQLITE_OPEN_READONLY, immutable);
        try {
            version = schemaVersionOf(probe);
            auto meta = probe.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'meta'");
            meta.step();
            if (version == 0 || meta.integer(0) == 0)
                throw Error(path + " is an SQLite database but not a ScaleLab experiment file");
        } catch (const Error& e) {
            std::string what = e.what();
            if (what.find("not a ScaleLab") != std::string::npos) throw;
            std::error_code ec;
            if (immutable && std::filesystem::file_size(path + "-wal", ec) > 0 && !ec)
                throw Error("cannot read " + path + " on a read-only file system: its last changes are still in " + path +
                            "-wal (its writer did not finish cleanly); copy both files to a writable directory and "
                            "open the copy");
            if (what.find("unable to open") != std::string::npos)
                throw Error("cannot read " + path + ": SQLite cannot open it (" + what + "); reading needs a " + path +
                            "-shm file next to it, so the directory " + directoryOf(path) +
                            " must be writable for you, or copy the file to one that is");
            throw Error(path + " is not a ScaleLab experiment file, or it is damaged (" + what + ")");
        }
        if (version > kSchemaVersion)
            throw Error(path + " was written by a newer ScaleLab (file schema " + std::to_string(version) +
                        ", this ScaleLab reads up to " + std::to_string(kSchemaVersion) + "); update ScaleLab to open it");
    }
    int lock = readOnly ? -1 : lockForWriting(path);
    std::unique_ptr<sqlite::Database> db;
    try {
        db = std::make_unique<sqlite::Database>(path, readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE, immutable);
        if (!readOnly && version < kSchemaVersion) migrate(*db, version);
    } catch (...) {
        if (lock >= 0) close(lock);
        throw;
    }
    return std::unique_ptr<ExperimentStore>(new ExperimentStore(std::move(db), lock));
}

bool ExperimentStore::beingWritten(const std::string& path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    bool locked = flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    close(fd);  // releases the shared lock when it was taken
    return locked;
}

std::unique_ptr<ExperimentStore> ExperimentStore::openOrCreate(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::exists(path, ec) && std::filesystem::file_size(path, ec) > 0) return open(path);
    return create(path);
}

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

// A file deleted (or replaced) while it is open keeps taking writes into an inode that no name
// reaches, and everything goes with it when the store closes. After each run is stored the
// name must still lead to this file; when it does not, the database is copied out to the
// name again (or next to the file that took its place), with every run, and the caller learns.
void ExperimentStore::ensureStillOnDisk() {
    const std::string original = path();
    struct stat st {};
    bool present = stat(original.c_str(), &st) == 0;
    if (present && st.st_dev == device_ && st.st_ino == inode_) return;
    std::string target = original;
    if (present) {
        target = original + ".recovered";
        for (int n = 2; std::filesystem::exists(target); ++n) target = original + ".recovered-" + std::to_string(n);
    }
    int64_t runs = 0;
    {
        auto count = db_->prepare("SELECT count(*) FROM runs");
        count.step();
        runs = count.integer(0);
    }
    std::string what = original + (present ? " was replaced by another file" : " was deleted") + " while ScaleLab was writing it";
    std::string temp = target + ".writing";
    std::error_code ec;
    std::filesystem::create_directories(directoryOf(target), ec);
    removeDatabaseFiles(temp);
    try {
        db_->copyTo(temp);
    } catch (const std::exception& e) {
        removeDatabaseFiles(temp);
        throw Error(what + ", and it could not be written again (" + e.what() + "); the " + std::to_string(runs) +
                    " runs it held are lost when this ScaleLab ends");
    }
    // Close the old connection before the copy takes the name: closing checkpoints and removes
    // the -wal and -shm files by name, which must not happen to the new file's.
    db_.reset();
    if (writerLock_ >= 0) close(writerLock_);
    writerLock_ = -1;
    // SQLite leaves the -wal and -shm of a deleted database alone; next to the new file they
    // would be replayed into it. Their content is in the copy.
    if (!present) {
        std::filesystem::remove(original + "-wal", ec);
        std::filesystem::remove(original + "-shm", ec);
    }
    std::filesystem::rename(temp, target, ec);
    std::string at = ec ? temp : target;
    db_ = std::make_unique<sqlite::Database>(at, SQLITE_OPEN_READWRITE);
    writerLock_ = lockForWriting(at);
    struct stat now {};
    if (stat(at.c_str(), &now) == 0) device_ = now.st_dev, inode_ = now.st_ino;
    throw FileRewritten(what + "; ScaleLab wrote it again to " + at + " with all " + std::to_string(runs) +
                        " runs it held, the last one included");
}

} // namespace scalelab
