#include "metrics/StatementStats.h"

#include "server/Conninfo.h"
#include "util/Format.h"

#include <libpq-fe.h>

#include <algorithm>
#include <set>

namespace scalelab {
namespace {

using Result = std::unique_ptr<PGresult, void (*)(PGresult*)>;


Result exec(pg_conn* c, const std::string& sql) { return Result(PQexec(c, sql.c_str()), PQclear); }

std::string errorOf(pg_conn* c, const Result& r) {
    return firstLineOf(r && PQresultErrorMessage(r.get())[0] ? PQresultErrorMessage(r.get()) : PQerrorMessage(c));
}

bool ok(const Result& r, ExecStatusType want) { return r && PQresultStatus(r.get()) == want; }

uint64_t unsignedOf(const PGresult* r, int row, int col) {
    if (PQgetisnull(r, row, col)) return 0;
    // sum() of bigint is numeric: digits, no fraction.
    return std::stoull(PQgetvalue(r, row, col));
}

} // namespace

StatementsWindow statementsBetween(const StatementSnapshot& a, const StatementSnapshot& b) {
    StatementsWindow w;
    if (!a.unavailable.empty() || !b.unavailable.empty()) {
        w.unavailable = !a.unavailable.empty() ? a.unavailable : b.unavailable;
        return w;
    }
    if (a.statsReset != b.statsReset) {
        w.reset = true;
        return w;
    }
    if (a.dealloc && b.dealloc) w.evicted = *b.dealloc - *a.dealloc;
    for (const auto& [id, end] : b.byQueryId) {
        StatementCounters start;
        if (auto it = a.byQueryId.find(id); it != a.byQueryId.end()) start = it->second;
        // An entry evicted and made again inside the window counts from 0: its counters went
        // back. Only its calls since then are known, so it is left out (and `evicted` says so).
        if (end.calls < start.calls) {
            if (!w.evicted || *w.evicted == 0) w.evicted = 1;
            continue;
        }
        if (end.calls == start.calls) continue;
        StatementDelta d;
        d.queryId = id;
        d.calls = end.calls - start.calls;
        auto minus = [](uint64_t x, uint64_t y) { return x > y ? x - y : 0; };
        d.rows = minus(end.rows, start.rows);
        d.blksHit = minus(end.blksHit, start.blksHit);
        d.blksRead = minus(end.blksRead, start.blksRead);
        d.blksDirtied = minus(end.blksDirtied, start.blksDirtied);
        d.totalMs = std::max(0.0, end.totalMs - start.totalMs);
        d.meanMs = d.totalMs / static_cast<double>(d.calls);
        if (end.walBytes) d.walBytes = minus(*end.walBytes, start.walBytes.value_or(0));
        d.query = end.query;
        w.rows.push_back(std::move(d));
    }
    std::sort(w.rows.begin(), w.rows.end(), [](const StatementDelta& x, const StatementDelta& y) {
        return x.totalMs != y.totalMs ? x.totalMs > y.totalMs : x.queryId < y.queryId;
    });
    return w;
}

void StatementStats::CloseConnection::operator()(pg_conn* c) const { PQfinish(c); }

StatementStats::StatementStats(const std::string& conninfo, bool createExtension,
                               const std::vector<std::string>& ownStatements) {
    conn_.reset(connectForReading(conninfo, "scalelab statements"));
    if (!conn_ || PQstatus(conn_.get()) != CONNECTION_OK) {
        unavailable_ = "cannot connect to read pg_stat_statements: " +
                       firstLineOf(conn_ ? PQerrorMessage(conn_.get()) : "out of memory");
        return;
    }
    prepare(createExtension, ownStatements);
}

StatementStats::~StatementStats() = default;

void StatementStats::prepare(bool createExtension, const std::vector<std::string>& ownStatements) {
    pg_conn* c = conn_.get();
    auto loaded = exec(c, "SELECT 'pg_stat_statements' = ANY (string_to_array(replace(current_setting("
                          "'shared_preload_libraries'), ' ', ''), ','))");
    if (!ok(loaded, PGRES_TUPLES_OK)) {
        unavailable_ = "cannot read shared_preload_libraries: " + errorOf(c, loaded);
        return;
    }
    if (std::string(PQgetvalue(loaded.get(), 0, 0)) != "t") {
        unavailable_ = "the server does not load pg_stat_statements (shared_preload_libraries)";
        return;
    }
    auto installed = [&] {
        auto r = exec(c, "SELECT extversion FROM pg_extension WHERE extname = 'pg_stat_statements'");
        return ok(r, PGRES_TUPLES_OK) && PQntuples(r.get()) == 1 ? std::string(PQgetvalue(r.get(), 0, 0)) : std::string();
    };
    version_ = installed();
    if (version_.empty() && createExtension) {
        auto r = exec(c, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
        if (!ok(r, PGRES_COMMAND_OK)) {
            unavailable_ = "cannot create the pg_stat_statements extension: " + errorOf(c, r);
            return;
        }
        version_ = installed();
    }
    if (version_.empty()) {
        unavailable_ = "pg_stat_statements is loaded but not installed in database " +
                       std::string(PQdb(c)) + " (CREATE EXTENSION pg_stat_statements)";
        return;
    }
    // The view's columns are those of the installed extension version, not the server's.
    std::set<std::string> columns;
    auto cols = exec(c, "SELECT attname FROM pg_attribute WHERE attrelid = 'pg_stat_statements'::regclass AND attnum > 0");
    if (!ok(cols, PGRES_TUPLES_OK)) {
        unavailable_ = "cannot read pg_stat_statements' columns: " + errorOf(c, cols);
        return;
    }
    for (int i = 0; i < PQntuples(cols.get()); ++i) columns.insert(PQgetvalue(cols.get(), i, 0));
    const std::string time = columns.count("total_exec_time") ? "total_exec_time" : "total_time";
    const std::string wal = columns.count("wal_bytes") ? "sum(wal_bytes)" : "NULL";
    std::string select = "SELECT queryid, sum(calls), sum(" + time + "), sum(rows), sum(shared_blks_hit), "
                         "sum(shared_blks_read), sum(shared_blks_dirtied), " + wal;
    const std::string from = " FROM pg_stat_statements(%s) WHERE queryid IS NOT NULL AND dbid = "
                             "(SELECT oid FROM pg_database WHERE datname = current_database()) GROUP BY queryid";
    auto withArg = [&](const char* showText) {
        std::string f = from;
        f.replace(f.find("%s"), 2, showText);
        return f;
    };
    sqlWithoutText_ = select + withArg("false");
    sqlWithText_ = select + ", min(query)" + withArg("true");
    auto info = exec(c, "SELECT 1 FROM pg_class WHERE relname = 'pg_stat_statements_info'");
    if (ok(info, PGRES_TUPLES_OK) && PQntuples(info.get()) == 1)
        infoSql_ = "SELECT coalesce(stats_reset::text, ''), dealloc FROM pg_stat_statements_info";
    // Query identifiers of ScaleLab's own statements in this database (EXPLAIN VERBOSE shows
    // them from PostgreSQL 14; before, they are left out by their text).
    std::vector<std::string> own = ownStatements;
    own.push_back(sqlWithoutText_);
    own.push_back(sqlWithText_);
    if (!infoSql_.empty()) own.push_back(infoSql_);
    for (const auto& sql : own) {
        ownPrefixes_.push_back(sql.substr(0, 40));
        auto r = exec(c, "EXPLAIN (VERBOSE) " + sql);
        if (!ok(r, PGRES_TUPLES_OK)) continue;
        for (int i = 0; i < PQntuples(r.get()); ++i) {
            std::string line = PQgetvalue(r.get(), i, 0);
            const std::string key = "Query Identifier: ";
            if (line.rfind(key, 0) == 0) ownIds_.push_back(std::stoll(line.substr(key.size())));
        }
    }
}

bool StatementStats::ownText(const std::string& query) const {
    for (const auto& prefix : ownPrefixes_)
        if (query.compare(0, prefix.size(), prefix) == 0) return true;
    return false;
}

StatementSnapshot StatementStats::read(bool withText) {
    StatementSnapshot s;
    if (!unavailable_.empty()) {
        s.unavailable = unavailable_;
        return s;
    }
    pg_conn* c = conn_.get();
    auto r = exec(c, withText ? sqlWithText_ : sqlWithoutText_);
    if (!ok(r, PGRES_TUPLES_OK)) {
        s.unavailable = "cannot read pg_stat_statements: " + errorOf(c, r);
        return s;
    }
    const PGresult* res = r.get();
    for (int i = 0; i < PQntuples(res); ++i) {
        int64_t id = std::stoll(PQgetvalue(res, i, 0));
        if (std::find(ownIds_.begin(), ownIds_.end(), id) != ownIds_.end()) continue;
        if (withText && ownText(PQgetvalue(res, i, 8))) continue;
        StatementCounters& st = s.byQueryId[id];
        st.calls = unsignedOf(res, i, 1);
        st.totalMs = PQgetisnull(res, i, 2) ? 0 : std::stod(PQgetvalue(res, i, 2));
        st.rows = unsignedOf(res, i, 3);
        st.blksHit = unsignedOf(res, i, 4);
        st.blksRead = unsignedOf(res, i, 5);
        st.blksDirtied = unsignedOf(res, i, 6);
        if (!PQgetisnull(res, i, 7)) st.walBytes = unsignedOf(res, i, 7);
        if (withText) st.query = PQgetvalue(res, i, 8);
    }
    if (!infoSql_.empty()) {
        auto info = exec(c, infoSql_);
        if (ok(info, PGRES_TUPLES_OK) && PQntuples(info.get()) == 1) {
            s.statsReset = PQgetvalue(info.get(), 0, 0);
            s.dealloc = std::stoll(PQgetvalue(info.get(), 0, 1));
        }
    }
    return s;
}

} // namespace scalelab
