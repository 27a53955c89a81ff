#pragma once
// A thin RAII layer over libpq for the results store, shaped like store/Sqlite.h so that the
// same row mappings (store/RunColumns.h) serve both: statements written with '?' parameters,
// bound by position, stepped row by row. Values travel as text; a NaN double is bound as NULL
// (as SQLite stores it), so a missing value stays missing in both. Errors become
// scalelab::Error with the server's words.
#include <libpq-fe.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace scalelab::pgsql {

class Statement;

class Connection {
public:
    // Throws Error with libpq's words when the server cannot be reached or refuses us.
    explicit Connection(const std::string& conninfo);
    ~Connection();
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    void exec(const std::string& sql);  // one or more statements without parameters
    Statement prepare(const std::string& sql);
    bool ok() const { return PQstatus(conn_) == CONNECTION_OK; }
    PGconn* handle() const { return conn_; }

private:
    PGconn* conn_ = nullptr;
};

class Statement {
public:
    Statement(PGconn* conn, const std::string& sql);
    Statement(Statement&& o) noexcept;
    Statement(const Statement&) = delete;
    ~Statement();

    Statement& bind(int index, int64_t v);
    Statement& bind(int index, double v);
    Statement& bind(int index, const std::string& v);
    Statement& bindNull(int index);
    Statement& bind(int index, const std::optional<int64_t>& v) { return v ? bind(index, *v) : bindNull(index); }
    Statement& bind(int index, int v) { return bind(index, static_cast<int64_t>(v)); }

    bool step();     // true while there is a row (the statement runs at the first step)
    void run();      // run it; the rows, if any, are not read
    void reset();    // run again with new parameters
    int changes() const;  // rows the last run inserted, updated or deleted

    int64_t integer(int col) const;
    double real(int col) const;
    std::string text(int col) const;
    bool isNull(int col) const;

private:
    void execute();
    PGconn* conn_;
    std::string sql_;  // '?' rewritten as $1, $2, ...
    std::vector<std::optional<std::string>> params_;
    PGresult* result_ = nullptr;
    int row_ = -1;
};

// BEGIN ... COMMIT, rolled back if not committed.
class Transaction {
public:
    explicit Transaction(Connection& c);
    ~Transaction();
    void commit();

private:
    Connection& c_;
    bool done_ = false;
};

} // namespace scalelab::pgsql
