#pragma once
// pg_stat_statements at the edges of a run's counted window: which statements the load ran,
// how often and how long they took. Read over a connection of its own, once at each edge (it
// reads the server's whole statement table, too heavy for every interval). ScaleLab's own
// monitoring statements are left out by query identifier (EXPLAIN VERBOSE names it), and only
// the target database's statements are read.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct pg_conn;

namespace scalelab {

// One statement's cumulative counters (summed over users and nesting levels).
struct StatementCounters {
    uint64_t calls = 0, rows = 0, blksHit = 0, blksRead = 0, blksDirtied = 0;
    double totalMs = 0;
    std::optional<uint64_t> walBytes;  // PostgreSQL 13+
    std::string query;                 // read at the window's end only
};

struct StatementSnapshot {
    std::string unavailable;                        // why there are no statements ("" when read)
    std::map<int64_t, StatementCounters> byQueryId;
    std::string statsReset;                         // pg_stat_statements_info (1.9+), "" before
    std::optional<int64_t> dealloc;                 // entries evicted so far (1.9+)
};

struct StatementDelta {
    int64_t queryId = 0;
    uint64_t calls = 0, rows = 0, blksHit = 0, blksRead = 0, blksDirtied = 0;
    double totalMs = 0, meanMs = 0;
    std::optional<uint64_t> walBytes;
    std::string query;
};

// What the statements did inside the window, by total time, largest first.
struct StatementsWindow {
    std::string unavailable;           // why none were read; then nothing else is set
    bool reset = false;                // pg_stat_statements_reset() inside the window: no rows
    std::optional<int64_t> evicted;    // entries evicted inside the window (pg_stat_statements.max): rows incomplete
    std::vector<StatementDelta> rows;
};

StatementsWindow statementsBetween(const StatementSnapshot& before, const StatementSnapshot& after);

class StatementStats {
public:
    // Connects. `createExtension`: run CREATE EXTENSION when the database lacks it (the embedded
    // server, which preloads the library); a user's server is only read. Never throws: a
    // server without pg_stat_statements makes an object whose snapshots say why (available()).
    StatementStats(const std::string& conninfo, bool createExtension, const std::vector<std::string>& ownStatements);
    ~StatementStats();
    bool available() const { return unavailable_.empty(); }
    const std::string& unavailable() const { return unavailable_; }
    const std::string& extensionVersion() const { return version_; }
    // `withText`: also the statements' text (the window's end). A failed read says why in the
    // snapshot's `unavailable`.
    StatementSnapshot read(bool withText);

private:
    struct CloseConnection {
        void operator()(pg_conn* c) const;
    };
    void prepare(bool createExtension, const std::vector<std::string>& ownStatements);
    bool ownText(const std::string& query) const;  // before PostgreSQL 14 (no identifier from EXPLAIN)
    std::unique_ptr<pg_conn, CloseConnection> conn_;
    std::string unavailable_, version_;
    std::string sqlWithText_, sqlWithoutText_, infoSql_;
    std::vector<int64_t> ownIds_;
    std::vector<std::string> ownPrefixes_;
};

} // namespace scalelab
