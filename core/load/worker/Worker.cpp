#include "load/worker/Worker.h"

#include "load/worker/WorkerClient.h"
#include "load/LoadRun.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cstring>
#include <numeric>
#include <ctime>

namespace scalelab {


void RunShared::wakeAll() {
    uint64_t one = 1;
    for (int fd : wakeFds) (void)!write(fd, &one, sizeof one);
}

void RunShared::clientAborted(const std::string& why, int thread) {
    {
        std::lock_guard<std::mutex> lock(mutex);
        if (firstAbort.empty()) firstAbort = why;
        if (exitOnAbort && exitedOnAbort < 0) exitedOnAbort = thread;
    }
    abortedClients.fetch_add(1, std::memory_order_relaxed);
    if (exitOnAbort) {
        // pgbench --exit-on-abort: no other transaction starts or is waited for.
        stop.store(kAbandon, std::memory_order_release);
        changed.notify_all();
        wakeAll();
    }
}

void RunShared::fail(const std::string& why) {
    {
        std::lock_guard<std::mutex> lock(mutex);
        if (!failed) {
            failed = true;
            failure = why;
        }
    }
    stop.store(kAbandon, std::memory_order_release);
    changed.notify_all();
    wakeAll();
}

Worker::Worker(int index, const LoadSpec& spec, int firstClient, int clientCount, RunShared& shared)
    : index_(index), spec_(spec), shared_(shared), clients_(static_cast<size_t>(clientCount)) {
    size_t maxParams = 1;
    for (const auto& s : spec.workload.scripts)
        for (const auto& c : s.commands) maxParams = std::max(maxParams, c.sql.vars.size());
    uint64_t nScripts = spec.workload.scripts.size();
    const Workload& w = spec.workload;
    // pgbench's seeding: one base sequence from the run's seed gives each client's generator
    // in client order, then :default_seed, then each thread's three generators. The same seed,
    // clients and threads give the same random values as pgbench.
    Random base(spec.seed.value_or(0));
    // A load host's share numbers its clients from clientIdOffset: the seeds of every host's
    // clients are drawn, so each client (and :default_seed) is what it is in one process.
    int seededClients = std::max(spec.clientsInAll, spec.clientIdOffset + spec.clients);
    std::vector<uint64_t> clientSeeds(static_cast<size_t>(seededClients));
    for (auto& cs : clientSeeds) cs = base.next();
    int64_t defaultSeed = w.isDefined(VariableTable::kDefaultSeed) ? 0 : static_cast<int64_t>(base.next());
    for (int t = 0; t <= index; ++t) {
        uint64_t choose = base.next(), throttle = base.next(), sample = base.next();
        if (t == index) {
            chooseRng_.reseed(choose);
            thinkRng_.reseed(choose ^ 0x7468696e6b74696dULL);  // not drawn from `base`: pgbench's streams stay as they are
            scheduleRng_.reseed(throttle);
            sampleRng_.reseed(sample);
        }
    }
    for (size_t i = 0; i < clients_.size(); ++i) {
        Client& c = clients_[i];
        c.id = spec.clientIdOffset + firstClient + static_cast<int>(i);
        c.rng.reseed(clientSeeds[static_cast<size_t>(c.id)]);
        c.vars.resize(w.vars.size());
        for (const auto& d : w.defines()) c.vars.setText(d.slot, d.value.c_str());
        // Like pgbench: -D may set any of these itself.
        if (!w.isDefined(VariableTable::kScale)) c.vars.setValue(VariableTable::kScale, ScriptValue::integer(spec.scale));
        if (!w.isDefined(VariableTable::kClientId)) c.vars.setValue(VariableTable::kClientId, ScriptValue::integer(c.id));
        if (!w.isDefined(VariableTable::kDefaultSeed)) c.vars.setValue(VariableTable::kDefaultSeed, ScriptValue::integer(defaultSeed));
        if (!w.isDefined(VariableTable::kRandomSeed))
            c.vars.setValue(VariableTable::kRandomSeed, ScriptValue::integer(static_cast<int64_t>(spec.seed.value_or(0))));
        if (spec.workload.replay && spec.workload.shuffle && nScripts > 1) {
            // pos -> (offset + stride * pos) mod n with gcd(stride, n) = 1 visits every
            // statement once per round, in an order of this client's own.
            do {
                c.replayStride = static_cast<uint64_t>(c.rng.between(1, static_cast<int64_t>(nScripts - 1)));
            } while (std::gcd(c.replayStride, nScripts) != 1);
            c.replayOffset = static_cast<uint64_t>(c.rng.between(0, static_cast<int64_t>(nScripts - 1)));
        }
    }
    paramPtrs_.resize(maxParams);
    if (spec.mode == QueryMode::Simple) sql_.reserve(1024);
    out_.reserve(1024);
    for (const auto& s : spec.workload.scripts)
        for (const auto& cmd : s.commands) scriptsPipeline_ = scriptsPipeline_ || cmd.kind == Command::Kind::StartPipeline;
    int total = 0;
    for (const auto& s : spec.workload.scripts) cumulativeWeights_.push_back(total += s.weight);
    for (const auto& s : spec.workload.scripts) {
        keyingNs_.push_back(static_cast<int64_t>(s.keyingS * 1e9));
        thinkMeanNs_.push_back(static_cast<int64_t>(s.thinkMeanS * 1e9));
        terminalTimes_ = terminalTimes_ || keyingNs_.back() > 0 || thinkMeanNs_.back() > 0;
    }
    if (spec.reportPerCommand)
        for (const auto& s : spec.workload.scripts) commandStats_.emplace_back(s.commands.size());
    if (spec.workload.scripts.size() > 1 && !spec.workload.replay) {
        scriptStats_.resize(spec.workload.scripts.size());
        scriptCommits_ = std::make_unique<std::atomic<uint64_t>[]>(scriptStats_.size());
    }
    if (spec.rate > 0) {
        int threads = static_cast<int>(shared.wakeFds.size());
        meanScheduleGapUs_ = 1e6 * threads / spec.rate;  // pgbench's throttle_delay, per thread
    }
    latencyLimitNs_ = static_cast<int64_t>(spec.latencyLimitMs * 1e6);
}

Worker::~Worker() {
    if (log_) fclose(log_);
    for (auto& c : clients_) {
        if (c.pending) PQclear(c.pending);
        if (c.conn) PQfinish(c.conn);
    }
}

void Worker::run() {
    bool started = true;
    if (spec_.onWorkerStart) {
        try {
            spec_.onWorkerStart(index_);
        } catch (const std::exception& e) {
            shared_.fail(e.what());
            started = false;
        }
    }
    statementNames_.resize(spec_.workload.scripts.size());
    for (size_t s = 0; s < spec_.workload.scripts.size(); ++s)
        for (size_t k = 0; k < spec_.workload.scripts[s].commands.size(); ++k)
            statementNames_[s].push_back("scalelab_" + std::to_string(s) + "_" + std::to_string(k));
    statements_ = sqlStatements();

    bool connected = started && connectAll();
    {
        std::unique_lock<std::mutex> lock(shared_.mutex);
        ++shared_.workersReady;
        shared_.changed.notify_all();
        shared_.changed.wait(lock, [&] { return shared_.go || shared_.failed || shared_.stop.load() == RunShared::kAbandon; });
    }
    if (connected && shared_.go && shared_.stop.load(std::memory_order_acquire) != RunShared::kAbandon) {
        nextScheduleNs_ = shared_.startNs;
        if (spec_.log) openLog();
        loop();
        if (log_ && spec_.log->aggregateIntervalS > 0) writeAggregates((monotonicNs() + epochShiftNs_) / 1000);
    }
    cancelAndClose();
    finishedNs_ = monotonicNs();
    shared_.workersFinished.fetch_add(1, std::memory_order_acq_rel);
    shared_.changed.notify_all();
}

PhaseCounters* Worker::phaseAt(int64_t now) {
    if (now > shared_.deadlineNs) {  // ended after the run's end: not counted
        lastEndAfterDeadlineNs_ = now;
        return nullptr;
    }
    return &phases_[now >= shared_.measureStartNs ? 1 : 0];
}

void Worker::debugLine(const char* format, ...) {
    char text[1024];
    va_list ap;
    va_start(ap, format);
    std::vsnprintf(text, sizeof text, format, ap);
    va_end(ap);
    std::fprintf(stderr, "scalelab: %s\n", text);  // one write per line: threads do not interleave within it
}

void Worker::chooseScriptFor(Client& c) {
    c.script = chooseScript(c);
    if (spec_.debug)
        debugLine("client %d executing script \"%s\"", c.id, spec_.workload.scripts[static_cast<size_t>(c.script)].name.c_str());
}

Worker::ScriptStats* Worker::measuredScript(const Client& c, PhaseCounters* phase) {
    if (phase != &phases_[1] || scriptStats_.empty()) return nullptr;
    return &scriptStats_[static_cast<size_t>(c.script)];
}

int64_t Worker::thinkTime(int script) {
    int64_t mean = thinkMeanNs_[static_cast<size_t>(script)];
    if (mean <= 0) return 0;
    double drawn = -std::log(1.0 - thinkRng_.uniform()) * static_cast<double>(mean);
    return static_cast<int64_t>(std::min(drawn, 10.0 * static_cast<double>(mean)));  // clause 5.2.5.4: at least 10 means
}

int Worker::chooseScript(Client& c) {
    const auto& scripts = spec_.workload.scripts;
    if (spec_.workload.replay) {
        uint64_t n = scripts.size();
        return static_cast<int>((c.replayOffset + c.replayStride * (c.replayPos++ % n)) % n);
    }
    if (scripts.size() == 1) return 0;
    int64_t w = chooseRng_.between(0, cumulativeWeights_.back() - 1);
    return static_cast<int>(std::upper_bound(cumulativeWeights_.begin(), cumulativeWeights_.end(), w) -
                            cumulativeWeights_.begin());
}

namespace {
// Min-heap on the wake-up time.
struct TimerLater {
    template <class T> bool operator()(const T& a, const T& b) const { return a.at > b.at; }
};
} // namespace

// The event loop. A wake-up costs in proportion to what is due: the sockets epoll reports
// ready, the timers that expired (a heap yields the next one without a scan), and the clients
// whose turn it is. The clients' state machines run from here: a result arrives -> the next
// command is sent, a timer expires -> the sleep ends or the throttled transaction starts.
void Worker::loop() {
    int wakeFd = shared_.wakeFds[static_cast<size_t>(index_)];
    epollFd_ = epoll_create1(EPOLL_CLOEXEC);
    if (epollFd_ < 0) {
        shared_.fail(std::string("cannot create an epoll set: ") + std::strerror(errno));
        return;
    }
    epoll_event wakeEvent{};
    wakeEvent.events = EPOLLIN;
    wakeEvent.data.ptr = nullptr;  // the run's eventfd
    epoll_ctl(epollFd_, EPOLL_CTL_ADD, wakeFd, &wakeEvent);
    events_.resize(std::min<size_t>(clients_.size() + 1, 1024));
    timers_.reserve(clients_.size());
    ready_.reserve(clients_.size());
    readyNext_.reserve(clients_.size());
    for (auto& c : clients_)
        if (c.conn) watch(c);
    for (auto& c : clients_) ready_.push_back(&c);
    bool stopSeen = false;
    while (doneClients_ < static_cast<int>(clients_.size())) {
        int stop = shared_.stop.load(std::memory_order_acquire);
        if (stop == RunShared::kAbandon) break;
        if (stop != RunShared::kRunning && !stopSeen) {
            // No new transaction starts: a client waiting for its scheduled start is done now.
            stopSeen = true;
            for (auto& c : clients_)
                if (c.phase == Client::Phase::Throttled) {
                    c.phase = Client::Phase::Start;
                    ready_.push_back(&c);
                }
        }
        // Clients due a turn (the first ones, the ones that ended a transaction, the woken ones).
        std::swap(ready_, readyNext_);
        for (Client* c : readyNext_)
            if (c->phase == Client::Phase::Start || c->phase == Client::Phase::Exec) advance(*c);
        readyNext_.clear();
        if (shared_.stop.load(std::memory_order_relaxed) == RunShared::kAbandon) break;
        if (doneClients_ >= static_cast<int>(clients_.size())) break;

        int timeoutMs = -1;
        if (!ready_.empty()) {
            timeoutMs = 0;
        } else if (!timers_.empty()) {
            int64_t left = timers_.front().at - monotonicNs();
            timeoutMs = left <= 0 ? 0 : static_cast<int>(std::min<int64_t>((left + 999999) / 1000000, 1000));
        }
        int n = epoll_wait(epollFd_, events_.data(), static_cast<int>(events_.size()), timeoutMs);
        if (n < 0 && errno != EINTR) {
            shared_.fail(std::string("waiting for the clients' sockets failed: ") + std::strerror(errno));
            break;
        }
        for (int i = 0; i < n; ++i) {
            auto* c = static_cast<Client*>(events_[static_cast<size_t>(i)].data.ptr);
            if (!c) {
                uint64_t drained;
                (void)!read(wakeFd, &drained, sizeof drained);
                continue;
            }
            if (Client::awaitsResults(c->phase)) {
                onReadable(*c);
            } else if (c->phase == Client::Phase::Connecting || c->phase == Client::Phase::Preparing) {
                connectStep(*c);
            } else if (c->wire) {
                wireReadable(*c);  // not expecting anything: as below
            } else if (c->conn && !PQconsumeInput(c->conn)) {
                // Not expecting anything: a notice, or the server ended the session.
                lose(*c, PQerrorMessage(c->conn));
            }
        }
        // Timers that are due, earliest first.
        int64_t now = monotonicNs();
        while (!timers_.empty() && timers_.front().at <= now) {
            std::pop_heap(timers_.begin(), timers_.end(), TimerLater{});
            Client& c = *timers_.back().client;
            timers_.pop_back();
            if (c.phase == Client::Phase::Sleeping) {
                if (spec_.reportPerCommand) commandEnded(c, c.sleepingCommand, now);
                c.phase = Client::Phase::Exec;
            } else if (c.phase == Client::Phase::Throttled) {
                c.phase = Client::Phase::Start;
            } else {
                continue;  // stopped meanwhile
            }
            advance(c);
        }
    }
    close(epollFd_);
    epollFd_ = -1;
}

void Worker::watch(Client& c) { watchFor(c, EPOLLIN); }

// A closed socket leaves the epoll set by itself, and libpq may open a new one (another host
// or address, a new connection) under the same number or another: modify the registration,
// or add it when there is none.
void Worker::watchFor(Client& c, uint32_t events) {
    epoll_event ev{};
    ev.events = events;
    ev.data.ptr = &c;
    int fd = PQsocket(c.conn);
    c.watchingWrite = (events & EPOLLOUT) != 0;
    if (epollFd_ < 0 || fd < 0) return;
    if (epoll_ctl(epollFd_, EPOLL_CTL_MOD, fd, &ev) == 0) return;
    if (errno == ENOENT && epoll_ctl(epollFd_, EPOLL_CTL_ADD, fd, &ev) == 0) return;
    shared_.fail("client " + std::to_string(c.id) + ": cannot watch its socket: " + std::strerror(errno));
}

void Worker::setNeedFlush(Client& c, bool need) {
    c.needFlush = need;
    if (need == c.watchingWrite || epollFd_ < 0 || !c.conn) return;
    epoll_event ev{};
    ev.events = EPOLLIN | (need ? EPOLLOUT : 0u);
    ev.data.ptr = &c;
    epoll_ctl(epollFd_, EPOLL_CTL_MOD, PQsocket(c.conn), &ev);
    c.watchingWrite = need;
}

void Worker::wakeAt(Client& c, int64_t when, bool throttled) {
    c.phase = throttled ? Client::Phase::Throttled : Client::Phase::Sleeping;
    timers_.push_back({when, &c});
    std::push_heap(timers_.begin(), timers_.end(), TimerLater{});
}

void Worker::markDone(Client& c) {
    if (c.phase != Client::Phase::Done) ++doneClients_;
    c.phase = Client::Phase::Done;
}

void Worker::nextTransactionLater(Client& c) {
    c.phase = Client::Phase::Start;
    ready_.push_back(&c);
}

void Worker::advance(Client& c) {
    const auto& scripts = spec_.workload.scripts;
    for (;;) {
        if (c.phase == Client::Phase::Start) {
            int64_t now = monotonicNs();
            bool stopping = shared_.stop.load(std::memory_order_relaxed) != RunShared::kRunning || now >= shared_.deadlineNs ||
                            (spec_.transactionsPerClient > 0 && c.transactionsDone >= spec_.transactionsPerClient);
            if (stopping) {
                markDone(c);
                return;
            }
            if (spec_.rate > 0 && !c.scheduled) {
                // pgbench chooses the script before throttling: slots skipped for lateness count
                // as that script's.
                chooseScriptFor(c);
                // Poisson arrivals per thread, as pgbench's --rate.
                nextScheduleNs_ += scheduleRng_.poisson(meanScheduleGapUs_) * 1000;
                c.scheduledNs = nextScheduleNs_;
                c.scheduled = true;
                if (latencyLimitNs_ > 0) {
                    // A slot so late that it would miss the limit even if it ended at once is
                    // skipped, and counts as a transaction of the client (pgbench).
                    while (c.scheduledNs < now - latencyLimitNs_ &&
                           (spec_.transactionsPerClient <= 0 || c.transactionsDone < spec_.transactionsPerClient)) {
                        if (PhaseCounters* p = phaseAt(now)) {
                            PhaseCounters::bump(p->skipped);
                            if (ScriptStats* s = measuredScript(c, p)) ++s->skipped;
                        }
                        ++c.transactionsDone;
                        if (log_) logTransaction(c, now, 0, "skipped");
                        nextScheduleNs_ += scheduleRng_.poisson(meanScheduleGapUs_) * 1000;
                        c.scheduledNs = nextScheduleNs_;
                    }
                    if (spec_.transactionsPerClient > 0 && c.transactionsDone >= spec_.transactionsPerClient) {
                        markDone(c);
                        return;
                    }
                }
                // A start scheduled after the end of the run never happens: the client is done
                // now rather than sleeping into the time after the run.
                if (c.scheduledNs > shared_.deadlineNs) {
                    markDone(c);
                    return;
                }
                if (c.scheduledNs > now) {
                    wakeAt(c, c.scheduledNs, true);
                    return;
                }
            }
            if (spec_.connectPerTransaction) {
                if (!c.conn) {
                    startConnect(c);  // the loop continues it; Start again once connected
                    return;
                }
                now = monotonicNs();  // latency and lag start after the connection, as pgbench's
            }
            if (spec_.rate <= 0 && !c.keyed) chooseScriptFor(c);
            if (terminalTimes_ && !c.keyed) {
                // A terminal's keying time before this transaction and the think time after the
                // last one, waited on a timer, outside the transaction's latency (TPC-C's
                // response time excludes them).
                int64_t wait = c.thinkNs + keyingNs_[static_cast<size_t>(c.script)];
                c.thinkNs = 0;
                if (wait > 0) {
                    if (now + wait >= shared_.deadlineNs) {  // it would start after the run
                        markDone(c);
                        return;
                    }
                    c.keyed = true;
                    wakeAt(c, now + wait, true);
                    return;
                }
            }
            c.keyed = false;
            if (spec_.rate > 0) {
                c.scheduled = false;
                // Latency counts from the scheduled start: waiting behind schedule is the server's delay too.
                c.txStartNs = c.scheduledNs;
                c.lagNs = now - c.scheduledNs;
            } else {
                c.txStartNs = now;
            }
            c.command = 0;
            c.tries = 1;
            c.rngAtStart = c.rng.state();
            c.phase = Client::Phase::Exec;
        }
        if (c.phase != Client::Phase::Exec) return;
        const Script& script = scripts[static_cast<size_t>(c.script)];
        if (c.command == script.commands.size()) {
            if (scriptsPipeline_ && PQpipelineStatus(c.conn) != PQ_PIPELINE_OFF) {
                abortClient(c, "client " + std::to_string(c.id) + " aborted: end of script reached with pipeline open (" +
                                   script.name + ")");
                return;
            }
            finishTransaction(c, monotonicNs());
            if (!spec_.workload.replay && txStatus(c) != PQTRANS_IDLE) {
                abortClient(c, "client " + std::to_string(c.id) +
                                   " aborted: end of script reached without completing the last transaction (" +
                                   script.name + ")");
                return;
            }
            if (spec_.connectPerTransaction) disconnect(c);
            nextTransactionLater(c);
            return;
        }
        const Command& cmd = script.commands[c.command];
        bool entering = c.entering;
        c.entering = false;
        size_t executing = c.command;
        if (spec_.reportPerCommand) c.commandStartNs = monotonicNs();
        if (cmd.kind == Command::Kind::Sql) {
            bool pipelined = scriptsPipeline_ && PQpipelineStatus(c.conn) != PQ_PIPELINE_OFF;
            if (pipelined && cmd.sql.store != SqlCommand::Store::None) {
                bool gset = cmd.sql.store == SqlCommand::Store::Gset;
                abortInCommand(c, gset ? "gset" : "aset", gset ? "\\gset is not allowed in pipeline mode" : "\\aset is not allowed in pipeline mode");
                return;
            }
            if (!send(c, cmd, c.script, static_cast<int>(c.command))) return;
            if (pipelined) {
                if (spec_.reportPerCommand) commandEnded(c, executing, monotonicNs());
                ++c.command;  // the results are read at \endpipeline
                continue;
            }
            c.phase = Client::Phase::Waiting;
            return;
        }
        if (!runMeta(c, cmd, entering)) {
            if (c.phase == Client::Phase::Sleeping) c.sleepingCommand = executing;
            return;
        }
        if (spec_.reportPerCommand) commandEnded(c, executing, monotonicNs());
    }
}

} // namespace scalelab
