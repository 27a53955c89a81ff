// An experiment file as a file: created or opened (read-only or as its one writer, the lock),
// migrated to this ScaleLab's schema, and kept on disk when its name goes away meanwhile. What
// the file holds (plan, series, runs, samples, notes) is read and written in ExperimentFileRows.cpp.
#include "store/ExperimentFile.h"

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
#include <ctime>
#include <algorithm>
#include <filesystem>
#include <set>

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

int schemaVersionOf(sqlite::Database& db) {
    auto st = db.prepare("PRAGMA user_version");
    st.step();
    return static_cast<int>(st.integer(0));
}

// What is wrong with a file of schema `version`, or "" (issue 31.13): SQLite's own check of its
// pages and indexes, then every table and column that version's schema has (a table dropped
// by hand, a column lost). Run once on open, so that a damaged file is said to be damaged, by
// name, before anything is read from it or written to it.
std::string damageOf(sqlite::Database& db, int version) {
    try {
        auto check = db.prepare("PRAGMA quick_check(1)");
        if (check.step() && check.text(0) != "ok") return "SQLite's check says: " + check.text(0);
        sqlite::Database expected(":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
        for (int v = 0; v < std::min(version, kMigrationCount); ++v) expected.exec(kMigrations[v]);
        auto tables = expected.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
        while (tables.step()) {
            std::string table = tables.text(0);
            std::set<std::string> has;
            auto have = db.prepare("SELECT name FROM pragma_table_info(?)");
            have.bind(1, table);
            while (have.step()) has.insert(have.text(0));
            if (has.empty()) return "its table '" + table + "' is missing";
            auto want = expected.prepare("SELECT name FROM pragma_table_info(?)");
            want.bind(1, table);
            while (want.step())
                if (!has.count(want.text(0))) return "its table '" + table + "' has no column '" + want.text(0) + "'";
        }
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

void migrate(sqlite::Database& db, int from) {
    sqlite::Transaction tx(db);
    for (int v = from; v < ExperimentStore::kSchemaVersion; ++v) db.exec(kMigrations[v]);
    db.exec("PRAGMA user_version = " + std::to_string(ExperimentStore::kSchemaVersion));
    tx.commit();
}

} // namespace

ExperimentFile::ExperimentFile(std::unique_ptr<sqlite::Database> db, int writerLock)
    : db_(std::move(db)), writerLock_(writerLock), schema_(schemaVersionOf(*db_)) {
    struct stat st {};
    if (stat(db_->path().c_str(), &st) == 0) {
        device_ = st.st_dev;
        inode_ = st.st_ino;
    }
}

ExperimentFile::~ExperimentFile() {
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

std::unique_ptr<ExperimentStore> ExperimentFile::create(const std::string& path) {
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
    return std::unique_ptr<ExperimentStore>(new ExperimentFile(std::move(db), lock));
}

std::unique_ptr<ExperimentStore> ExperimentFile::open(const std::string& path, bool readOnly) {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) throw Error("no experiment file " + path);
    if (!readOnly)
        if (std::string why = whyNotWritable(path); !why.empty())
            throw Error("cannot write " + path + ": " + why +
                        "; it can still be read (`scalelab runs`, `report`, `export`, the window)");
    // SQLite's WAL reader wants to create and write the -shm file next to the database. Where
    // this process cannot (a read-only file system, another user's file or directory, one's own
    // file in a 0555 directory), a file that no writer holds and whose -wal is empty cannot
    // change under the reader: it is read as immutable, which needs no -shm (issue 31.12).
    std::error_code walError;
    auto walSize = std::filesystem::file_size(path + "-wal", walError);
    bool walEmpty = walError || walSize == 0;
    bool readOnlyFs = readOnly && onReadOnlyFileSystem(path);
    bool cannotWrite = readOnly && (readOnlyFs || !whyNotWritable(path).empty());
    bool immutable = readOnlyFs || (cannotWrite && walEmpty && !beingWritten(path));
    int version = 0;
    // A file that is refused is left as it was found: the -wal and -shm files SQLite made beside
    // it while looking are taken away again (a truncated file left both behind, issue 61.12).
    std::error_code none;
    bool hadWal = std::filesystem::exists(path + "-wal", none), hadShm = std::filesystem::exists(path + "-shm", none);
    auto removeWhatLookingMade = [&] {
        std::error_code ec;
        if (!hadWal && std::filesystem::file_size(path + "-wal", ec) == 0 && !ec) std::filesystem::remove(path + "-wal", ec);
        if (!hadShm) std::filesystem::remove(path + "-shm", ec);
    };
    try {
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
            if (immutable && !walEmpty)
                throw Error("cannot read " + path + " on a read-only file system: its last changes are still in " + path +
                            "-wal (its writer did not finish cleanly); copy both files to a writable directory and "
                            "open the copy");
            if (cannotWrite && (what.find("readonly database") != std::string::npos || what.find("unable to open") != std::string::npos))
                throw Error("cannot read " + path + " now: " + whyNotWritable(path) +
                            (walEmpty ? ", and a sweep is writing it" : ", and its last changes are still in " + path + "-wal") +
                            "; SQLite must then write a " + path + "-shm file next to it. Wait until the writer has "
                            "finished, or copy " + path + " and " + path + "-wal to a directory of yours and open the copy");
            if (what.find("the disk is full") != std::string::npos)
                throw Error("cannot open " + path + ": the disk is full (SQLite needs room for a " + path +
                            "-shm file next to it); free some space and try again");
            if (what.find("unable to open") != std::string::npos)
                throw Error("cannot read " + path + ": SQLite cannot open it (" + what + "); reading needs a " + path +
                            "-shm file next to it, so the directory " + directoryOf(path) +
                            " must be writable for you, or copy the file to one that is");
            // SQLite's words without the file's path again (it was named twice).
            size_t sqliteWords = what.find(": SQLite: ");
            if (sqliteWords != std::string::npos) what = what.substr(sqliteWords + 2);
            throw Error(path + " is not a ScaleLab experiment file, or it is damaged (" + what + ")");
        }
        if (version > kSchemaVersion)
            throw Error(path + " was written by a newer ScaleLab (file schema " + std::to_string(version) +
                        ", this ScaleLab reads up to " + std::to_string(kSchemaVersion) + "); update ScaleLab to open it");
        if (std::string damage = damageOf(probe, version); !damage.empty())
            throw Error(path + " is damaged: " + damage + ". Nothing was read from it or written to it; open a copy "
                        "made before the damage, or `sqlite3 " + path + " .recover` to save what is left");
    } catch (const Error&) {
        removeWhatLookingMade();
        throw;
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
    return std::unique_ptr<ExperimentStore>(new ExperimentFile(std::move(db), lock));
}

bool ExperimentFile::beingWritten(const std::string& path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    bool locked = flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    close(fd);  // releases the shared lock when it was taken
    return locked;
}

// A file deleted (or replaced) while it is open keeps taking writes into an inode that no name
// reaches, and everything goes with it when the store closes. After each run is stored the
// name must still lead to this file; when it does not, the database is copied out to the
// name again (or next to the file that took its place), with every run, and the caller learns.
void ExperimentFile::ensureStillOnDisk() {
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
