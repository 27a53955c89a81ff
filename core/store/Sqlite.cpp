#include "store/Sqlite.h"

#include <cerrno>
#include <cstdio>

#include "util/Error.h"

#include <utility>

namespace scalelab::sqlite {

namespace {
// file: URI of a path: '%', '?' and '#' escaped (RFC 3986), as sqlite3_open_v2 reads it.
std::string fileUri(const std::string& path) {
    std::string out = "file:";
    for (char c : path) {
        if (c == '%' || c == '?' || c == '#') {
            char buf[4];
            std::snprintf(buf, sizeof buf, "%%%02X", static_cast<unsigned char>(c));
            out += buf;
        } else {
            out += c;
        }
    }
    return out;
}
} // namespace

Database::Database(const std::string& path, int flags, bool immutable) : path_(path) {
    std::string name = immutable ? fileUri(path) + "?immutable=1" : path;
    if (immutable) flags |= SQLITE_OPEN_URI;
    if (sqlite3_open_v2(name.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
        std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
        sqlite3_close(db_);
        db_ = nullptr;
        throw Error("cannot open " + path + ": " + msg);
    }
    sqlite3_busy_timeout(db_, 5000);
    sqlite3_extended_result_codes(db_, 1);
}

Database::~Database() { sqlite3_close(db_); }

void Database::copyTo(const std::string& target) {
    Database dest(target, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    sqlite3_backup* backup = sqlite3_backup_init(dest.db_, "main", db_, "main");
    if (!backup) throw Error("cannot copy " + path_ + " to " + target + ": " + sqlite3_errmsg(dest.db_));
    int rc = sqlite3_backup_step(backup, -1);
    sqlite3_backup_finish(backup);
    if (rc != SQLITE_DONE) throw Error("cannot copy " + path_ + " to " + target + ": " + sqlite3_errstr(rc));
}

void Database::exec(const std::string& sql) {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
        std::string msg = err ? err : sqlite3_errmsg(db_);
        sqlite3_free(err);
        if (sqlite3_system_errno(db_) == ENOSPC) msg += " (the disk is full: no space left on device)";
        throw Error(path_ + ": " + msg);
    }
}

Statement Database::prepare(const std::string& sql) { return Statement(db_, sql); }

namespace {
// "FILE: SQLite: message": every error names the experiment file it is about.
std::string failure(sqlite3* db) {
    const char* file = sqlite3_db_filename(db, "main");
    std::string out = std::string(file && *file ? file : "(memory)") + ": SQLite: " + sqlite3_errmsg(db);
    // SQLite says "disk I/O error" when a write finds the disk full (ENOSPC): say which.
    if (sqlite3_system_errno(db) == ENOSPC) out += " (the disk is full: no space left on device)";
    return out;
}
} // namespace

Statement::Statement(sqlite3* db, const std::string& sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt_, nullptr) != SQLITE_OK) throw Error(failure(db) + " in: " + sql);
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement::Statement(Statement&& o) noexcept : db_(o.db_), stmt_(std::exchange(o.stmt_, nullptr)) {}

Statement& Statement::bind(int i, int64_t v) {
    sqlite3_bind_int64(stmt_, i, v);
    return *this;
}
Statement& Statement::bind(int i, double v) {
    sqlite3_bind_double(stmt_, i, v);
    return *this;
}
Statement& Statement::bind(int i, const std::string& v) {
    sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    return *this;
}
Statement& Statement::bindNull(int i) {
    sqlite3_bind_null(stmt_, i);
    return *this;
}

bool Statement::step() {
    int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    throw Error(failure(db_));
}

void Statement::run() {
    while (step()) {
    }
}

void Statement::reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
}

std::string Statement::text(int col) const {
    const unsigned char* t = sqlite3_column_text(stmt_, col);
    return t ? std::string(reinterpret_cast<const char*>(t), static_cast<size_t>(sqlite3_column_bytes(stmt_, col))) : "";
}

Transaction::Transaction(Database& db) : db_(db) { db_.exec("BEGIN IMMEDIATE"); }

Transaction::~Transaction() {
    if (!done_) {
        try {
            db_.exec("ROLLBACK");
        } catch (...) {
        }
    }
}

void Transaction::commit() {
    db_.exec("COMMIT");
    done_ = true;
}

} // namespace scalelab::sqlite
