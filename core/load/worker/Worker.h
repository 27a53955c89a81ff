#pragma once
// Internal to core/load: one worker thread and the state it shares with the run.
#include "load/LatencyHistogram.h"
#include "load/LoadSpec.h"
#include "load/script/Random.h"
#include "load/worker/WireProtocol.h"
#include "util/Clock.h"

#include <libpq-fe.h>
#include <sys/epoll.h>

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace scalelab {

// What one worker counts in one phase (warm-up or measured). One writer (the worker),
// read by the sampler at any time: relaxed atomics written with plain load + store.
struct PhaseCounters {
    LiveLatencyHistogram latency;
    std::atomic<uint64_t> serializationFailures{0}, deadlockFailures{0}, otherFailures{0};
    std::atomic<uint64_t> retries{0}, retriedTransactions{0};
    std::atomic<uint64_t> lagCount{0}, lagSumNs{0}, lagMaxNs{0};
    std::atomic<uint64_t> skipped{0};      // -R with -L: slots too late to start
    std::atomic<uint64_t> late{0};         // -L: committed above the latency limit

    static void bump(std::atomic<uint64_t>& a, uint64_t by = 1) {
        a.store(a.load(std::memory_order_relaxed) + by, std::memory_order_relaxed);
    }
};

// Set up by LoadRun, read by every worker.
struct RunShared {
    enum Stop : int { kRunning = 0, kFinishInFlight = 1, kAbandon = 2 };

    std::mutex mutex;                 // setup, failure reporting, never the hot path
    std::condition_variable changed;
    int workersReady = 0;
    bool go = false;
    std::string failure;              // first fatal error of the run
    std::atomic<bool> failed{false};

    std::atomic<int> stop{kRunning};
    std::atomic<bool> stoppedByUser{false};
    std::atomic<int> workersFinished{0};
    int64_t startNs = 0, measureStartNs = 0, deadlineNs = INT64_MAX;  // written before go

    std::vector<int> wakeFds;         // one eventfd per worker

    std::atomic<int> abortedClients{0};
    std::string firstAbort;           // under mutex: the first client's abort, in pgbench's words
    bool exitOnAbort = false;         // written before go: the first abort ends the run
    int exitedOnAbort = -1;           // under mutex: the thread whose client ended it

    void wakeAll();
    void fail(const std::string& why); // records the first failure and abandons the run
    // One client stops; the others go on (pgbench), unless exitOnAbort: then the run stops at once.
    void clientAborted(const std::string& why, int thread);
};

class Worker {
public:
    Worker(int index, const LoadSpec& spec, int firstClient, int clientCount, RunShared& shared);
    ~Worker();
    Worker(const Worker&) = delete;
    Worker& operator=(const Worker&) = delete;

    void run();  // the thread body

    const PhaseCounters& warmup() const { return phases_[0]; }
    const PhaseCounters& measured() const { return phases_[1]; }
    // Read after the thread has been joined.
    const std::string& firstFailureMessage() const { return firstFailureMessage_; }
    int64_t finishedNs() const { return finishedNs_; }
    // When this worker last saw something end after the run's deadline (0: never): a timed run
    // that counted nothing but whose transactions ended after it did measure something.
    int64_t lastEndAfterDeadlineNs() const { return lastEndAfterDeadlineNs_; }
    // -r: per [script][command], counted in the measured window; read after the join.
    struct CommandStats {
        uint64_t count = 0;
        int64_t sumNs = 0;
        uint64_t failures = 0, retries = 0;
    };
    const std::vector<std::vector<CommandStats>>& commandStats() const { return commandStats_; }
    // Per script over the measured window, when the workload has several weighted scripts
    // (pgbench's per-script section; TPROC-C's transactions); read after the join.
    struct ScriptStats {
        LatencyHistogram latency;   // committed transactions
        FailureCounts failures;
        uint64_t retriedTransactions = 0, retries = 0, skipped = 0;
    };
    const std::vector<ScriptStats>& scriptStats() const { return scriptStats_; }
    // Committed transactions of script `i` so far, warm-up included, when scriptStats() is not
    // empty: read by the sampler at any time (the live per-script figures, TPROC-C's NOPM).
    uint64_t committedOfScript(size_t i) const { return scriptCommits_[i].load(std::memory_order_relaxed); }
    int64_t connectionNs() const { return connectionNs_; }  // -C: connecting and disconnecting
    // Connections that used the wire engine and libpq, and why libpq (read after the join).
    int wireConnections() const { return wireConnections_; }
    int libpqConnections() const { return libpqConnections_; }
    const std::string& libpqWhy() const { return libpqWhy_; }

private:
    struct Client;
    bool connectAll();
    // Connections a worker has in flight at once before the run (connectAll says why a window).
    static constexpr size_t kConnectingAtOnce = 16;
    bool prepareAll();
    struct Statement {
        size_t script, command;
    };
    std::vector<Statement> sqlStatements() const;
    std::vector<Statement> statements_;  // sqlStatements(), once: -C prepares them per connection
    bool queuePrepares(PGconn* conn, const std::vector<Statement>& which);
    void loop();
    void advance(Client& c);
    bool runMeta(Client& c, const Command& cmd, bool entering);
    bool runShell(Client& c, const Command& cmd);
    bool send(Client& c, const Command& cmd, int scriptIndex, int commandIndex);
    void onReadable(Client& c);
    void processResults(Client& c);
    void watch(Client& c);                       // the connection's socket into the epoll set
    void watchFor(Client& c, uint32_t events);
    void setNeedFlush(Client& c, bool need);     // and EPOLLOUT with it
    void wakeAt(Client& c, int64_t when, bool throttled);  // Sleeping or Throttled until `when`
    void markDone(Client& c);
    void nextTransactionLater(Client& c);        // pgbench: other clients get a turn between transactions
    bool storeResult(Client& c, const PGresult* r, int query, bool last);
    bool storeWireResult(Client& c, int query, bool last, int rows);
    template <class NameAt, class ValueAt>
    bool storeRow(Client& c, int query, bool gset, int rows, int fields, NameAt nameAt, ValueAt valueAt);
    // The wire engine (WorkerWire.cpp): the protocol spoken on the socket libpq connected.
    bool wireWanted(PGconn* conn, std::string& why) const;  // false: libpq, and why
    void startWire(Client& c);          // after connecting (and preparing): the engine decided
    void queueWire(Client& c, const Command& cmd, int scriptIndex, int commandIndex);
    void substitute(Client& c, const SqlCommand& sql);  // paramPtrs_ and, in simple mode, sql_
    int sendWire(Client& c);            // out_ to the socket: 0 all written, 1 the rest waits with the client, -1 broken
    int flushWire(Client& c);           // the rest the client keeps, the same way
    int writeWire(Client& c, const char* data, size_t size, size_t& sent);
    void wireReadable(Client& c);       // read what arrived and act on it
    void processWire(Client& c);
    // Either engine: the connection's state as libpq's functions say it.
    PGTransactionStatusType txStatus(const Client& c) const;
    bool connectionBroken(const Client& c) const;
    std::string connectionError(const Client& c) const;
    bool sendRollback(Client& c);
    void commandDone(Client& c);
    void afterError(Client& c);
    void finishTransaction(Client& c, int64_t now);
    void lose(Client& c, const std::string& what);
    void abortClient(Client& c, const std::string& why);
    // --debug: one line on stderr, "scalelab: " and the text, as pgbench 15's pg_log_debug.
    static void debugLine(const char* format, ...) __attribute__((format(printf, 1, 2)));
    static std::string debugWords(const Command& cmd);
    void abortInCommand(Client& c, const char* what, const std::string& why);
    void commandEnded(const Client& c, size_t command, int64_t now);
    void startConnect(Client& c);             // -C: non-blocking, driven by the event loop
    void connectStep(Client& c);
    void connectFailed(Client& c, const std::string& why);
    void disconnect(Client& c);
    void openLog();
    void logTransaction(const Client& c, int64_t nowNs, int64_t latencyNs, const char* outcome);
    void writeAggregates(int64_t nowUs);
    PhaseCounters* phaseAt(int64_t now);
    int chooseScript(Client& c);
    void chooseScriptFor(Client& c);  // c.script, and --debug's line
    void cancelAndClose();

    int index_;
    const LoadSpec& spec_;
    RunShared& shared_;
    std::vector<Client> clients_;
    std::array<PhaseCounters, 2> phases_;
    std::vector<std::vector<std::string>> statementNames_;  // prepared mode: [script][command]
    std::vector<int> cumulativeWeights_;
    Random chooseRng_, scheduleRng_;  // pgbench's per-thread ts_choose_rs and ts_throttle_rs
    // Keying and thinking times (Script::keyingS, thinkMeanS) per script, in ns; the think
    // times' own generator, so that the scripts' random values stay those of a run without them.
    std::vector<int64_t> keyingNs_, thinkMeanNs_;
    bool terminalTimes_ = false;
    Random thinkRng_;
    int64_t thinkTime(int script);  // drawn: negative exponential, truncated at 10 means
    int64_t nextScheduleNs_ = 0;
    double meanScheduleGapUs_ = 0;
    int64_t latencyLimitNs_ = 0;
    std::string firstFailureMessage_;
    int64_t finishedNs_ = 0;
    int64_t lastEndAfterDeadlineNs_ = 0;
    std::vector<std::vector<CommandStats>> commandStats_;
    std::vector<ScriptStats> scriptStats_;  // empty: one script, or a replay
    std::unique_ptr<std::atomic<uint64_t>[]> scriptCommits_;  // one per script with scriptStats_; single writer
    ScriptStats* measuredScript(const Client& c, PhaseCounters* phase);  // null outside the measured window
    int64_t connectionNs_ = 0;
    bool scriptsPipeline_ = false;       // some script has \startpipeline: the libpq engine
    int wireConnections_ = 0, libpqConnections_ = 0;
    std::string libpqWhy_;
    // The event loop: an epoll set of the clients' sockets (and the run's wake-up eventfd), a
    // min-heap of timers (sleeps, throttling), and the clients due a turn. All sized before the
    // run: nothing allocates while it runs.
    int epollFd_ = -1;
    std::vector<struct epoll_event> events_;
    struct Timer {
        int64_t at;
        Client* client;
    };
    std::vector<Timer> timers_;
    std::vector<Client*> ready_, readyNext_;
    int doneClients_ = 0;
    // Per thread, not per client (memory per client counts at 1,000 clients): a command is built
    // here and sent at once; a client keeps only what its socket did not take, and what a read
    // left of a message not yet complete.
    std::vector<const char*> paramPtrs_;  // the command's parameters as text (nullptr: NULL)
    std::string sql_;                     // simple mode: the command with the values substituted
    std::string out_;                     // the wire engine's messages for it
    wire::InBuffer in_;                   // the wire engine's reads, every client's in turn
    // -l
    FILE* log_ = nullptr;
    Random sampleRng_;                // pgbench's ts_sample_rs
    int64_t epochShiftNs_ = 0;        // wall clock minus monotonic clock
    struct Aggregate {                // pgbench's StatsData for --aggregate-interval
        int64_t startUs = 0;
        uint64_t count = 0, skipped = 0, retried = 0, retries = 0, serialization = 0, deadlock = 0, other = 0;
        double sum = 0, sum2 = 0, min = 0, max = 0, lagSum = 0, lagSum2 = 0, lagMin = 0, lagMax = 0;
    } agg_;
};

} // namespace scalelab
