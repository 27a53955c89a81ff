#include "load/Worker.h"

#include "load/LoadRun.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
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

void RunShared::clientAborted(const std::string& why) {
    {
        std::lock_guard<std::mutex> lock(mutex);
        if (firstAbort.empty()) firstAbort = why;
    }
    abortedClients.fetch_add(1, std::memory_order_relaxed);
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
    char lastNotice[512] = {0}; // the server's last notice: its words when it ends the session
};

namespace {
// libpq would print notices on stderr; a worker never logs. Keep the last one instead: when
// the server terminates an idle session, its reason arrives this way.
void keepNotice(void* arg, const char* message) {
    char* into = static_cast<char*>(arg);
    std::strncpy(into, message, 511);
    into[511] = '\0';
}
} // namespace

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
    std::vector<uint64_t> clientSeeds(static_cast<size_t>(spec.clients));
    for (auto& cs : clientSeeds) cs = base.next();
    int64_t defaultSeed = w.isDefined(VariableTable::kDefaultSeed) ? 0 : static_cast<int64_t>(base.next());
    for (int t = 0; t <= index; ++t) {
        uint64_t choose = base.next(), throttle = base.next(), sample = base.next();
        if (t == index) {
            chooseRng_.reseed(choose);
            scheduleRng_.reseed(throttle);
            sampleRng_.reseed(sample);
        }
    }
    for (size_t i = 0; i < clients_.size(); ++i) {
        Client& c = clients_[i];
        c.id = firstClient + static_cast<int>(i);
        c.rng.reseed(clientSeeds[static_cast<size_t>(c.id)]);
        c.vars.resize(w.vars.size());
        for (const auto& d : w.defines()) c.vars.setText(d.slot, d.value.c_str());
        // Like pgbench: -D may set any of these itself.
        if (!w.isDefined(VariableTable::kScale)) c.vars.setValue(VariableTable::kScale, ScriptValue::integer(spec.scale));
        if (!w.isDefined(VariableTable::kClientId)) c.vars.setValue(VariableTable::kClientId, ScriptValue::integer(c.id));
        if (!w.isDefined(VariableTable::kDefaultSeed)) c.vars.setValue(VariableTable::kDefaultSeed, ScriptValue::integer(defaultSeed));
        if (!w.isDefined(VariableTable::kRandomSeed))
            c.vars.setValue(VariableTable::kRandomSeed, ScriptValue::integer(static_cast<int64_t>(spec.seed.value_or(0))));
        c.paramPtrs.resize(maxParams);
        c.sql.reserve(1024);
        if (spec.workload.replay && spec.workload.shuffle && nScripts > 1) {
            // pos -> (offset + stride * pos) mod n with gcd(stride, n) = 1 visits every
            // statement once per round, in an order of this client's own.
            do {
                c.replayStride = static_cast<uint64_t>(c.rng.between(1, static_cast<int64_t>(nScripts - 1)));
            } while (std::gcd(c.replayStride, nScripts) != 1);
            c.replayOffset = static_cast<uint64_t>(c.rng.between(0, static_cast<int64_t>(nScripts - 1)));
        }
    }
    int total = 0;
    for (const auto& s : spec.workload.scripts) cumulativeWeights_.push_back(total += s.weight);
    if (spec.reportPerCommand)
        for (const auto& s : spec.workload.scripts) commandStats_.emplace_back(s.commands.size());
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

namespace {
std::string chomp(std::string msg) {
    while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
    return msg;
}
} // namespace

// All of this worker's clients connect at once: libpq's non-blocking connect, polled together,
// so the server's session start-ups overlap instead of queueing behind one another.
bool Worker::connectAll() {
    if (spec_.connectPerTransaction) return true;  // -C: each transaction connects (startConnect)
    // expand_dbname: the conninfo (key=value or URI) fills in everything it names; the
    // application_name lets the metrics wait for these sessions to end.
    const char* keys[] = {"dbname", "fallback_application_name", nullptr};
    const char* values[] = {spec_.conninfo.c_str(), kLoadApplicationName, nullptr};
    std::vector<PostgresPollingStatusType> polling(clients_.size(), PGRES_POLLING_WRITING);
    size_t pending = 0;
    for (auto& c : clients_) {
        c.conn = PQconnectStartParams(keys, values, 1);
        if (!c.conn || PQstatus(c.conn) == CONNECTION_BAD) {
            shared_.fail("client " + std::to_string(c.id) + " could not connect: " +
                         chomp(c.conn ? PQerrorMessage(c.conn) : "out of memory"));
            return false;
        }
        ++pending;
    }
    std::vector<pollfd> fds;
    std::vector<size_t> which;
    while (pending > 0) {
        if (shared_.stop.load(std::memory_order_acquire) != RunShared::kRunning) return false;
        fds.clear();
        which.clear();
        for (size_t i = 0; i < clients_.size(); ++i) {
            if (polling[i] == PGRES_POLLING_OK) continue;
            // The socket can change while libpq tries the next host or address: ask each time.
            short events = polling[i] == PGRES_POLLING_READING ? POLLIN : POLLOUT;
            fds.push_back({PQsocket(clients_[i].conn), events, 0});
            which.push_back(i);
        }
        int ready = poll(fds.data(), fds.size(), 100);
        if (ready < 0 && errno != EINTR) {
            shared_.fail(std::string("waiting for connections failed: ") + std::strerror(errno));
            return false;
        }
        for (size_t k = 0; k < fds.size() && ready > 0; ++k) {
            if (!fds[k].revents) continue;
            size_t i = which[k];
            Client& c = clients_[i];
            polling[i] = PQconnectPoll(c.conn);
            if (polling[i] == PGRES_POLLING_FAILED) {
                shared_.fail("client " + std::to_string(c.id) + " could not connect: " + chomp(PQerrorMessage(c.conn)));
                return false;
            }
            if (polling[i] == PGRES_POLLING_OK) --pending;
        }
    }
    for (auto& c : clients_) PQsetNoticeProcessor(c.conn, keepNotice, c.lastNotice);
    if (spec_.mode == QueryMode::Prepared && !prepareAll()) return false;
    for (auto& c : clients_) {
        if (PQsetnonblocking(c.conn, 1) != 0) {
            shared_.fail("client " + std::to_string(c.id) + ": cannot make the connection non-blocking");
            return false;
        }
    }
    return shared_.stop.load(std::memory_order_acquire) == RunShared::kRunning;
}

// Every statement of every script prepared on every connection, before the clock starts. Each
// connection gets its Parse messages in one pipeline (one round trip, not one per statement),
// and all connections are sent before any answer is read, so they overlap. A statement the
// server refuses stays unprepared, as under pgbench (which prepares each one on first use):
// running it then fails the client with the server's words, and the statements after it in
// the pipeline are sent again.
bool Worker::prepareAll() {
    std::vector<std::vector<Statement>> todo(clients_.size(), statements_);
    for (bool more = !statements_.empty(); more;) {
        more = false;
        for (size_t i = 0; i < clients_.size(); ++i) {
            Client& c = clients_[i];
            if (todo[i].empty()) continue;
            if (!queuePrepares(c.conn, todo[i]) || PQflush(c.conn) != 0) {
                shared_.fail("client " + std::to_string(c.id) + ": cannot send the statements to prepare: " +
                             chomp(PQerrorMessage(c.conn)));
                return false;
            }
        }
        for (size_t i = 0; i < clients_.size(); ++i) {
            Client& c = clients_[i];
            if (todo[i].empty()) continue;
            std::vector<Statement> again;
            for (const auto& p : todo[i]) {
                PGresult* r = PQgetResult(c.conn);
                ExecStatusType st = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
                if (st == PGRES_PIPELINE_ABORTED) {
                    again.push_back(p);
                } else if (st != PGRES_COMMAND_OK && c.prepareError.empty()) {
                    const Script& script = spec_.workload.scripts[p.script];
                    c.prepareError = script.name + ":" + std::to_string(script.commands[p.command].line) + ": " +
                                     chomp(r ? PQresultErrorMessage(r) : PQerrorMessage(c.conn));
                }
                if (r) PQclear(r);
                if (r) PQclear(PQgetResult(c.conn));  // the NULL that ends each statement's results
            }
            PGresult* sync = PQgetResult(c.conn);
            bool synced = sync && PQresultStatus(sync) == PGRES_PIPELINE_SYNC;
            if (sync) PQclear(sync);
            if (!synced || PQexitPipelineMode(c.conn) != 1) {
                shared_.fail("client " + std::to_string(c.id) + ": preparing the statements failed: " +
                             chomp(PQerrorMessage(c.conn)));
                return false;
            }
            todo[i] = std::move(again);
            more = more || !todo[i].empty();
        }
    }
    return true;
}

// The SQL commands of every script, each a statement to prepare.
std::vector<Worker::Statement> Worker::sqlStatements() const {
    std::vector<Statement> out;
    for (size_t s = 0; s < spec_.workload.scripts.size(); ++s) {
        const auto& cmds = spec_.workload.scripts[s].commands;
        for (size_t k = 0; k < cmds.size(); ++k)
            if (cmds[k].kind == Command::Kind::Sql) out.push_back({s, k});
    }
    return out;
}

// One pipeline of Parse messages and a sync, queued in libpq (the caller flushes): one round
// trip for all of a connection's statements.
bool Worker::queuePrepares(PGconn* conn, const std::vector<Statement>& which) {
    bool sent = PQenterPipelineMode(conn) == 1;
    for (const auto& p : which) {
        const Command& cmd = spec_.workload.scripts[p.script].commands[p.command];
        sent = sent && PQsendPrepare(conn, statementNames_[p.script][p.command].c_str(), cmd.sql.parameterized.c_str(),
                                     static_cast<int>(cmd.sql.vars.size()), nullptr) == 1;
    }
    return sent && PQpipelineSync(conn) == 1;
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
    if (now > shared_.deadlineNs) return nullptr;  // ended after the run's end: not counted
    return &phases_[now >= shared_.measureStartNs ? 1 : 0];
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
            if (c->phase == Client::Phase::Waiting) {
                onReadable(*c);
            } else if (c->phase == Client::Phase::Connecting) {
                connectStep(*c);
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
                // Poisson arrivals per thread, as pgbench's --rate.
                nextScheduleNs_ += scheduleRng_.poisson(meanScheduleGapUs_) * 1000;
                c.scheduledNs = nextScheduleNs_;
                c.scheduled = true;
                if (latencyLimitNs_ > 0) {
                    // A slot so late that it would miss the limit even if it ended at once is
                    // skipped, and counts as a transaction of the client (pgbench).
                    while (c.scheduledNs < now - latencyLimitNs_ &&
                           (spec_.transactionsPerClient <= 0 || c.transactionsDone < spec_.transactionsPerClient)) {
                        if (PhaseCounters* p = phaseAt(now)) PhaseCounters::bump(p->skipped);
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
            if (spec_.rate > 0) {
                c.scheduled = false;
                // Latency counts from the scheduled start: waiting behind schedule is the server's delay too.
                c.txStartNs = c.scheduledNs;
                c.lagNs = now - c.scheduledNs;
            } else {
                c.txStartNs = now;
            }
            c.script = chooseScript(c);
            c.command = 0;
            c.tries = 1;
            c.rngAtStart = c.rng.state();
            c.phase = Client::Phase::Exec;
        }
        if (c.phase != Client::Phase::Exec) return;
        const Script& script = scripts[static_cast<size_t>(c.script)];
        if (c.command == script.commands.size()) {
            if (PQpipelineStatus(c.conn) != PQ_PIPELINE_OFF) {
                abortClient(c, "client " + std::to_string(c.id) + " aborted: end of script reached with pipeline open (" +
                                   script.name + ")");
                return;
            }
            finishTransaction(c, monotonicNs());
            if (!spec_.workload.replay && PQtransactionStatus(c.conn) != PQTRANS_IDLE) {
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
            bool pipelined = PQpipelineStatus(c.conn) != PQ_PIPELINE_OFF;
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

// One meta command. False when the client must stop here for now (sleeping, waiting for the
// pipeline's results, aborted).
bool Worker::runMeta(Client& c, const Command& cmd, bool entering) {
    EvalContext ctx{c.vars, spec_.workload.vars, c.rng, c.script, static_cast<int>(c.command), stderr, {}};
    ScriptValue value;
    switch (cmd.kind) {
    case Command::Kind::Set:
        if (!evaluate(cmd.expr, ctx, value)) {
            abortInCommand(c, "set", "evaluation of meta-command failed: " + ctx.error);
            return false;
        }
        if (!cmd.setNameValid && !c.vars.defined(cmd.setVar)) {
            abortInCommand(c, "set", "assignment of meta-command failed: set: invalid variable name: \"" + cmd.setName + "\"");
            return false;
        }
        c.vars.setValue(cmd.setVar, value);
        ++c.command;
        return true;
    case Command::Kind::Sleep: {
        int64_t amount = cmd.sleepAmount;
        if (cmd.sleepVar >= 0) {
            const char* text = c.vars.text(cmd.sleepVar);
            if (!text) {
                abortInCommand(c, "sleep", "execution of meta-command failed: sleep: undefined variable \"" +
                                               spec_.workload.vars.name(cmd.sleepVar) + "\"");
                return false;
            }
            amount = std::atoi(text);
            if (amount == 0 && !std::isdigit(static_cast<unsigned char>(text[0]))) {
                abortInCommand(c, "sleep", std::string("execution of meta-command failed: sleep: invalid sleep time \"") + text +
                                               "\" for variable \"" + spec_.workload.vars.name(cmd.sleepVar) + "\"");
                return false;
            }
        }
        ++c.command;
        wakeAt(c, monotonicNs() + amount * cmd.sleepUnitUs * 1000, false);
        return false;
    }
    case Command::Kind::If:
    case Command::Kind::Elif: {
        if (cmd.kind == Command::Kind::Elif && !entering) {
            c.command = static_cast<size_t>(cmd.endif) + 1;  // a branch before it ran
            return true;
        }
        if (!evaluate(cmd.expr, ctx, value)) {
            abortInCommand(c, cmd.kind == Command::Kind::If ? "if" : "elif", "evaluation of meta-command failed: " + ctx.error);
            return false;
        }
        if (valueTruth(value)) {
            ++c.command;
        } else {
            c.command = static_cast<size_t>(cmd.next);
            c.entering = true;
        }
        return true;
    }
    case Command::Kind::Else:
        c.command = entering ? c.command + 1 : static_cast<size_t>(cmd.endif) + 1;
        return true;
    case Command::Kind::Endif:
        ++c.command;
        return true;
    case Command::Kind::SetShell:
    case Command::Kind::Shell:
        if (!runShell(c, cmd)) return false;
        ++c.command;
        return true;
    case Command::Kind::StartPipeline:
        if (spec_.mode == QueryMode::Simple) {
            abortInCommand(c, "startpipeline", "cannot use pipeline mode with the simple query protocol");
            return false;
        }
        if (PQpipelineStatus(c.conn) != PQ_PIPELINE_OFF) {
            abortInCommand(c, "startpipeline", "already in pipeline mode");
            return false;
        }
        if (PQenterPipelineMode(c.conn) != 1) {
            abortInCommand(c, "startpipeline", "failed to enter pipeline mode");
            return false;
        }
        ++c.command;
        return true;
    case Command::Kind::SyncPipeline:
    case Command::Kind::EndPipeline: {
        const char* name = cmd.kind == Command::Kind::SyncPipeline ? "syncpipeline" : "endpipeline";
        if (PQpipelineStatus(c.conn) != PQ_PIPELINE_ON) {
            abortInCommand(c, name, "not in pipeline mode");
            return false;
        }
        if (PQpipelineSync(c.conn) != 1) {
            abortInCommand(c, name, "failed to send a pipeline sync");
            return false;
        }
        ++c.syncs;
        int flushed = PQflush(c.conn);
        if (flushed < 0) {
            lose(c, PQerrorMessage(c.conn));
            return false;
        }
        setNeedFlush(c, flushed == 1);
        if (cmd.kind == Command::Kind::SyncPipeline) {
            ++c.command;
            return true;
        }
        c.draining = true;  // read every result up to the last sync
        c.sqlstate[0] = '\0';
        c.query = 0;
        c.phase = Client::Phase::Waiting;
        // Results that came while the client slept are already read from the socket.
        if (!PQisBusy(c.conn)) processResults(c);
        return false;
    }
    case Command::Kind::Sql: break;
    }
    return true;
}

// pgbench's runShellCommand(): the words joined by spaces, ":name" replaced by the variable;
// \setshell reads one integer from the command's output.
bool Worker::runShell(Client& c, const Command& cmd) {
    const char* name = cmd.kind == Command::Kind::SetShell ? "setshell" : "shell";
    const char* program = cmd.shellWords[0].c_str();  // pgbench's messages name the command run
    std::string command;
    for (size_t k = 0; k < cmd.shellWords.size(); ++k) {
        const char* word = cmd.shellWords[k].c_str();
        if (cmd.shellVars[k] >= 0) {
            word = c.vars.text(cmd.shellVars[k]);
            if (!word) {
                abortInCommand(c, name, std::string("execution of meta-command failed: ") + program + ": undefined variable \"" +
                                            cmd.shellWords[k] + "\"");
                return false;
            }
        }
        if (k > 0) command += ' ';
        command += word;
    }
    if (command.size() >= 1023) {  // pgbench's SHELL_COMMAND_SIZE
        abortInCommand(c, name, std::string("execution of meta-command failed: ") + program + ": shell command is too long");
        return false;
    }
    fflush(nullptr);
    if (cmd.kind == Command::Kind::Shell) {
        if (std::system(command.c_str()) != 0) {
            abortInCommand(c, name, std::string("execution of meta-command failed: ") + program + ": could not launch shell command");
            return false;
        }
        return true;
    }
    FILE* fp = popen(command.c_str(), "r");
    if (!fp) {
        abortInCommand(c, name, std::string("execution of meta-command failed: ") + program + ": could not launch shell command");
        return false;
    }
    char res[64];
    bool read = std::fgets(res, sizeof res, fp) != nullptr;
    int closed = pclose(fp);
    if (!read) {
        abortInCommand(c, name, std::string("execution of meta-command failed: ") + program + ": could not read result of shell command");
        return false;
    }
    if (closed < 0) {
        abortInCommand(c, name, std::string("execution of meta-command failed: ") + program + ": could not run shell command");
        return false;
    }
    char* end = nullptr;
    long v = std::strtol(res, &end, 10);
    while (*end && std::isspace(static_cast<unsigned char>(*end))) ++end;
    if (res[0] == '\0' || *end != '\0') {
        std::string out = res;
        abortInCommand(c, name, std::string("execution of meta-command failed: ") + name +
                                    ": shell command must return an integer (not \"" + out + "\")");
        return false;
    }
    if (!cmd.setNameValid && !c.vars.defined(cmd.setVar)) {
        abortInCommand(c, name, "execution of meta-command failed: setshell: invalid variable name: \"" + cmd.setName + "\"");
        return false;
    }
    c.vars.setValue(cmd.setVar, ScriptValue::integer(static_cast<int>(v)));  // pgbench keeps an int
    return true;
}

bool Worker::send(Client& c, const Command& cmd, int scriptIndex, int commandIndex) {
    const SqlCommand& sql = cmd.sql;
    size_t n = sql.vars.size();
    for (size_t k = 0; k < n; ++k) c.paramPtrs[k] = c.vars.text(sql.vars[k]);  // nullptr (SQL NULL) when undefined
    int ok = 0;
    switch (spec_.mode) {
    case QueryMode::Simple:
        // A variable that is not defined stays as written, as pgbench's assignVariables().
        c.sql.clear();
        for (size_t k = 0; k < n; ++k) {
            c.sql.append(sql.pieces[k]);
            if (c.paramPtrs[k]) c.sql.append(c.paramPtrs[k]);
            else c.sql.append(":").append(spec_.workload.vars.name(sql.vars[k]));
        }
        c.sql.append(sql.pieces[n]);
        ok = PQsendQuery(c.conn, c.sql.c_str());
        break;
    case QueryMode::Extended:
        ok = PQsendQueryParams(c.conn, sql.parameterized.c_str(), static_cast<int>(n), nullptr, c.paramPtrs.data(),
                               nullptr, nullptr, 0);
        break;
    case QueryMode::Prepared:
        ok = PQsendQueryPrepared(c.conn, statementNames_[static_cast<size_t>(scriptIndex)][static_cast<size_t>(commandIndex)].c_str(),
                                 static_cast<int>(n), c.paramPtrs.data(), nullptr, nullptr, 0);
        break;
    }
    // In a pipeline the queries stay in libpq's buffer until the sync (one send for all of them,
    // as pgbench); otherwise out now.
    bool pipelined = PQpipelineStatus(c.conn) != PQ_PIPELINE_OFF;
    int flushed = !ok ? -1 : pipelined ? 0 : PQflush(c.conn);
    if (flushed < 0) {
        lose(c, PQerrorMessage(c.conn));
        return false;
    }
    if (!pipelined) setNeedFlush(c, flushed == 1);
    c.sqlstate[0] = '\0';
    c.query = 0;
    return true;
}

void Worker::onReadable(Client& c) {
    if (!PQconsumeInput(c.conn)) {
        lose(c, PQerrorMessage(c.conn));
        return;
    }
    if (c.needFlush) {
        int flushed = PQflush(c.conn);
        if (flushed < 0) {
            lose(c, PQerrorMessage(c.conn));
            return;
        }
        setNeedFlush(c, flushed == 1);
    }
    processResults(c);
}

// Every result libpq has complete, for the command the client waits on (or the pipeline it
// drains, or its ROLLBACK).
void Worker::processResults(Client& c) {
    const Command* cmd = c.rollingBack || c.draining ? nullptr
                         : &spec_.workload.scripts[static_cast<size_t>(c.script)].commands[c.command];
    SqlCommand::Store store = cmd ? cmd->sql.store : SqlCommand::Store::None;
    while (!PQisBusy(c.conn)) {
        PGresult* r = PQgetResult(c.conn);
        if (!r) {
            if (c.draining) continue;  // between two of the pipeline's queries
            if (c.pending) {
                PGresult* last = c.pending;
                c.pending = nullptr;
                bool stored = c.sqlstate[0] || storeResult(c, last, c.query - 1, true);
                PQclear(last);
                if (!stored) return;
            }
            commandDone(c);
            return;
        }
        ExecStatusType st = PQresultStatus(r);
        if (c.draining && st == PGRES_PIPELINE_SYNC) {
            PQclear(r);
            if (--c.syncs == 0) {
                c.draining = false;
                if (PQexitPipelineMode(c.conn) != 1) {
                    abortInCommand(c, "endpipeline", "failed to exit pipeline mode: " + chomp(PQerrorMessage(c.conn)));
                    return;
                }
                commandDone(c);
                return;
            }
            continue;
        }
        if (st == PGRES_FATAL_ERROR || st == PGRES_NONFATAL_ERROR) {
            if (!c.sqlstate[0]) {
                const char* state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
                std::strncpy(c.sqlstate, state ? state : "XX000", 5);
                c.sqlstate[5] = '\0';
                c.errorQuery = c.draining ? 0 : c.query;  // pgbench counts a pipeline's queries one by one
                c.errorMessage = PQresultErrorMessage(r);  // the error path may allocate
                while (!c.errorMessage.empty() && c.errorMessage.back() == '\n') c.errorMessage.pop_back();
                if (firstFailureMessage_.empty() && !c.rollingBack) firstFailureMessage_ = c.errorMessage;
            }
            if (c.pending) PQclear(c.pending);
            c.pending = nullptr;
            PQclear(r);
        } else if (st == PGRES_COPY_IN || st == PGRES_COPY_OUT || st == PGRES_COPY_BOTH) {
            PQclear(r);
            abortClient(c, "client " + std::to_string(c.id) + " script " + std::to_string(c.script) + " aborted in command " +
                               std::to_string(c.command) + ": COPY is not supported in pgbench, aborting");
            return;
        } else if (store == SqlCommand::Store::Gset && !c.sqlstate[0]) {
            if (c.pending) PQclear(c.pending);
            c.pending = r;  // stored if it proves to be the last
        } else {
            bool ok = store != SqlCommand::Store::Aset || c.sqlstate[0] || st != PGRES_TUPLES_OK || PQntuples(r) == 0 ||
                      storeResult(c, r, c.query, false);
            PQclear(r);
            if (!ok) return;
        }
        ++c.query;
    }
}

// \gset (the last result: exactly one row) or \aset (any result with rows): each column into
// the variable named by the prefix and the column name, as text. False when the client aborted.
bool Worker::storeResult(Client& c, const PGresult* r, int query, bool gset) {
    const SqlCommand& sql = spec_.workload.scripts[static_cast<size_t>(c.script)].commands[c.command].sql;
    auto metaError = [&](const std::string& what) {
        abortClient(c, "client " + std::to_string(c.id) + " script " + std::to_string(c.script) + " command " +
                           std::to_string(c.command) + " query " + std::to_string(query) + ": " + what);
        return false;
    };
    int rows = PQresultStatus(r) == PGRES_TUPLES_OK ? PQntuples(r) : 0;
    if (gset && rows != 1) return metaError("expected one row, got " + std::to_string(rows));
    for (int f = 0; f < PQnfields(r); ++f) {
        const char* column = PQfname(r, f);
        int slot = spec_.workload.vars.find(sql.prefix, column);
        if (slot < 0 || !c.vars.defined(slot)) {
            std::string name = sql.prefix + column;  // a new variable: pgbench checks its name
            if (!isValidVariableName(name))
                return metaError(std::string(gset ? "gset" : "aset") + ": invalid variable name: \"" + name +
                                 "\"; error storing into variable " + name);
            if (slot < 0) continue;  // no script reads it
        }
        c.vars.setText(slot, PQgetvalue(r, rows - 1, f));
    }
    return true;
}

void Worker::commandDone(Client& c) {
    if (c.rollingBack) {
        c.rollingBack = false;
        afterError(c);
        return;
    }
    if (c.sqlstate[0]) {
        // The server ended the session (pg_terminate_backend, shutdown) or the socket broke.
        if (PQstatus(c.conn) == CONNECTION_BAD || std::strncmp(c.sqlstate, "57P0", 4) == 0 ||
            std::strncmp(c.sqlstate, "08", 2) == 0) {
            lose(c, PQerrorMessage(c.conn));
            return;
        }
        bool retryable = std::strcmp(c.sqlstate, "40001") == 0 || std::strcmp(c.sqlstate, "40P01") == 0;
        if (!retryable) {
            // pgbench: any other SQL error aborts the client (its open transaction ends with
            // the connection); the other clients go on.
            const Script& script = spec_.workload.scripts[static_cast<size_t>(c.script)];
            std::string why = "client " + std::to_string(c.id) + " script " + std::to_string(c.script) + " aborted in command " +
                              std::to_string(c.command) + " query " + std::to_string(c.errorQuery) + ": " +
                              c.errorMessage + " (" + script.name + ":" + std::to_string(script.commands[c.command].line) + ")";
            if (!c.prepareError.empty()) why += "; preparing the script's statements failed: " + c.prepareError;
            abortClient(c, why);
            return;
        }
        if (spec_.verboseErrors)
            std::fprintf(stderr, "client %d got an error in command %zu (SQL) of script %d; %s\n", c.id, c.command, c.script,
                         c.errorMessage.c_str());
        PGTransactionStatusType tx = PQtransactionStatus(c.conn);
        if (tx == PQTRANS_INERROR || tx == PQTRANS_INTRANS) {
            c.rollingBack = true;
            char state[6];
            std::memcpy(state, c.sqlstate, sizeof state);
            int flushed = PQsendQuery(c.conn, "ROLLBACK") ? PQflush(c.conn) : -1;
            if (flushed < 0) {
                lose(c, PQerrorMessage(c.conn));
                return;
            }
            setNeedFlush(c, flushed == 1);
            std::memcpy(c.sqlstate, state, sizeof state);
            return;  // still Waiting, now for the ROLLBACK
        }
        afterError(c);
        return;
    }
    if (spec_.reportPerCommand) commandEnded(c, c.command, monotonicNs());
    ++c.command;
    c.phase = Client::Phase::Exec;
    advance(c);
}

void Worker::afterError(Client& c) {
    bool serialization = std::strcmp(c.sqlstate, "40001") == 0;
    bool deadlock = std::strcmp(c.sqlstate, "40P01") == 0;
    c.sqlstate[0] = '\0';
    int64_t now = monotonicNs();
    bool canRetry = (serialization || deadlock) && c.tries < spec_.maxTries &&
                    shared_.stop.load(std::memory_order_relaxed) == RunShared::kRunning && now < shared_.deadlineNs;
    PhaseCounters* p = phaseAt(now);
    if (spec_.verboseErrors) {
        std::string tries = std::to_string(c.tries) + (spec_.maxTries ? "/" + std::to_string(spec_.maxTries) : "");
        std::fprintf(stderr, "client %d %s (try %s)\n", c.id,
                     canRetry ? "repeats the transaction after the error" : "ends the failed transaction", tries.c_str());
    }
    if (spec_.reportPerCommand && p == &phases_[1]) {
        auto& st = commandStats_[static_cast<size_t>(c.script)][c.command];
        ++(canRetry ? st.retries : st.failures);
    }
    if (canRetry) {
        // Same script, same random values: pgbench's retry replays the transaction exactly.
        ++c.tries;
        if (p) PhaseCounters::bump(p->retries);
        c.rng.restore(c.rngAtStart);
        c.command = 0;
        c.phase = Client::Phase::Exec;
        advance(c);
        return;
    }
    if (p) {
        PhaseCounters::bump(serialization ? p->serializationFailures : deadlock ? p->deadlockFailures : p->otherFailures);
        if (c.tries > 1) PhaseCounters::bump(p->retriedTransactions);
    }
    ++c.transactionsDone;
    if (log_) logTransaction(c, now, 0, serialization ? "serialization" : deadlock ? "deadlock" : "other");
    if (spec_.connectPerTransaction) disconnect(c);
    nextTransactionLater(c);
}

// -r: one more completed execution of a command, in the counted window.
void Worker::commandEnded(const Client& c, size_t command, int64_t now) {
    if (phaseAt(now) != &phases_[1]) return;
    auto& st = commandStats_[static_cast<size_t>(c.script)][command];
    ++st.count;
    st.sumNs += now - c.commandStartNs;
}

// -C: each transaction opens its connection with libpq's non-blocking connect, driven by the
// event loop like everything else (pgbench connects blocking, stalling its other clients); in
// prepared mode the statements go to the new connection in one pipeline before the
// transaction starts. The time from the start of the connect is -C's connection time.
void Worker::startConnect(Client& c) {
    c.connectStartNs = monotonicNs();
    const char* keys[] = {"dbname", "fallback_application_name", nullptr};
    const char* values[] = {spec_.conninfo.c_str(), kLoadApplicationName, nullptr};
    c.conn = PQconnectStartParams(keys, values, 1);
    if (!c.conn || PQstatus(c.conn) == CONNECTION_BAD) {
        connectFailed(c, c.conn ? chomp(PQerrorMessage(c.conn)) : "out of memory");
        return;
    }
    c.phase = Client::Phase::Connecting;
    c.preparing = false;
    watchFor(c, EPOLLOUT);
}

void Worker::connectStep(Client& c) {
    if (c.preparing) {
        if (!PQconsumeInput(c.conn) || (c.needFlush && PQflush(c.conn) < 0)) {
            connectFailed(c, chomp(PQerrorMessage(c.conn)));
            return;
        }
        while (!PQisBusy(c.conn)) {
            PGresult* r = PQgetResult(c.conn);
            if (!r) continue;  // between two statements
            ExecStatusType st = PQresultStatus(r);
            if (st == PGRES_FATAL_ERROR && c.prepareError.empty())
                c.prepareError = chomp(PQresultErrorMessage(r));  // the statement stays unprepared, as pgbench's
            PQclear(r);
            if (st == PGRES_PIPELINE_SYNC) {
                PQexitPipelineMode(c.conn);
                c.preparing = false;
                setNeedFlush(c, false);
                connectionNs_ += monotonicNs() - c.connectStartNs;
                c.phase = Client::Phase::Start;
                advance(c);
                return;
            }
        }
        return;
    }
    switch (PQconnectPoll(c.conn)) {
    case PGRES_POLLING_FAILED: connectFailed(c, chomp(PQerrorMessage(c.conn))); return;
    case PGRES_POLLING_READING: watchFor(c, EPOLLIN); return;
    case PGRES_POLLING_WRITING: watchFor(c, EPOLLOUT); return;
    default: break;
    }
    PQsetNoticeProcessor(c.conn, keepNotice, c.lastNotice);
    PQsetnonblocking(c.conn, 1);
    watchFor(c, EPOLLIN);
    if (spec_.mode == QueryMode::Prepared) {
        int flushed = queuePrepares(c.conn, statements_) ? PQflush(c.conn) : -1;
        if (flushed < 0) {
            connectFailed(c, "cannot send the statements to prepare: " + chomp(PQerrorMessage(c.conn)));
            return;
        }
        setNeedFlush(c, flushed == 1);
        c.preparing = true;
        return;
    }
    connectionNs_ += monotonicNs() - c.connectStartNs;
    c.phase = Client::Phase::Start;
    advance(c);
}

void Worker::connectFailed(Client& c, const std::string& why) {
    connectionNs_ += monotonicNs() - c.connectStartNs;
    abortClient(c, "client " + std::to_string(c.id) + " aborted while establishing connection: " + why);
}

void Worker::disconnect(Client& c) {
    int64_t start = monotonicNs();
    if (c.conn) PQfinish(c.conn);
    c.conn = nullptr;
    connectionNs_ += monotonicNs() - start;
}

// -l: PREFIX.PID for the first thread, PREFIX.PID.THREAD for the others (pgbench's names).
void Worker::openLog() {
    const auto& l = *spec_.log;
    std::string path = l.prefix + "." + std::to_string(l.pid ? l.pid : static_cast<int>(getpid()));
    if (index_ > 0) path += "." + std::to_string(index_);
    log_ = std::fopen(path.c_str(), "w");
    if (!log_) {
        shared_.fail("could not open logfile \"" + path + "\": " + std::strerror(errno));
        return;
    }
    timespec real{}, mono{};
    clock_gettime(CLOCK_REALTIME, &real);
    clock_gettime(CLOCK_MONOTONIC, &mono);
    epochShiftNs_ = (static_cast<int64_t>(real.tv_sec) - mono.tv_sec) * 1000000000 + (real.tv_nsec - mono.tv_nsec);
    // The first interval starts at the whole second of the start, as pgbench's.
    agg_ = Aggregate{};
    agg_.startUs = (shared_.startNs + epochShiftNs_) / 1000000000 * 1000000;
}

// One ended transaction, in pgbench's log format: a line of its own, or into the interval's
// aggregate. outcome: nullptr (committed), "skipped", or the failure's kind.
void Worker::logTransaction(const Client& c, int64_t nowNs, int64_t latencyNs, const char* outcome) {
    const auto& l = *spec_.log;
    if (l.samplingRate > 0 && sampleRng_.uniform() > l.samplingRate) return;
    int64_t nowUs = (nowNs + epochShiftNs_) / 1000;
    double latencyUs = static_cast<double>(latencyNs / 1000), lagUs = static_cast<double>(c.lagNs / 1000);
    bool skipped = outcome && std::strcmp(outcome, "skipped") == 0;
    if (l.aggregateIntervalS > 0) {
        writeAggregates(nowUs);
        Aggregate& a = agg_;
        if (skipped) {
            ++a.skipped;
            return;
        }
        if (c.tries > 1) {
            a.retries += static_cast<uint64_t>(c.tries - 1);
            ++a.retried;
        }
        if (!outcome) {
            a.min = a.count == 0 || latencyUs < a.min ? latencyUs : a.min;
            a.max = a.count == 0 || latencyUs > a.max ? latencyUs : a.max;
            a.sum += latencyUs;
            a.sum2 += latencyUs * latencyUs;
            if (spec_.rate > 0) {
                a.lagMin = a.count == 0 || lagUs < a.lagMin ? lagUs : a.lagMin;
                a.lagMax = a.count == 0 || lagUs > a.lagMax ? lagUs : a.lagMax;
                a.lagSum += lagUs;
                a.lagSum2 += lagUs * lagUs;
            }
            ++a.count;
        } else if (std::strcmp(outcome, "serialization") == 0) {
            ++a.serialization;
        } else if (std::strcmp(outcome, "deadlock") == 0) {
            ++a.deadlock;
        }
        return;
    }
    const char* shown = !outcome || skipped || spec_.failuresDetailed ? outcome : "failed";
    if (shown)
        std::fprintf(log_, "%d %lld %s %d %lld %lld", c.id, static_cast<long long>(c.transactionsDone), shown, c.script,
                     static_cast<long long>(nowUs / 1000000), static_cast<long long>(nowUs % 1000000));
    else
        std::fprintf(log_, "%d %lld %.0f %d %lld %lld", c.id, static_cast<long long>(c.transactionsDone), latencyUs, c.script,
                     static_cast<long long>(nowUs / 1000000), static_cast<long long>(nowUs % 1000000));
    if (spec_.rate > 0) std::fprintf(log_, " %.0f", outcome ? 0.0 : lagUs);
    if (spec_.maxTries != 1) std::fprintf(log_, " %d", c.tries - 1);
    std::fputc('\n', log_);
}

// --aggregate-interval: every interval that ended by `nowUs`, empty ones too, in pgbench 15's
// format: start, count, latency sum, sum of squares, min, max, the same four of the schedule
// lag, skipped, retried, retries, serialization and deadlock failures (fields pgbench fills
// only under -R, -L, --max-tries and --failures-detailed are 0 otherwise).
void Worker::writeAggregates(int64_t nowUs) {
    int64_t interval = static_cast<int64_t>(spec_.log->aggregateIntervalS) * 1000000;
    while (agg_.startUs + interval <= nowUs) {
        const Aggregate& a = agg_;
        bool tries = spec_.maxTries != 1, detailed = spec_.failuresDetailed;
        std::fprintf(log_, "%lld %llu %.0f %.0f %.0f %.0f %.0f %.0f %.0f %.0f %llu %llu %llu %llu %llu\n",
                     static_cast<long long>(a.startUs / 1000000), static_cast<unsigned long long>(a.count), a.sum, a.sum2,
                     a.min, a.max, a.lagSum, a.lagSum2, a.lagMin, a.lagMax,
                     static_cast<unsigned long long>(latencyLimitNs_ > 0 ? a.skipped : 0),
                     static_cast<unsigned long long>(tries ? a.retried : 0), static_cast<unsigned long long>(tries ? a.retries : 0),
                     static_cast<unsigned long long>(detailed ? a.serialization : 0),
                     static_cast<unsigned long long>(detailed ? a.deadlock : 0));
        int64_t next = agg_.startUs + interval;
        agg_ = Aggregate{};
        agg_.startUs = next;
    }
}

void Worker::finishTransaction(Client& c, int64_t now) {
    ++c.transactionsDone;
    int64_t latency = now - c.txStartNs;
    if (log_) logTransaction(c, now, latency, nullptr);
    PhaseCounters* p = phaseAt(now);
    if (!p) return;
    p->latency.record(static_cast<uint64_t>(latency));
    if (c.tries > 1) PhaseCounters::bump(p->retriedTransactions);
    if (latencyLimitNs_ > 0 && latency > latencyLimitNs_) PhaseCounters::bump(p->late);
    if (spec_.rate > 0) {
        // Schedule lag of committed transactions, recorded when they end (pgbench).
        uint64_t lag = static_cast<uint64_t>(c.lagNs);
        PhaseCounters::bump(p->lagCount);
        PhaseCounters::bump(p->lagSumNs, lag);
        if (lag > p->lagMaxNs.load(std::memory_order_relaxed)) p->lagMaxNs.store(lag, std::memory_order_relaxed);
    }
}

void Worker::lose(Client& c, const std::string& what) {
    std::string msg = what;
    if (std::strncmp(c.lastNotice, "FATAL:", 6) == 0) msg = std::string(c.lastNotice) + " (" + what + ")";
    while (!msg.empty() && msg.back() == '\n') msg.pop_back();
    size_t nl;
    while ((nl = msg.find('\n')) != std::string::npos) msg.replace(nl, 1, " ");
    while ((nl = msg.find('\t')) != std::string::npos) msg.erase(nl, 1);
    while ((nl = msg.find("  ")) != std::string::npos) msg.erase(nl, 1);
    abortClient(c, "client " + std::to_string(c.id) + " aborted: lost its connection to the server: " +
                       (msg.empty() ? std::string("connection closed") : msg));
}

void Worker::abortClient(Client& c, const std::string& why) {
    shared_.clientAborted(why);
    if (c.pending) PQclear(c.pending);
    c.pending = nullptr;
    if (c.conn) {
        PQfinish(c.conn);  // an open transaction ends with the session
        c.conn = nullptr;
    }
    markDone(c);
}

// pgbench's commandFailed(): "client N aborted in command K (name) of script S; why".
void Worker::abortInCommand(Client& c, const char* what, const std::string& why) {
    const Script& script = spec_.workload.scripts[static_cast<size_t>(c.script)];
    size_t at = std::min(c.command, script.commands.size() - 1);
    abortClient(c, "client " + std::to_string(c.id) + " aborted in command " + std::to_string(c.command) + " (" + what +
                       ") of script " + std::to_string(c.script) + "; " + why + " (" + script.name + ":" +
                       std::to_string(script.commands[at].line) + ")");
}

void Worker::cancelAndClose() {
    for (auto& c : clients_) {
        if (!c.conn) continue;
        if (c.phase == Client::Phase::Waiting && PQstatus(c.conn) == CONNECTION_OK &&
            PQtransactionStatus(c.conn) == PQTRANS_ACTIVE) {
            if (PGcancel* cancel = PQgetCancel(c.conn)) {
                char err[256];
                PQcancel(cancel, err, sizeof err);
                PQfreeCancel(cancel);
            }
        }
        PQfinish(c.conn);
        c.conn = nullptr;
    }
}

} // namespace scalelab
