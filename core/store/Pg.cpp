#include "store/Pg.h"

#include "util/Error.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>

namespace scalelab::pgsql {
namespace {

// libpq's messages end in a newline.
std::string trimmed(std::string m) {
    while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
    return m;
}

std::string messageOf(PGconn* conn) { return trimmed(PQerrorMessage(conn)); }

// '?' outside quotes becomes $1, $2, ...: the store's statements are written once, for both
// SQLite and PostgreSQL.
std::string numberedParameters(const std::string& sql) {
    std::string out;
    int n = 0;
    char quote = 0;
    for (char c : sql) {
        if (quote) {
            if (c == quote) quote = 0;
            out += c;
        } else if (c == '\'' || c == '"') {
            quote = c;
            out += c;
        } else if (c == '?') {
            out += '$' + std::to_string(++n);
        } else {
            out += c;
        }
    }
    return out;
}

void throwIfFailed(PGconn* conn, PGresult* r, const std::string& sql) {
    ExecStatusType s = PQresultStatus(r);
    if (s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK) return;
    std::string msg = trimmed(r ? PQresultErrorMessage(r) : "");
    if (msg.empty()) msg = messageOf(conn);
    PQclear(r);
    if (PQstatus(conn) != CONNECTION_OK) throw Error("the results store's connection was lost: " + msg);
    throw Error("PostgreSQL: " + msg + " in: " + sql.substr(0, 200));
}

} // namespace

Connection::Connection(const std::string& conninfo) {
    // The user's string comes last and wins; ours are defaults: give up on a silent host after
    // 10 s, and say who we are in pg_stat_activity.
    const char* keys[] = {"connect_timeout", "application_name", "dbname", nullptr};
    const char* values[] = {"10", "scalelab results store", conninfo.c_str(), nullptr};
    conn_ = PQconnectdbParams(keys, values, 1);
    if (!conn_) throw Error("cannot connect to the results store: out of memory");
    if (PQstatus(conn_) != CONNECTION_OK) {
        std::string msg = messageOf(conn_);
        PQfinish(conn_);
        conn_ = nullptr;
        throw Error("cannot connect to the results store: " + msg);
    }
    // Quiet NOTICEs (CREATE ... IF NOT EXISTS); errors still come back as errors.
    PQsetNoticeProcessor(conn_, [](void*, const char*) {}, nullptr);
}

Connection::~Connection() { PQfinish(conn_); }

void Connection::exec(const std::string& sql) {
    PGresult* r = PQexec(conn_, sql.c_str());
    throwIfFailed(conn_, r, sql);
    PQclear(r);
}

Statement Connection::prepare(const std::string& sql) { return Statement(conn_, sql); }

Statement::Statement(PGconn* conn, const std::string& sql) : conn_(conn), sql_(numberedParameters(sql)) {}

Statement::Statement(Statement&& o) noexcept
    : conn_(o.conn_), sql_(std::move(o.sql_)), params_(std::move(o.params_)), result_(std::exchange(o.result_, nullptr)),
      row_(o.row_) {}

Statement::~Statement() { PQclear(result_); }

namespace {
void put(std::vector<std::optional<std::string>>& params, int index, std::optional<std::string> v) {
    if (index < 1) throw Error("parameter index " + std::to_string(index) + " is not 1 or more");
    if (params.size() < static_cast<size_t>(index)) params.resize(static_cast<size_t>(index));
    params[static_cast<size_t>(index - 1)] = std::move(v);
}
} // namespace

Statement& Statement::bind(int i, int64_t v) {
    put(params_, i, std::to_string(v));
    return *this;
}
Statement& Statement::bind(int i, double v) {
    if (std::isnan(v)) return bindNull(i);
    if (std::isinf(v)) {
        put(params_, i, std::string(v > 0 ? "Infinity" : "-Infinity"));
        return *this;
    }
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);  // exact: reads back as the same double
    put(params_, i, std::string(buf));
    return *this;
}
Statement& Statement::bind(int i, const std::string& v) {
    put(params_, i, v);
    return *this;
}
Statement& Statement::bindNull(int i) {
    put(params_, i, std::nullopt);
    return *this;
}

void Statement::execute() {
    std::vector<const char*> values;
    values.reserve(params_.size());
    for (const auto& p : params_) values.push_back(p ? p->c_str() : nullptr);
    PQclear(result_);
    result_ = nullptr;
    PGresult* r = PQexecParams(conn_, sql_.c_str(), static_cast<int>(values.size()), nullptr, values.data(), nullptr, nullptr, 0);
    throwIfFailed(conn_, r, sql_);  // frees r when it failed
    result_ = r;
    row_ = -1;
}

bool Statement::step() {
    if (!result_) execute();
    return ++row_ < PQntuples(result_);
}

void Statement::run() { execute(); }

void Statement::reset() {
    PQclear(result_);
    result_ = nullptr;
    params_.clear();
    row_ = -1;
}

int Statement::changes() const {
    const char* n = result_ ? PQcmdTuples(result_) : "";
    return *n ? std::atoi(n) : 0;
}

int64_t Statement::integer(int col) const {
    return isNull(col) ? 0 : std::strtoll(PQgetvalue(result_, row_, col), nullptr, 10);
}

double Statement::real(int col) const {
    return isNull(col) ? 0.0 : std::strtod(PQgetvalue(result_, row_, col), nullptr);
}

std::string Statement::text(int col) const {
    if (isNull(col)) return "";
    return std::string(PQgetvalue(result_, row_, col), static_cast<size_t>(PQgetlength(result_, row_, col)));
}

bool Statement::isNull(int col) const { return PQgetisnull(result_, row_, col) != 0; }

Transaction::Transaction(Connection& c) : c_(c) { c_.exec("BEGIN"); }

Transaction::~Transaction() {
    if (!done_) {
        try {
            c_.exec("ROLLBACK");
        } catch (...) {
        }
    }
}

void Transaction::commit() {
    c_.exec("COMMIT");
    done_ = true;
}

} // namespace scalelab::pgsql
