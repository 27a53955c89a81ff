#pragma once
// PostgreSQL's activity counters over one extra connection: pg_stat_database of the target
// database, the checkpointer and background writer, and a snapshot of what active backends
// wait for. The query is one round trip; its own transaction counts as one commit, which the
// server reports at once (pg_stat_force_next_flush), so the next read includes it.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>


struct pg_conn;

namespace scalelab {

struct ServerCounterSnapshot {
    // pg_stat_database
    uint64_t xactCommit = 0, xactRollback = 0, blksRead = 0, blksHit = 0, tupReturned = 0, tupFetched = 0,
             tupInserted = 0, tupUpdated = 0, tupDeleted = 0, deadlocks = 0, tempBytes = 0;
    // checkpointer and background writer (pg_stat_checkpointer from PostgreSQL 17, pg_stat_bgwriter before)
    uint64_t checkpointsTimed = 0, checkpointsRequested = 0, buffersCheckpoint = 0, buffersClean = 0, buffersAlloc = 0;
    std::map<std::string, int> waitEvents;  // wait_event_type ("CPU" when none) -> active backends
    int loadBackends = 0;                   // sessions with the load's application_name
    uint64_t ownStatements = 0;             // statements this reader ran before this snapshot
    std::string statsReset;                 // pg_stat_database.stats_reset, "" when never reset
};

// pg_stat_reset() (or a crash) between two snapshots: the differences are not activity.
// Detected by a changed stats_reset or by a counter that went backwards.
bool countersWereReset(const ServerCounterSnapshot& before, const ServerCounterSnapshot& after);

// Per second over an interval.
struct ServerCounterRates {
    double commits = 0, rollbacks = 0, blksRead = 0, blksHit = 0, logicalReads = 0;  // logical reads = hit + read
    double tupReturned = 0, tupFetched = 0, tupInserted = 0, tupUpdated = 0, tupDeleted = 0, deadlocks = 0, tempBytes = 0;
    double checkpoints = 0, buffersCheckpoint = 0, buffersClean = 0, buffersAlloc = 0;
    std::map<std::string, int> waitEvents;  // at the end of the interval
    uint64_t commitDelta = 0;               // xact_commit difference
    uint64_t ownStatements = 0;             // of those, transactions of ScaleLab's own counter queries
};

ServerCounterRates ratesBetween(const ServerCounterSnapshot& before, const ServerCounterSnapshot& after, double seconds);

class ServerCounters {
public:
    // `loadApplicationName`: the application_name of the load's sessions, counted in each read.
    ServerCounters(const std::string& conninfo, const std::string& loadApplicationName);  // throws Error
    ~ServerCounters();
    ServerCounterSnapshot read();  // throws Error with the server's words
    // Reads until no load session is left and the load's commits and rollbacks stop changing
    // (at most `timeoutMs`): a backend reports its last commits when it exits, after it left
    // pg_stat_activity, so only then do the counters hold all of them.
    ServerCounterSnapshot readAfterLoadLeft(int timeoutMs);
    // The pid of this reader's backend on the server's machine (which machine that is, a
    // process of that pid there tells: postmasterOfBackend).
    int backendPid() const;
    // The statement each read runs (left out of pg_stat_statements' figures: StatementStats).
    const std::string& statement() const { return sql_; }

private:
    // libpq directly: libpqxx 6.4 leaks a result when a statement meets a server that died,
    // and these reads go on while the server is being killed or restarted.
    struct CloseConnection {
        void operator()(pg_conn* c) const;
    };
    std::unique_ptr<pg_conn, CloseConnection> conn_;
    int serverVersion_ = 0;
    std::string sql_;  // the one statement each read runs, built for this server
    std::string loadApplicationName_;
    uint64_t statements_ = 0;
};

} // namespace scalelab
