#pragma once
// Inside the load generator only (the Worker*.cpp files): a client's state and two helpers.
// Worker's member functions are split by concern: Worker.cpp (set-up, the event loop, a
// client's state machine), WorkerConnect.cpp (connections, prepared statements),
// WorkerMeta.cpp (meta commands), WorkerResults.cpp (sending commands, reading results,
// errors and retries), WorkerLog.cpp (-l transaction logs).
#include "load/worker/Worker.h"
#include "load/worker/WireProtocol.h"

#include <libpq-fe.h>

#include <cstring>
#include <string>

namespace scalelab {

struct Worker::Client {
    enum class Phase { Start, Throttled, Connecting, Exec, Sleeping, Waiting, Done };
    int id = 0;
    PGconn* conn = nullptr;
    Phase phase = Phase::Start;
    int script = 0;
    size_t command = 0;
    bool entering = false;      // jumped to this \elif/\else/\endif from a false condition
    int64_t commandStartNs = 0; // -r
    size_t sleepingCommand = 0; // -r: the \sleep being slept
    int64_t txStartNs = 0;
    bool scheduled = false;
    int64_t scheduledNs = 0;
    int64_t lagNs = 0;          // with a rate: how late this transaction started
    int64_t transactionsDone = 0;
    int tries = 0;
    bool needFlush = false;
    bool watchingWrite = false; // EPOLLOUT is in its epoll registration
    bool preparing = false;     // -C, prepared mode: the new connection's statements in flight
    int64_t connectStartNs = 0; // -C
    bool rollingBack = false;
    bool draining = false;      // \endpipeline: reading the pipeline's results up to its syncs
    int syncs = 0;              // pipeline syncs sent and not yet read back
    int query = 0;              // results read for the current command
    int errorQuery = 0;         // which of them failed
    PGresult* pending = nullptr;  // \gset: the latest result, stored when it proves the last
    char sqlstate[6] = {0};     // of the failed command, "" when none
    std::string errorMessage;   // the server's words for that failure (error path only)
    std::string prepareError;   // prepared mode: why preparing a statement failed
    Random rng;                 // pgbench's cs_func_rs: the script functions' random numbers
    Random::State rngAtStart{};
    uint64_t replayPos = 0, replayStride = 1, replayOffset = 0;
    VariableValues vars;
    std::vector<const char*> paramPtrs;
    std::string sql;            // simple mode: the command with values substituted
    std::string lastNotice;     // the server's last notice: its words when it ends the session (empty: none yet)
    // The wire engine (WorkerWire.cpp): after connecting, ScaleLab speaks on the socket itself.
    bool wire = false;
    int fd = -1;
    bool utf8 = true;           // client_encoding UTF8: error positions count UTF-8 characters
    char txStatus = 'I';        // the last ReadyForQuery's: I, T or E
    bool busy = false;          // a query sent, its ReadyForQuery not yet read
    bool closed = false;        // the socket broke or the server closed it
    std::string closedWhy;      // libpq's words for that
    std::string out;            // messages not yet written, from outSent on
    size_t outSent = 0;
    wire::InBuffer in;
    bool tuples = false;        // the result being read has rows ('T' or 'D' seen) ...
    int rows = 0;               // ... this many
    bool gsetPending = false;   // \gset: the last complete result, stored at ReadyForQuery
    int pendingRows = 0;
    std::vector<std::string> columns, values;  // the columns and the last row read (\gset, \aset)
};

namespace worker_detail {

// libpq's messages end in a newline; ours are one line.
inline std::string chomp(std::string msg) {
    while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
    return msg;
}

// libpq would print notices on stderr; a worker never logs. Keep the last one instead: when
// the server terminates an idle session, its reason arrives this way.
inline void keepNotice(void* arg, const char* message) {
    static_cast<std::string*>(arg)->assign(message);  // a notice may allocate; a steady transaction has none
}

} // namespace worker_detail
} // namespace scalelab
