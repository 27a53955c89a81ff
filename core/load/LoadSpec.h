#pragma once
// One run of the load generator: what to run, against what, how long, and what comes out.
// Plain values: they cross threads (the GUI's bridge, the sweep runner) by copy.
#include "load/RunStatus.h"
#include "load/LatencyHistogram.h"
#include "load/RunSettings.h"
#include "load/data/PgbenchData.h"
#include "load/script/Workload.h"
#include "metrics/SystemSampler.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace scalelab {

// The settings (RunSettings.h: mode, engine, duration, tries, ...) and what varies per run.
struct LoadSpec : RunSettings {
    std::string conninfo;
    Workload workload;
    int clients = 1;
    int threads = 1;                   // capped at clients
    double rate = 0;                   // target transactions per second over all clients; 0: unthrottled
    int64_t scale = 1;                 // the :scale variable
    // pgbench's --random-seed: every random number of the run follows from it (empty: from the
    // clock); recorded in the result.
    std::optional<uint64_t> seed;
    // -l: pgbench's transaction log, one file per thread (PREFIX.PID, PREFIX.PID.THREAD).
    struct TransactionLog {
        std::string prefix = "pgbench_log";
        double samplingRate = 0;       // --sampling-rate: the share of transactions logged (0: all)
        int aggregateIntervalS = 0;    // --aggregate-interval: one line per interval instead
        int pid = 0;                   // in the file names (0: this process's)
    };
    std::optional<TransactionLog> log;
    // Called on each worker thread before it connects (CPU binding). An exception fails the run.
    std::function<void(int threadIndex)> onWorkerStart;

    // One share of a run spread over load hosts (docs/load-hosts.md):
    // the clients here are numbered from clientIdOffset (their :client_id and random streams
    // are those the same clients have in one process running all of them) ...
    int clientIdOffset = 0;
    int clientsInAll = 0;  // every host's clients together (0: this run's own)
    // ... the result and each sample carry their latency histogram, so that the coordinator
    // merges them bucket by bucket ...
    bool keepHistograms = false;
    // The result alone carries its counted window's histogram (a sweep stores it with the run:
    // latency distributions, docs/sweeps.md); the samples do not.
    bool keepRunHistogram = false;
    // ... and the clock starts when this returns: called on the run's thread once every client
    // is connected, it blocks until the moment all hosts agreed on. An exception fails the run
    // with its words.
    std::function<void()> beforeStart;
};

// Throws Error naming the field and the rule for anything out of range. The conninfo is not
// checked here (a command line validates its options before it knows the target).
void validate(const LoadSpec& spec);

// -r: one command of one script, over the counted window.
struct CommandReport {
    int script = 0, command = 0;
    std::string text;                  // pgbench's first line of the command
    uint64_t count = 0;                // executions that completed
    double meanMs = 0;                 // their mean latency (0 when none)
    uint64_t failures = 0, retries = 0;  // transactions that failed / were retried at this command
};

struct FailureCounts {
    uint64_t serialization = 0;  // SQLSTATE 40001, after the last try
    uint64_t deadlock = 0;       // 40P01, after the last try
    uint64_t other = 0;          // any other SQL error
    uint64_t total() const { return serialization + deadlock + other; }
};

// One script of a run with several weighted scripts, over the counted window: pgbench's
// "SQL script N" section, and TPROC-C's transactions (NOPM is new_order's transactions).
struct ScriptReport {
    std::string name;
    int weight = 0;
    uint64_t transactions = 0;         // committed
    FailureCounts failures;
    uint64_t retriedTransactions = 0, retries = 0;
    uint64_t skipped = 0;              // -R with -L: slots of this script skipped for lateness
    LatencySummary latency;            // of its committed transactions
    std::optional<HistogramData> histogram;  // with keepHistograms: load hosts' shares merge
    uint64_t ended() const { return transactions + failures.total() + skipped; }  // pgbench's script_total_cnt
};

// One interval of a run, handed to the observer as it ends.
struct LoadSample {
    double startS = 0, endS = 0;       // since the clock started (after all clients connected)
    bool warmup = false;               // ended before the warm-up did
    uint64_t transactions = 0;
    double tps = 0;
    LatencySummary latency;            // of the transactions that ended in the interval
    uint64_t failures = 0;
    uint64_t retries = 0;
    uint64_t skipped = 0;              // -R with -L
    std::optional<SystemSample> system;  // when the run has a SystemSampler
    std::optional<HistogramData> histogram;  // with LoadSpec::keepHistograms
    // Committed transactions of each script in the interval, in the workload's script order,
    // when it has several weighted scripts (not a replay); empty otherwise. TPROC-C's NOPM of
    // the interval comes from it (tpcc::sampleNewOrdersPerMinute).
    std::vector<uint64_t> scriptTransactions;
};


struct LoadResult {
    RunStatus status = RunStatus::Completed;
    std::string error;                 // why it failed, in the server's words where it has them
    int clients = 0, threads = 0;
    QueryMode mode = QueryMode::Simple;
    std::string workload;
    int64_t scale = 0;
    uint64_t seed = 0;
    double rate = 0;                   // the offered rate (tps over all clients, -R); 0: unthrottled
    double connectSeconds = 0;         // opening all connections, before the clock started
    double measuredSeconds = 0;        // the counted window (after warm-up)
    uint64_t transactions = 0;         // committed in the counted window
    double tps = 0;                    // transactions / measuredSeconds
    LatencySummary latency;
    FailureCounts failures;
    uint64_t retries = 0;              // extra tries of transactions (retried and then committed or failed)
    uint64_t retriedTransactions = 0;  // transactions that needed at least one retry
    std::string firstErrorMessage;     // of the first failed transaction, if any
    double lagMeanMs = 0, lagMaxMs = 0;// with a rate: start behind schedule, of committed transactions
    uint64_t skipped = 0;              // -R with -L: slots skipped because they were already too late
    uint64_t late = 0;                 // -L: committed transactions above the latency limit
    // Clients that stopped on an error, as pgbench aborts them (a non-retryable SQL error, a
    // script error, a lost connection, a script ending inside a transaction). The others went
    // on; the run's status is Failed and `error` says how many and the first one's words.
    int abortedClients = 0;
    std::string firstAbort;
    // --exit-on-abort ended the run at the first abort: the thread of that client (pgbench:
    // "Run was aborted due to an error in thread N", exit status 2, no results).
    std::optional<int> exitedOnAbort;
    std::vector<HousekeepingStep> housekeeping;  // what was done to the tables before the run
    std::vector<CommandReport> commands;         // -r
    std::vector<ScriptReport> scripts;           // a workload of several weighted scripts; empty otherwise
    std::string scriptSet;                       // the workload's Workload::scriptSet ("tprocc"), if any
    double keyingThinking = 0;                   // the workload's Workload::keyingThinking
    double connectionSecondsTotal = 0;           // -C: time spent connecting and disconnecting, all threads
    // The engine the clients' queries went through: "wire" or "libpq" ("wire+libpq" when some
    // connections could not use wire), and why libpq where it was chosen for them.
    std::string engine;
    std::string engineWhy;
    std::vector<LoadSample> samples;
    // From the end of the warm-up until every client had disconnected (so the server had
    // counted their last commits); when the run has a SystemSampler.
    std::optional<SystemSample> system;
    std::optional<HistogramData> histogram;  // of the counted window, with keepHistograms or keepRunHistogram
};

} // namespace scalelab
