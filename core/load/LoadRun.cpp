#include "load/LoadRun.h"

#include "load/worker/Worker.h"
#include "util/Clock.h"
#include "util/Error.h"
#include "util/Format.h"

#include <sys/eventfd.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <thread>

namespace scalelab {
namespace {

constexpr int64_t kAbandonAfterNs = 5'000'000'000;  // in-flight transactions get 5 s to end after a stop

double seconds(int64_t ns) { return static_cast<double>(ns) / 1e9; }

struct Totals {
    LatencyHistogram latency;
    FailureCounts failures;
    uint64_t retries = 0, retriedTransactions = 0, lagCount = 0, lagSumNs = 0, lagMaxNs = 0, skipped = 0, late = 0;

    void add(const PhaseCounters& p) {
        latency.merge(p.latency.snapshot());
        failures.serialization += p.serializationFailures.load(std::memory_order_relaxed);
        failures.deadlock += p.deadlockFailures.load(std::memory_order_relaxed);
        failures.other += p.otherFailures.load(std::memory_order_relaxed);
        retries += p.retries.load(std::memory_order_relaxed);
        retriedTransactions += p.retriedTransactions.load(std::memory_order_relaxed);
        lagCount += p.lagCount.load(std::memory_order_relaxed);
        lagSumNs += p.lagSumNs.load(std::memory_order_relaxed);
        lagMaxNs = std::max(lagMaxNs, p.lagMaxNs.load(std::memory_order_relaxed));
        skipped += p.skipped.load(std::memory_order_relaxed);
        late += p.late.load(std::memory_order_relaxed);
    }
};

// Failed transactions as a share of all that ended (committed or failed); 0 when none ended.
double failedPercent(const LoadResult& r) {
    uint64_t ended = r.transactions + r.failures.total();
    return ended ? 100.0 * static_cast<double>(r.failures.total()) / static_cast<double>(ended) : 0;
}

// Per script, summed over the workers (each kept its own, single-writer); none for one script.
std::vector<ScriptReport> scriptReports(const LoadSpec& spec, const std::vector<std::unique_ptr<Worker>>& workers) {
    std::vector<ScriptReport> out;
    if (workers.empty() || workers.front()->scriptStats().empty()) return out;
    for (size_t si = 0; si < spec.workload.scripts.size(); ++si) {
        ScriptReport r;
        r.name = spec.workload.scripts[si].name;
        r.weight = spec.workload.scripts[si].weight;
        LatencyHistogram latency;
        for (const auto& w : workers) {
            const Worker::ScriptStats& s = w->scriptStats()[si];
            latency.merge(s.latency);
            r.failures.serialization += s.failures.serialization;
            r.failures.deadlock += s.failures.deadlock;
            r.failures.other += s.failures.other;
            r.retriedTransactions += s.retriedTransactions;
            r.retries += s.retries;
            r.skipped += s.skipped;
        }
        r.transactions = latency.count();
        r.latency = latency.summary();
        if (spec.keepHistograms) r.histogram = latency.data();
        out.push_back(std::move(r));
    }
    return out;
}

// Committed transactions per script so far, summed over the workers; empty without per-script counts.
std::vector<uint64_t> scriptCommits(const LoadSpec& spec, const std::vector<std::unique_ptr<Worker>>& workers) {
    std::vector<uint64_t> out;
    if (workers.empty() || workers.front()->scriptStats().empty()) return out;
    out.assign(spec.workload.scripts.size(), 0);
    for (const auto& w : workers)
        for (size_t i = 0; i < out.size(); ++i) out[i] += w->committedOfScript(i);
    return out;
}

Totals everything(const std::vector<std::unique_ptr<Worker>>& workers) {
    Totals t;
    for (const auto& w : workers) {
        t.add(w->warmup());
        t.add(w->measured());
    }
    return t;
}

// System snapshots at the sample instants: interval samples, and the counted window.
class MetricsTimeline {
public:
    explicit MetricsTimeline(SystemSampler* sampler) : sampler_(sampler) {}
    void start() {
        if (!take(previous_)) return;
        sampler_->addStatements(*previous_, false);
        windowStart_ = previous_;
        sampler_->startWaits();
        sampler_->startProfile();
    }
    // At a sample boundary. `endsWarmup`: the interval began in the warm-up and ends after it,
    // so the counted window starts here (with no warm-up it starts at the first snapshot).
    // `atDeadline`: the first boundary at a timed run's end, where the counted window ends.
    std::optional<SystemSample> interval(bool endsWarmup, bool atDeadline) {
        std::optional<SystemSnapshot> now;
        if (!previous_ || !take(now)) return std::nullopt;
        SystemSample s = sampler_->between(*previous_, *now);
        if (endsWarmup) {
            sampler_->addStatements(*now, false);
            windowStart_ = now;
            sampler_->startWaits();  // again: the counted window starts here
            sampler_->startProfile();
        }
        if (atDeadline) {
            windowEnd_ = now;
            waits_ = sampler_->stopWaits();
            profile_ = sampler_->stopProfile();
        }
        previous_ = now;
        return s;
    }
    // The counted window. A timed run's ends at its deadline, as tps's does: CPU, disks and
    // pressure from the snapshot there, and every rate per second of that span. The server's
    // counters come from a snapshot after the load's sessions left (a backend reports its last
    // commits when it exits), so their deltas also hold the transactions in flight at the end;
    // without a deadline (-t) the window ends there too, as the run does. pg_stat_statements
    // is read with the counters, at the same edges.
    std::optional<SystemSample> window() {
        if (!windowStart_) return std::nullopt;
        // Without a deadline (-t) the waits' window ends here, as the run does.
        if (!windowEnd_ && sampler_) {
            waits_ = sampler_->stopWaits();
            profile_ = sampler_->stopProfile();
        }
        if (broken_) return std::nullopt;
        try {
            SystemSnapshot last = sampler_->finalSnapshot(5000);
            sampler_->addStatements(last, true);
            if (windowEnd_) {
                std::optional<ServerCounterSnapshot> counters = last.counters;
                std::optional<StatementSnapshot> statements = last.statements;
                last = *windowEnd_;
                last.counters = counters;
                last.statements = statements;
            }
            SystemSample w = sampler_->between(*windowStart_, last);
            w.slowestReadingMs = std::max(w.slowestReadingMs, slowestMs_);
            w.waits = waits_;
            w.cpuProfile = profile_;
            return w;
        } catch (const std::exception&) {
            return std::nullopt;
        }
    }

private:
    // A metrics source that fails (the server went away) ends metrics, not the run.
    bool take(std::optional<SystemSnapshot>& into) {
        if (!sampler_ || broken_) return false;
        try {
            into = sampler_->snapshot();
            slowestMs_ = std::max(slowestMs_, into->readMs);
            return true;
        } catch (const std::exception&) {
            broken_ = true;
            return false;
        }
    }
    SystemSampler* sampler_;
    bool broken_ = false;
    double slowestMs_ = 0;  // the slowest reading of the machine so far
    std::optional<SystemSnapshot> previous_, windowStart_, windowEnd_;
    std::optional<WaitProfile> waits_;  // the counted window's, once it ended
    std::optional<CpuProfile> profile_;  // likewise
};

} // namespace

void validate(const LoadSpec& s) {
    auto bad = [](const std::string& msg) { throw Error(msg); };
    if (s.workload.scripts.empty()) bad("no workload: choose a built-in script (-b), a script file (-f) or a replay file");
    if (s.clients < 1) bad("clients must be at least 1 (got " + std::to_string(s.clients) + ")");
    if (s.threads < 1) bad("threads must be at least 1 (got " + std::to_string(s.threads) + ")");
    if (s.clientIdOffset < 0) bad("the first client's number must not be negative (got " + std::to_string(s.clientIdOffset) + ")");
    if (s.clientsInAll != 0 && s.clientsInAll < s.clientIdOffset + s.clients)
        bad("clients in all hosts (" + std::to_string(s.clientsInAll) + ") must cover this host's clients " +
            std::to_string(s.clientIdOffset) + ".." + std::to_string(s.clientIdOffset + s.clients - 1));
    checkRunSettingBounds(s);  // each setting's own bounds, from its row (RunSettings.cpp)
    bool timed = s.durationS > 0, counted = s.transactionsPerClient > 0;
    if (timed == counted) bad("give either a duration (-T) or a number of transactions per client (-t), not both or neither");
    if (s.warmupS > 0 && !timed) bad("a warm-up needs a timed run (-T): with -t every transaction counts");
    if (timed && s.warmupS >= s.durationS) bad("warm-up (" + std::to_string(s.warmupS) + " s) must be shorter than the duration");
    if (s.rate < 0) bad("rate must not be negative");
    if (!std::isfinite(s.rate)) bad("rate must be a finite number of transactions per second");
    if (s.maxTries == 0 && s.latencyLimitMs == 0 && !timed)  // pgbench's words
        bad("an unlimited number of transaction tries can only be used with --latency-limit or a duration (-T)");
    if (s.scale < 1) bad("scale must be at least 1");
    for (const auto& script : s.workload.scripts)
        if (s.rate > 0 && (script.keyingS > 0 || script.thinkMeanS > 0))
            bad("keying and thinking times pace each client themselves: drop the rate (-R), or the times");
    if (s.workload.replay && s.mode == QueryMode::Prepared)
        bad("a replay file runs in simple or extended query mode: its statements carry their own values");
    if (s.log) {  // pgbench's words
        const auto& l = *s.log;
        if (l.samplingRate < 0 || l.samplingRate > 1) bad("invalid sampling rate: " + std::to_string(l.samplingRate));
        if (l.aggregateIntervalS < 0) bad("invalid number of seconds for aggregation: " + std::to_string(l.aggregateIntervalS));
        if (l.samplingRate > 0 && l.aggregateIntervalS > 0)
            bad("log sampling (--sampling-rate) and aggregation (--aggregate-interval) cannot be used at the same time");
        int duration = static_cast<int>(s.durationS);
        if (duration > 0 && l.aggregateIntervalS > duration)
            bad("number of seconds for aggregation (" + std::to_string(l.aggregateIntervalS) +
                ") must not be higher than test duration (" + std::to_string(duration) + ")");
        if (duration > 0 && l.aggregateIntervalS > 0 && duration % l.aggregateIntervalS != 0)
            bad("duration (" + std::to_string(duration) + ") must be a multiple of aggregation interval (" +
                std::to_string(l.aggregateIntervalS) + ")");
        if (l.prefix.empty()) bad("the log file prefix must not be empty");
    }
}

void ensureFileDescriptors(int clients) {
    rlimit lim{};
    if (getrlimit(RLIMIT_NOFILE, &lim) != 0) return;
    rlim_t needed = static_cast<rlim_t>(clients) + 64;  // sockets plus the process's own files
    if (lim.rlim_cur >= needed) return;
    if (lim.rlim_max != RLIM_INFINITY && lim.rlim_max < needed)
        throw Error(std::to_string(clients) + " clients need about " + std::to_string(needed) +
                    " open files, but the hard limit is " + std::to_string(lim.rlim_max) +
                    " (ulimit -Hn); raise it or use fewer clients");
    lim.rlim_cur = needed;
    if (setrlimit(RLIMIT_NOFILE, &lim) != 0) throw Error("cannot raise the open-file limit to " + std::to_string(needed));
}

LoadRun::LoadRun(LoadSpec spec, std::function<void(const LoadSample&)> observer, SystemSampler* metrics)
    : spec_(std::move(spec)), observer_(std::move(observer)), metrics_(metrics), shared_(std::make_shared<RunShared>()) {}

LoadRun::~LoadRun() {
    for (int fd : shared_->wakeFds) close(fd);
}

void LoadRun::requestStop(bool finishInFlight) {
    shared_->stoppedByUser.store(true);
    int want = finishInFlight ? RunShared::kFinishInFlight : RunShared::kAbandon;
    int cur = shared_->stop.load();
    while (cur < want && !shared_->stop.compare_exchange_weak(cur, want)) {}
    shared_->changed.notify_all();
    shared_->wakeAll();
}

LoadResult LoadRun::run() {
    validate(spec_);
    if (spec_.conninfo.empty()) throw Error("no connection string for the target server");
    ensureFileDescriptors(spec_.clients);
    if (!spec_.seed) spec_.seed = static_cast<uint64_t>(monotonicNs() / 1000);  // pgbench's "time"
    if (const char* forced = std::getenv("SCALELAB_ENGINE"); forced && *forced && spec_.engine == LoadEngine::Auto) {
        // The suite runs the load tests on both engines this way (tests/db/CMakeLists.txt).
        auto engine = loadEngineFromName(forced);
        if (!engine) throw Error(std::string("SCALELAB_ENGINE=") + forced + ": not an engine (auto, wire or libpq)");
        spec_.engine = *engine;
    }
    for (const auto& s : spec_.workload.scripts)
        for (const auto& c : s.commands)
            if (spec_.mode != QueryMode::Simple && c.sql.vars.size() > 255)
                throw ScriptError(s.name + ":" + std::to_string(c.line) + ":1: statement has too many arguments (maximum is 255): " +
                                  c.sql.text);
    RunShared& sh = *shared_;
    sh.exitOnAbort = spec_.exitOnAbort;
    int threads = std::min(spec_.threads, spec_.clients);
    for (int t = 0; t < threads; ++t) {
        int fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
        if (fd < 0) throw Error("cannot create an eventfd for worker " + std::to_string(t));
        sh.wakeFds.push_back(fd);
    }

    LoadResult result;
    // pgbench's housekeeping, before any client connects: it is not part of the measurement.
    try {
        result.housekeeping = prepareForRun(spec_.conninfo, spec_.vacuum);
    } catch (const Error& e) {
        result.housekeeping.push_back({"connect", e.what()});  // the clients' connects will say more
    }
    result.clients = spec_.clients;
    result.threads = threads;
    result.mode = spec_.mode;
    result.workload = spec_.workload.describe();
    result.scriptSet = spec_.workload.scriptSet;
    result.keyingThinking = spec_.workload.keyingThinking;
    result.scale = spec_.scale;
    result.seed = *spec_.seed;
    result.rate = spec_.rate;

    // Contiguous blocks of clients whose sizes differ by at most one, the larger first (pgbench).
    std::vector<std::unique_ptr<Worker>> workers;
    for (int t = 0, first = 0; t < threads; ++t) {
        int count = (spec_.clients - first + threads - t - 1) / (threads - t);
        workers.push_back(std::make_unique<Worker>(t, spec_, first, count, sh));
        first += count;
    }
    int64_t connectStart = monotonicNs();
    std::vector<std::thread> running;
    for (auto& w : workers) running.emplace_back([&w] { w->run(); });

    MetricsTimeline metrics(metrics_);
    int64_t connectedNs = 0;  // with beforeStart: the connect time does not include the wait for the start
    if (spec_.beforeStart) {
        // A load host's share: connected, it waits for the moment every host agreed on.
        bool ready;
        {
            std::unique_lock<std::mutex> lock(sh.mutex);
            sh.changed.wait(lock, [&] { return sh.workersReady == threads || sh.failed; });
            ready = !sh.failed;
        }
        connectedNs = monotonicNs();
        if (ready) {
            try {
                spec_.beforeStart();
            } catch (const std::exception& e) {
                sh.fail(e.what());
            }
        }
    }
    {
        std::unique_lock<std::mutex> lock(sh.mutex);
        sh.changed.wait(lock, [&] { return sh.workersReady == threads || sh.failed; });
        if (!sh.failed && sh.stop.load() != RunShared::kAbandon) {
            // Before any worker may start: the first snapshot must precede the first transaction.
            metrics.start();
            sh.startNs = monotonicNs();
            sh.measureStartNs = sh.startNs + static_cast<int64_t>(spec_.warmupS * 1e9);
            if (spec_.durationS > 0) sh.deadlineNs = sh.startNs + static_cast<int64_t>(spec_.durationS * 1e9);
            sh.go = true;
        }
        result.connectSeconds = seconds((connectedNs ? connectedNs : monotonicNs()) - connectStart);
    }
    sh.changed.notify_all();

    // Sample each interval until every worker has finished.
    if (sh.go) {
        const int64_t interval = static_cast<int64_t>(spec_.sampleIntervalS * 1e9);
        int64_t sampleStart = sh.startNs;
        Totals previous;
        // From zero, as `previous`: a commit before the first read belongs to the first sample.
        std::vector<uint64_t> previousScripts(scriptCommits(spec_, workers).size(), 0);
        int64_t stopSeenNs = 0;
        bool deadlineSeen = false;
        for (bool last = false; !last;) {
            int64_t sampleEnd = sampleStart + interval;
            // A timed run's counted window ends at the deadline: wake there, not after it.
            if (!deadlineSeen && sampleStart < sh.deadlineNs && sampleEnd > sh.deadlineNs) sampleEnd = sh.deadlineNs;
            {
                std::unique_lock<std::mutex> lock(sh.mutex);
                while (sh.workersFinished.load() < threads) {
                    int64_t now = monotonicNs();
                    if (now >= sampleEnd) break;
                    sh.changed.wait_for(lock, std::chrono::nanoseconds(std::min<int64_t>(sampleEnd - now, 100'000'000)));
                }
            }
            int64_t now = monotonicNs();
            last = sh.workersFinished.load() == threads;
            // A transaction that will not end (a lock wait) must not hold the run forever.
            bool overdue = sh.stop.load() == RunShared::kFinishInFlight || now > sh.deadlineNs;
            if (overdue && stopSeenNs == 0) stopSeenNs = now;
            if (overdue && now - stopSeenNs > kAbandonAfterNs && sh.stop.load() != RunShared::kAbandon) {
                sh.stop.store(RunShared::kAbandon);
                sh.wakeAll();
            }
            bool atDeadline = spec_.durationS > 0 && !deadlineSeen && now >= sh.deadlineNs;
            deadlineSeen = deadlineSeen || atDeadline;
            std::optional<SystemSample> system =
                metrics.interval(sampleStart < sh.measureStartNs && now >= sh.measureStartNs, atDeadline);
            if (sh.failed) continue;
            Totals current = everything(workers);
            LoadSample s;
            s.startS = seconds(sampleStart - sh.startNs);
            s.endS = seconds(std::min(now, sh.deadlineNs) - sh.startNs);
            // Warm-up when it *starts* before the warm-up ends: the sampler wakes a little after
            // the boundary, and the sample that ends the warm-up is mostly warm-up seconds.
            s.warmup = sampleStart < sh.measureStartNs;
            LatencyHistogram delta = current.latency.since(previous.latency);
            s.transactions = delta.count();
            s.tps = s.endS > s.startS ? static_cast<double>(s.transactions) / (s.endS - s.startS) : 0;
            s.latency = delta.summary();
            s.failures = current.failures.total() - previous.failures.total();
            s.retries = current.retries - previous.retries;
            s.skipped = current.skipped - previous.skipped;
            s.system = system;
            if (spec_.keepHistograms) s.histogram = delta.data();
            std::vector<uint64_t> scripts = scriptCommits(spec_, workers);
            for (size_t i = 0; i < scripts.size(); ++i) s.scriptTransactions.push_back(scripts[i] - previousScripts[i]);
            // The last sample (every worker done) is kept when it counted anything: also a
            // script's commits that ended before the previous sample but were read after it.
            bool counted = s.transactions > 0 || std::any_of(s.scriptTransactions.begin(), s.scriptTransactions.end(),
                                                              [](uint64_t n) { return n > 0; });
            if (s.endS > s.startS && (counted || !last)) {
                result.samples.push_back(s);
                if (observer_) observer_(s);
            }
            previous = std::move(current);
            previousScripts = std::move(scripts);
            sampleStart = std::max(sampleEnd, now);
            if (now >= sh.deadlineNs) sampleStart = now;
        }
    }
    for (auto& t : running) t.join();
    if (sh.go && !sh.failed) result.system = metrics.window();
    if (result.system)
        result.system->slowReadings = result.system->slowestReadingMs > kSlowReadingShare * 1000 * spec_.sampleIntervalS;

    // Totals of the counted window, exact now that the workers are gone.
    Totals measured;
    int64_t lastFinish = 0, lastEndAfterDeadline = 0;
    int wireConnections = 0, libpqConnections = 0;
    for (const auto& w : workers) {
        measured.add(w->measured());
        lastFinish = std::max(lastFinish, w->finishedNs());
        lastEndAfterDeadline = std::max(lastEndAfterDeadline, w->lastEndAfterDeadlineNs());
        if (result.firstErrorMessage.empty()) result.firstErrorMessage = w->firstFailureMessage();
        result.connectionSecondsTotal += seconds(w->connectionNs());
        wireConnections += w->wireConnections();
        libpqConnections += w->libpqConnections();
        if (result.engineWhy.empty()) result.engineWhy = w->libpqWhy();
    }
    result.engine = wireConnections > 0 && libpqConnections > 0 ? "wire+libpq" : wireConnections > 0 ? "wire" : "libpq";
    if (libpqConnections == 0) result.engineWhy.clear();
    if (spec_.reportPerCommand) {
        // Per command, summed over the workers (each kept its own, single-writer).
        for (size_t si = 0; si < spec_.workload.scripts.size(); ++si) {
            const Script& script = spec_.workload.scripts[si];
            for (size_t ci = 0; ci < script.commands.size(); ++ci) {
                CommandReport c;
                c.script = static_cast<int>(si);
                c.command = static_cast<int>(ci);
                c.text = script.commands[ci].firstLine;
                int64_t sumNs = 0;
                for (const auto& w : workers) {
                    const auto& st = w->commandStats()[si][ci];
                    c.count += st.count;
                    sumNs += st.sumNs;
                    c.failures += st.failures;
                    c.retries += st.retries;
                }
                c.meanMs = c.count ? static_cast<double>(sumNs) / static_cast<double>(c.count) / 1e6 : 0;
                result.commands.push_back(std::move(c));
            }
        }
    }
    result.scripts = scriptReports(spec_, workers);
    if (sh.go) {
        // A timed run's window is its duration, also when every client was done before the end
        // (a rate whose next arrivals lie after it). Only a stop, a failure or aborted clients
        // end the window early.
        bool cutShort = sh.failed || sh.stoppedByUser.load() || sh.abortedClients.load() > 0;
        int64_t end = spec_.durationS > 0 ? (cutShort ? std::min(sh.deadlineNs, lastFinish) : sh.deadlineNs) : lastFinish;
        result.measuredSeconds = std::max(0.0, seconds(end - sh.measureStartNs));
    }
    result.transactions = measured.latency.count();
    result.tps = result.measuredSeconds > 0 ? static_cast<double>(result.transactions) / result.measuredSeconds : 0;
    result.latency = measured.latency.summary();
    if (spec_.keepHistograms || spec_.keepRunHistogram) result.histogram = measured.latency.data();
    result.failures = measured.failures;
    result.retries = measured.retries;
    result.retriedTransactions = measured.retriedTransactions;
    result.skipped = measured.skipped;
    result.late = measured.late;
    if (measured.lagCount > 0) {
        result.lagMeanMs = static_cast<double>(measured.lagSumNs) / static_cast<double>(measured.lagCount) / 1e6;
        result.lagMaxMs = static_cast<double>(measured.lagMaxNs) / 1e6;
    }
    result.abortedClients = sh.abortedClients.load();
    {
        std::lock_guard<std::mutex> lock(sh.mutex);
        result.firstAbort = sh.firstAbort;
        if (sh.exitedOnAbort >= 0) result.exitedOnAbort = sh.exitedOnAbort;
    }
    if (sh.failed) {
        result.status = RunStatus::Failed;
        std::lock_guard<std::mutex> lock(sh.mutex);
        result.error = sh.failure;
    } else if (result.exitedOnAbort) {
        // pgbench 17's --exit-on-abort: the run ended at its first abort.
        result.status = RunStatus::Failed;
        result.error = "Run was aborted due to an error in thread " + std::to_string(*result.exitedOnAbort) + ": " +
                       result.firstAbort;
    } else if (result.abortedClients > 0) {
        // pgbench: "Run was aborted; the above results are incomplete." (exit status 2)
        result.status = RunStatus::Failed;
        result.error = std::to_string(result.abortedClients) + " of " + std::to_string(result.clients) +
                       " clients aborted; the results are incomplete. First: " + result.firstAbort;
    } else if (double failedPct = failedPercent(result); spec_.maxFailedPct >= 0 && failedPct > spec_.maxFailedPct) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "%.3f%% of the transactions failed (%llu), above the %.3g%% allowed", failedPct,
                      static_cast<unsigned long long>(result.failures.total()), spec_.maxFailedPct);
        result.status = RunStatus::Failed;
        result.error = std::string(buf) + "; first: " + result.firstErrorMessage;
    } else if (spec_.durationS > 0 && result.transactions == 0 && result.failures.total() == 0 && lastEndAfterDeadline > 0 &&
               !sh.stoppedByUser.load()) {
        // Not "completed, 0 tps" (issue 31.10): the server was busy the whole time. ScaleLab
        // counts what ends inside the run's window (docs/ARCHITECTURE.md); pgbench would count
        // the transaction that ended after it and divide by the longer time. (Failed
        // transactions that ended inside the window did end there: with --continue-on-error a
        // run of nothing but failures is that, not a run too short for its transactions.)
        result.status = RunStatus::Failed;
        result.error = "no transaction ended inside the " + formatNumber("%g", spec_.durationS) +
                       " s of the run: they take longer than the run (one ended " +
                       formatNumber("%.1f", seconds(lastEndAfterDeadline - sh.deadlineNs)) +
                       " s after its end; pgbench would count it over the longer time). Give a longer duration (-T)";
    } else if (sh.stoppedByUser.load()) {
        result.status = RunStatus::Stopped;
    }
    return result;
}

} // namespace scalelab
