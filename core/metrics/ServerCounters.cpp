#include "metrics/ServerCounters.h"

#include "server/Conninfo.h"
#include "util/Error.h"
#include "util/Format.h"

#include <libpq-fe.h>

#include <chrono>
#include <thread>

namespace scalelab {

bool countersWereReset(const ServerCounterSnapshot& a, const ServerCounterSnapshot& b) {
    if (a.statsReset != b.statsReset) return true;
    const uint64_t ServerCounterSnapshot::*monotone[] = {
        &ServerCounterSnapshot::xactCommit, &ServerCounterSnapshot::xactRollback, &ServerCounterSnapshot::blksRead,
        &ServerCounterSnapshot::blksHit,    &ServerCounterSnapshot::tupReturned,  &ServerCounterSnapshot::tupFetched};
    for (auto m : monotone)
        if (b.*m < a.*m) return true;
    return false;
}

ServerCounterRates ratesBetween(const ServerCounterSnapshot& a, const ServerCounterSnapshot& b, double seconds) {
    ServerCounterRates r;
    if (seconds <= 0) return r;
    auto per = [&](uint64_t x, uint64_t y) { return y > x ? static_cast<double>(y - x) / seconds : 0.0; };
    r.commits = per(a.xactCommit, b.xactCommit);
    r.commitDelta = b.xactCommit > a.xactCommit ? b.xactCommit - a.xactCommit : 0;
    r.ownStatements = b.ownStatements - a.ownStatements;
    r.rollbacks = per(a.xactRollback, b.xactRollback);
    r.blksRead = per(a.blksRead, b.blksRead);
    r.blksHit = per(a.blksHit, b.blksHit);
    r.logicalReads = r.blksRead + r.blksHit;
    r.tupReturned = per(a.tupReturned, b.tupReturned);
    r.tupFetched = per(a.tupFetched, b.tupFetched);
    r.tupInserted = per(a.tupInserted, b.tupInserted);
    r.tupUpdated = per(a.tupUpdated, b.tupUpdated);
    r.tupDeleted = per(a.tupDeleted, b.tupDeleted);
    r.deadlocks = per(a.deadlocks, b.deadlocks);
    r.tempBytes = per(a.tempBytes, b.tempBytes);
    r.checkpoints = per(a.checkpointsTimed + a.checkpointsRequested, b.checkpointsTimed + b.checkpointsRequested);
    r.buffersCheckpoint = per(a.buffersCheckpoint, b.buffersCheckpoint);
    r.buffersClean = per(a.buffersClean, b.buffersClean);
    r.buffersAlloc = per(a.buffersAlloc, b.buffersAlloc);
    r.waitEvents = b.waitEvents;
    return r;
}

void ServerCounters::CloseConnection::operator()(pg_conn* c) const { PQfinish(c); }

ServerCounters::ServerCounters(const std::string& conninfo, const std::string& loadApplicationName)
    : loadApplicationName_(loadApplicationName) {
    conn_.reset(connectForReading(conninfo, "scalelab counters"));
    if (!conn_ || PQstatus(conn_.get()) != CONNECTION_OK)
        throw Error("cannot connect to read the server's counters: " +
                    firstLineOf(conn_ ? PQerrorMessage(conn_.get()) : "out of memory"));
    serverVersion_ = PQserverVersion(conn_.get());  // from the connection start-up: no statement
    // Each read runs this one statement in a transaction of its own, so the statistics
    // snapshot is fresh. pg_stat_force_next_flush() (PostgreSQL 15+) makes this session report
    // its own commit as soon as it goes idle, so that the next read sees it.
    const std::string checkpointer =
        serverVersion_ >= 170000
            ? "(SELECT num_timed FROM pg_stat_checkpointer), (SELECT num_requested FROM pg_stat_checkpointer), "
              "(SELECT buffers_written FROM pg_stat_checkpointer), "
            : "checkpoints_timed, checkpoints_req, buffers_checkpoint, ";
    char* quoted = PQescapeLiteral(conn_.get(), loadApplicationName_.c_str(), loadApplicationName_.size());
    if (!quoted) throw Error("cannot read the server's counters: " + firstLineOf(PQerrorMessage(conn_.get())));
    const std::string appName = quoted;
    PQfreemem(quoted);
    sql_ = "SELECT xact_commit, xact_rollback, blks_read, blks_hit, tup_returned, tup_fetched, tup_inserted, "
           "tup_updated, tup_deleted, deadlocks, temp_bytes, " + checkpointer +
           "buffers_clean, buffers_alloc, "
           "(SELECT coalesce(string_agg(w || '=' || n, ','), '') FROM (SELECT coalesce(wait_event_type, 'CPU') AS w, "
           "count(*) AS n FROM pg_stat_activity WHERE state = 'active' AND backend_type = 'client backend' "
           "AND pid <> pg_backend_pid() GROUP BY 1) AS waits), "
           "(SELECT count(*) FROM pg_stat_activity WHERE application_name = " + appName + "), "
           "coalesce(pg_stat_database.stats_reset::text, '') "
           "FROM pg_stat_database, pg_stat_bgwriter" +
           std::string(serverVersion_ >= 150000 ? ", pg_stat_force_next_flush() AS flush " : " ") +
           "WHERE datname = current_database()";
}

ServerCounters::~ServerCounters() = default;

ServerCounterSnapshot ServerCounters::read() {
    ServerCounterSnapshot s;
    s.ownStatements = statements_++;
    std::unique_ptr<PGresult, void (*)(PGresult*)> res(PQexec(conn_.get(), sql_.c_str()), PQclear);
    if (!res || PQresultStatus(res.get()) != PGRES_TUPLES_OK || PQntuples(res.get()) != 1)
        throw Error("cannot read the server's counters: " +
                    firstLineOf(res && PQresultErrorMessage(res.get())[0] ? PQresultErrorMessage(res.get())
                                                                         : PQerrorMessage(conn_.get())));
    auto text = [&](int col) { return std::string(PQgetvalue(res.get(), 0, col)); };
    uint64_t* fields[] = {&s.xactCommit, &s.xactRollback, &s.blksRead, &s.blksHit, &s.tupReturned, &s.tupFetched,
                          &s.tupInserted, &s.tupUpdated, &s.tupDeleted, &s.deadlocks, &s.tempBytes,
                          &s.checkpointsTimed, &s.checkpointsRequested, &s.buffersCheckpoint, &s.buffersClean,
                          &s.buffersAlloc};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; ++i) {
        int col = static_cast<int>(i);
        *fields[i] = PQgetisnull(res.get(), 0, col) ? 0 : std::stoull(text(col));
    }
    s.loadBackends = std::stoi(text(17));
    s.statsReset = text(18);
    std::string waits = text(16);
    for (size_t pos = 0; pos < waits.size();) {
        size_t comma = waits.find(',', pos);
        std::string item = waits.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        size_t eq = item.rfind('=');
        if (eq != std::string::npos) s.waitEvents[item.substr(0, eq)] = std::stoi(item.substr(eq + 1));
        if (comma == std::string::npos) break;
        pos = comma + 1;
    }
    return s;
}

ServerCounterSnapshot ServerCounters::readAfterLoadLeft(int timeoutMs) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    auto expired = [&] { return std::chrono::steady_clock::now() > deadline; };
    ServerCounterSnapshot s = read();
    while (s.loadBackends != 0 && !expired()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        s = read();
    }
    // A backend leaves pg_stat_activity before it flushes its last statistics (its exit hooks
    // run in that order), so the counters can still be short of its commits just after it
    // left: on a loaded machine 300 of 26,000 were (CI, ASan build). Read until the load's
    // transactions stop changing (this reader's own commits aside) over one pause.
    for (;;) {
        if (s.loadBackends != 0 || expired()) return s;
        std::this_thread::sleep_for(std::chrono::milliseconds(25));
        ServerCounterSnapshot next = read();
        bool settled = next.xactCommit - next.ownStatements == s.xactCommit - s.ownStatements &&
                       next.xactRollback == s.xactRollback;
        s = next;
        if (settled) return s;
    }
}

int ServerCounters::backendPid() const { return PQbackendPID(conn_.get()); }

} // namespace scalelab
