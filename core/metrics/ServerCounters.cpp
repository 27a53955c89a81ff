#include "metrics/ServerCounters.h"

#include "util/Error.h"

#include <pqxx/pqxx>

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

ServerCounters::ServerCounters(const std::string& conninfo, const std::string& loadApplicationName)
    : loadApplicationName_(loadApplicationName) {
    try {
        conn_ = std::make_unique<pqxx::connection>(conninfo);
        serverVersion_ = conn_->server_version();  // from the connection start-up: no statement
    } catch (const pqxx::failure& e) {
        throw Error(std::string("cannot connect to read the server's counters: ") + e.what());
    }
}

ServerCounters::~ServerCounters() = default;

ServerCounterSnapshot ServerCounters::read() {
    // Each statement runs in a transaction of its own, so the statistics snapshot is fresh.
    // pg_stat_force_next_flush() (PostgreSQL 15+) makes this session report its own commit as
    // soon as it goes idle, so that the next read sees it.
    const std::string checkpointer =
        serverVersion_ >= 170000
            ? "(SELECT num_timed FROM pg_stat_checkpointer), (SELECT num_requested FROM pg_stat_checkpointer), "
              "(SELECT buffers_written FROM pg_stat_checkpointer), "
            : "checkpoints_timed, checkpoints_req, buffers_checkpoint, ";
    const std::string sql =
        "SELECT xact_commit, xact_rollback, blks_read, blks_hit, tup_returned, tup_fetched, tup_inserted, "
        "tup_updated, tup_deleted, deadlocks, temp_bytes, " + checkpointer +
        "buffers_clean, buffers_alloc, "
        "(SELECT coalesce(string_agg(w || '=' || n, ','), '') FROM (SELECT coalesce(wait_event_type, 'CPU') AS w, "
        "count(*) AS n FROM pg_stat_activity WHERE state = 'active' AND backend_type = 'client backend' "
        "AND pid <> pg_backend_pid() GROUP BY 1) AS waits), "
        "(SELECT count(*) FROM pg_stat_activity WHERE application_name = " + conn_->quote(loadApplicationName_) + "), "
        "coalesce(pg_stat_database.stats_reset::text, '') "
        "FROM pg_stat_database, pg_stat_bgwriter" + std::string(serverVersion_ >= 150000 ? ", pg_stat_force_next_flush() AS flush " : " ") +
        "WHERE datname = current_database()";
    try {
        ServerCounterSnapshot s;
        s.ownStatements = statements_++;
        pqxx::nontransaction tx(*conn_);
        auto row = tx.exec(sql)[0];
        uint64_t* fields[] = {&s.xactCommit, &s.xactRollback, &s.blksRead, &s.blksHit, &s.tupReturned, &s.tupFetched,
                              &s.tupInserted, &s.tupUpdated, &s.tupDeleted, &s.deadlocks, &s.tempBytes,
                              &s.checkpointsTimed, &s.checkpointsRequested, &s.buffersCheckpoint, &s.buffersClean,
                              &s.buffersAlloc};
        for (size_t i = 0; i < sizeof fields / sizeof fields[0]; ++i)
            *fields[i] = row[static_cast<int>(i)].is_null() ? 0 : row[static_cast<int>(i)].as<uint64_t>();
        s.loadBackends = row[17].as<int>();
        s.statsReset = row[18].c_str();
        std::string waits = row[16].c_str();
        for (size_t pos = 0; pos < waits.size();) {
            size_t comma = waits.find(',', pos);
            std::string item = waits.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
            size_t eq = item.rfind('=');
            if (eq != std::string::npos) s.waitEvents[item.substr(0, eq)] = std::stoi(item.substr(eq + 1));
            if (comma == std::string::npos) break;
            pos = comma + 1;
        }
        return s;
    } catch (const pqxx::failure& e) {
        throw Error(std::string("cannot read the server's counters: ") + e.what());
    }
}

ServerCounterSnapshot ServerCounters::readAfterLoadLeft(int timeoutMs) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    for (;;) {
        ServerCounterSnapshot s = read();
        if (s.loadBackends == 0 || std::chrono::steady_clock::now() > deadline) return s;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

} // namespace scalelab
