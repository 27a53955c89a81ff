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
#include <memory>
#include <string>
#include <vector>

namespace scalelab {

struct Worker::Client {
    // A client's states, as pgbench.c names its own at its enum, and what moves each on (the
    // function that does it in brackets). Three stages of pgbench's (choose script, start
    // transaction, start command) are the top of advance(); its "end transaction" is
    // finishTransaction() or afterError().
    enum class Phase {
        // Before a transaction: the run may be over (-> Done), --rate picks the transaction's
        // scheduled start (-> Throttled until then, or its slot skipped under -L), -C opens a
        // new connection (-> Connecting), else the script is chosen (-> Exec) [advance].
        Start,
        // --rate: waiting for the scheduled start, on a timer; at it, or when the run stops
        // -> Start [run, the timers and the stop]. Also a terminal's keying and thinking time
        // before its next transaction (TPROC-C's, optional), the same way.
        Throttled,
        // libpq's non-blocking connect (-C, or the first connection of a late client); connected
        // -> Preparing in prepared mode, else -> Start; failed -> Done (aborted) [connectStep].
        Connecting,
        // Prepared mode after a new connection: its PREPAREs in one pipeline; at their sync
        // -> Start (a PREPARE that failed stays unprepared, as pgbench's) [connectStep].
        Preparing,
        // Running the script's commands: meta commands at once; \sleep -> Sleeping; an SQL
        // command sent -> Waiting (in a pipeline it stays Exec: results are read at
        // \endpipeline -> Draining); the script's end -> Start [advance, runMeta].
        Exec,
        // \sleep, on a timer -> Exec [run].
        Sleeping,
        // An SQL command's results. Success -> Exec, the next command [commandDone]. An error
        // inside a transaction -> RollingBack. A serialization or deadlock failure outside one
        // goes to afterError: retried (-> Exec from the first command, the same random values)
        // while tries, the latency limit and the run allow, else counted as failed (-> Start).
        // Any other SQL error aborts the client (-> Done) unless --continue-on-error, where it
        // is handled as a failure past its last try. A lost connection -> Done (aborted).
        Waiting,
        // \endpipeline: every result up to the pipeline's syncs; at the last one -> Waiting's
        // end as above, with the first error of the pipeline [processResults].
        Draining,
        // The ROLLBACK of a failed transaction; its end -> afterError as above [commandDone].
        RollingBack,
        // No more transactions: the run is over, its count is done, or it aborted [markDone].
        Done,
    };
    // Whether the client reads a command's results now (Waiting, Draining, RollingBack).
    static bool awaitsResults(Phase p) { return p == Phase::Waiting || p == Phase::Draining || p == Phase::RollingBack; }
    // What stays a flag is not a state: `scheduled` (a transaction's start is chosen: set in
    // Start, kept through Throttled), `entering` (Exec reached this \elif/\else/\endif from a
    // false condition), `needFlush`/`watchingWrite` (output not yet written, and whether epoll
    // watches for it, in any state), `pending`/`gsetPending` (a \gset result kept until it
    // proves the last).
    // Fields in order of size, so that the struct has few holes: memory per client counts at
    // 1,000 clients (docs/load-engines.md).
    PGconn* conn = nullptr;
    size_t command = 0;
    int64_t commandStartNs = 0; // -r
    size_t sleepingCommand = 0; // -r: the \sleep being slept
    int64_t txStartNs = 0;
    int64_t scheduledNs = 0;
    int64_t lagNs = 0;          // with a rate: how late this transaction started
    int64_t transactionsDone = 0;
    int64_t connectStartNs = 0; // -C
    int64_t thinkNs = 0;        // keying and thinking times: the think time the last transaction left
    PGresult* pending = nullptr;  // \gset: the latest result, stored when it proves the last
    Random rng;                 // pgbench's cs_func_rs: the script functions' random numbers
    Random::State rngAtStart{};
    uint64_t replayPos = 0, replayStride = 1, replayOffset = 0;
    VariableValues vars;
    size_t outSent = 0;         // wire: of Seldom::out
    int id = 0;
    Phase phase = Phase::Start;
    int script = 0;
    int tries = 0;
    int syncs = 0;              // pipeline syncs sent and not yet read back
    int query = 0;              // results read for the current command
    int errorQuery = 0;         // which of them failed
    int fd = -1;                // wire: the connection's socket
    int rows = 0;               // wire: the result being read has this many rows ...
    int pendingRows = 0;
    char sqlstate[6] = {0};     // of the failed command, "" when none
    bool entering = false;      // jumped to this \elif/\else/\endif from a false condition
    bool scheduled = false;
    bool keyed = false;         // keying and thinking times: waited, the transaction starts next
    bool needFlush = false;
    bool watchingWrite = false; // EPOLLOUT is in its epoll registration
    // The wire engine (WorkerWire.cpp): after connecting, ScaleLab speaks on the socket itself.
    bool wire = false;
    bool utf8 = true;           // client_encoding UTF8: error positions count UTF-8 characters
    char txStatus = 'I';        // the last ReadyForQuery's: I, T or E
    bool busy = false;          // a query sent, its ReadyForQuery not yet read
    bool closed = false;        // the socket broke or the server closed it
    bool tuples = false;        // ... if it has rows at all ('T' or 'D' seen)
    bool gsetPending = false;   // \gset: the last complete result, stored at ReadyForQuery

    // What a client seldom needs, behind one pointer: made on first use (an error, a notice, a
    // failed prepare, a stored result, a read or send left incomplete) and kept while the
    // client lives. A steady select-only or tpcb-like client never makes it.
    struct Seldom {
        std::string errorMessage;  // the server's words for the failure (error path only)
        std::string prepareError;  // prepared mode: why preparing a statement failed
        std::string lastNotice;    // the server's last notice: its words when it ends the session
        std::string closedWhy;     // wire: libpq's words for a broken or closed socket
        std::string asetSql;       // simple mode, wire: a command with \aset as sent (its error's cursor)
        std::string out;           // wire: messages the socket did not take yet, from outSent on
        std::string unread;        // wire: the start of a message its last read did not complete
        std::vector<std::string> columns, values;  // wire: the columns and the last row read (\gset, \aset)
    };
    std::unique_ptr<Seldom> seldomPart;
    Seldom& seldom() {
        if (!seldomPart) seldomPart = std::make_unique<Seldom>();
        return *seldomPart;
    }
    // Reads a field without making the part: "" when never set.
    const std::string& said(std::string Seldom::*field) const {
        static const std::string none;
        return seldomPart ? (*seldomPart).*field : none;
    }
    // libpq would print notices on stderr; a worker never logs. Keep the last one instead: when
    // the server terminates an idle session, its reason arrives this way. (The argument is the
    // client: a notice may allocate; a steady transaction has none.)
    static void keepNotice(void* client, const char* message) {
        static_cast<Client*>(client)->seldom().lastNotice.assign(message);
    }
};

namespace worker_detail {

// libpq's messages end in a newline; ours are one line.
inline std::string chomp(std::string msg) {
    while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
    return msg;
}

} // namespace worker_detail
} // namespace scalelab
