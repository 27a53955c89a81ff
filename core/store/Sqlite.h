#pragma once
// A thin RAII layer over the SQLite C API: a connection, prepared statements with bound
// parameters, and transactions. Errors become scalelab::Error with SQLite's message.
#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>

namespace scalelab::sqlite {

class Statement;

class Database {
public:
    // flags: SQLITE_OPEN_READONLY, or SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE.
    // immutable: read a file on a read-only file system, where SQLite cannot create the
    // -shm file a WAL database needs (nobody can write the file there, so no lock is needed).
    Database(const std::string& path, int flags, bool immutable = false);
    ~Database();
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;

    void exec(const std::string& sql);  // one or more statements without parameters
    Statement prepare(const std::string& sql);
    int64_t lastInsertId() const { return sqlite3_last_insert_rowid(db_); }
    int changes() const { return sqlite3_changes(db_); }
    sqlite3* handle() const { return db_; }
    // A consistent copy of the whole database in a new file (SQLite's online backup).
    void copyTo(const std::string& target);
    const std::string& path() const { return path_; }

private:
    sqlite3* db_ = nullptr;
    std::string path_;
};

class Statement {
public:
    Statement(sqlite3* db, const std::string& sql);
    ~Statement();
    Statement(Statement&& o) noexcept;
    Statement(const Statement&) = delete;

    Statement& bind(int index, int64_t v);
    Statement& bind(int index, double v);
    Statement& bind(int index, const std::string& v);
    Statement& bindNull(int index);
    Statement& bind(int index, const std::optional<int64_t>& v) { return v ? bind(index, *v) : bindNull(index); }
    Statement& bind(int index, int v) { return bind(index, static_cast<int64_t>(v)); }

    bool step();     // true while there is a row
    void run();      // step to completion
    void reset();

    int64_t integer(int col) const { return sqlite3_column_int64(stmt_, col); }
    double real(int col) const { return sqlite3_column_double(stmt_, col); }
    std::string text(int col) const;
    bool isNull(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }

private:
    sqlite3* db_;
    sqlite3_stmt* stmt_ = nullptr;
};

// BEGIN IMMEDIATE ... COMMIT, rolled back if not committed.
class Transaction {
public:
    explicit Transaction(Database& db);
    ~Transaction();
    void commit();

private:
    Database& db_;
    bool done_ = false;
};

} // namespace scalelab::sqlite
