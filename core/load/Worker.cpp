#include "load/Worker.h"

#include "load/LoadRun.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <numeric>
#include <ctime>

namespace scalelab {

int64_t monotonicNs() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

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
    enum class Phase { Start, Throttled, Exec, Sleeping, Waiting, Done };
    int id = 0;
    PGconn* conn = nullptr;
    Phase phase = Phase::Start;
    int script = 0;
    size_t command = 0;
    int64_t txStartNs = 0;
    int64_t wakeNs = 0;
    bool scheduled = false;
    int64_t scheduledNs = 0;
    int64_t lagNs = 0;          // with a rate: how late this transaction started
    int64_t transactionsDone = 0;
    int tries = 0;
    bool needFlush = false;
    bool rollingBack = false;
    char sqlstate[6] = {0};     // of the failed command, "" when none
    std::string errorMessage;   // the server's words for that failure (error path only)
    Random rng;
    Random::State rngAtStart{};
    uint64_t replayPos = 0, replayStride = 1, replayOffset = 0;
    std::vector<int64_t> vars;
    std::vector<std::array<char, 24>> params;
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
    : index_(index), spec_(spec), shared_(shared), firstClient_(firstClient), clients_(static_cast<size_t>(clientCount)) {
    size_t maxParams = 1;
    for (const auto& s : spec.workload.scripts)
        for (const auto& c : s.commands) maxParams = std::max(maxParams, c.sql.vars.size());
    uint64_t nScripts = spec.workload.scripts.size();
    for (size_t i = 0; i < clients_.size(); ++i) {
        Client& c = clients_[i];
        c.id = firstClient + static_cast<int>(i);
        c.rng.reseed(spec.seed ^ (0x9e3779b97f4a7c15ull * static_cast<uint64_t>(c.id + 1)));
        c.vars.assign(spec.workload.vars.size(), 0);
        c.vars[VariableTable::kScale] = spec.scale;
        c.vars[VariableTable::kClientId] = c.id;
        c.vars[VariableTable::kRandomSeed] = static_cast<int64_t>(spec.seed);
        c.params.resize(maxParams);
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
    scheduleRng_.reseed(spec.seed ^ (0x5851f42d4c957f2dull * static_cast<uint64_t>(index + 1)));
    if (spec.rate > 0) {
        int threads = static_cast<int>(shared.wakeFds.size());
        meanScheduleGapNs_ = 1e9 * threads / spec.rate;
    }
    latencyLimitNs_ = static_cast<int64_t>(spec.latencyLimitMs * 1e6);
}

Worker::~Worker() {
    for (auto& c : clients_)
        if (c.conn) PQfinish(c.conn);
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
// connection gets all its Parse messages in one pipeline (one round trip, not one per
// statement), and all connections are sent before any answer is read, so they overlap.
bool Worker::prepareAll() {
    struct Prepared {
        size_t script, command;
    };
    std::vector<Prepared> statements;
    for (size_t s = 0; s < spec_.workload.scripts.size(); ++s) {
        const auto& cmds = spec_.workload.scripts[s].commands;
        for (size_t k = 0; k < cmds.size(); ++k)
            if (cmds[k].kind == Command::Kind::Sql) statements.push_back({s, k});
    }
    if (statements.empty()) return true;
    for (auto& c : clients_) {
        bool sent = PQenterPipelineMode(c.conn) == 1;
        for (const auto& p : statements) {
            const Command& cmd = spec_.workload.scripts[p.script].commands[p.command];
            sent = sent && PQsendPrepare(c.conn, statementNames_[p.script][p.command].c_str(), cmd.sql.parameterized.c_str(),
                                         static_cast<int>(cmd.sql.vars.size()), nullptr) == 1;
        }
        sent = sent && PQpipelineSync(c.conn) == 1 && PQflush(c.conn) == 0;
        if (!sent) {
            shared_.fail("client " + std::to_string(c.id) + ": cannot send the statements to prepare: " +
                         chomp(PQerrorMessage(c.conn)));
            return false;
        }
    }
    for (auto& c : clients_) {
        std::string firstError;
        for (const auto& p : statements) {
            PGresult* r = PQgetResult(c.conn);
            ExecStatusType st = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
            if (st != PGRES_COMMAND_OK && firstError.empty()) {
                const Script& script = spec_.workload.scripts[p.script];
                firstError = script.name + ":" + std::to_string(script.commands[p.command].line) +
                             ": cannot prepare the command: " + chomp(r ? PQresultErrorMessage(r) : PQerrorMessage(c.conn));
            }
            if (r) PQclear(r);
            if (r) PQclear(PQgetResult(c.conn));  // the NULL that ends each statement's results
        }
        PGresult* sync = PQgetResult(c.conn);
        bool synced = sync && PQresultStatus(sync) == PGRES_PIPELINE_SYNC;
        if (sync) PQclear(sync);
        if (!firstError.empty()) {
            shared_.fail(firstError);
            return false;
        }
        if (!synced || PQexitPipelineMode(c.conn) != 1) {
            shared_.fail("client " + std::to_string(c.id) + ": preparing the statements failed: " +
                         chomp(PQerrorMessage(c.conn)));
            return false;
        }
    }
    return true;
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

    bool connected = started && connectAll();
    {
        std::unique_lock<std::mutex> lock(shared_.mutex);
        ++shared_.workersReady;
        shared_.changed.notify_all();
        shared_.changed.wait(lock, [&] { return shared_.go || shared_.failed || shared_.stop.load() == RunShared::kAbandon; });
    }
    if (connected && shared_.go && shared_.stop.load(std::memory_order_acquire) != RunShared::kAbandon) {
        nextScheduleNs_ = shared_.startNs;
        loop();
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
    int64_t w = c.rng.between(0, cumulativeWeights_.back() - 1);
    return static_cast<int>(std::upper_bound(cumulativeWeights_.begin(), cumulativeWeights_.end(), w) -
                            cumulativeWeights_.begin());
}

void Worker::loop() {
    std::vector<pollfd> fds(clients_.size() + 1);
    std::vector<Client*> fdClient(clients_.size() + 1);
    int wakeFd = shared_.wakeFds[static_cast<size_t>(index_)];
    for (;;) {
        int stop = shared_.stop.load(std::memory_order_acquire);
        if (stop == RunShared::kAbandon) return;
        int64_t now = monotonicNs();
        int64_t wake = INT64_MAX;
        size_t n = 0;
        bool active = false;
        for (auto& c : clients_) {
            if ((c.phase == Client::Phase::Sleeping || c.phase == Client::Phase::Throttled) && now >= c.wakeNs)
                c.phase = c.phase == Client::Phase::Sleeping ? Client::Phase::Exec : Client::Phase::Start;
            if (c.phase == Client::Phase::Start || c.phase == Client::Phase::Exec) advance(c);
            if (shared_.stop.load(std::memory_order_relaxed) == RunShared::kAbandon) return;
            switch (c.phase) {
            case Client::Phase::Done: continue;
            case Client::Phase::Waiting:
                fds[n] = {PQsocket(c.conn), static_cast<short>(POLLIN | (c.needFlush ? POLLOUT : 0)), 0};
                fdClient[n++] = &c;
                break;
            default: wake = std::min(wake, c.wakeNs); break;
            }
            active = true;
        }
        if (!active) return;
        fds[n] = {wakeFd, POLLIN, 0};
        timespec timeout{};
        timespec* tp = nullptr;
        if (wake != INT64_MAX) {
            int64_t left = std::max<int64_t>(0, wake - monotonicNs());
            timeout.tv_sec = left / 1000000000;
            timeout.tv_nsec = left % 1000000000;
            tp = &timeout;
        }
        int ready = ppoll(fds.data(), n + 1, tp, nullptr);
        if (ready <= 0) continue;
        for (size_t i = 0; i < n; ++i)
            if (fds[i].revents) onReadable(*fdClient[i]);
        if (fds[n].revents) {
            uint64_t drained;
            (void)!read(wakeFd, &drained, sizeof drained);
        }
    }
}

void Worker::advance(Client& c) {
    const auto& scripts = spec_.workload.scripts;
    for (;;) {
        if (c.phase == Client::Phase::Start) {
            int64_t now = monotonicNs();
            bool stopping = shared_.stop.load(std::memory_order_relaxed) != RunShared::kRunning || now >= shared_.deadlineNs ||
                            (spec_.transactionsPerClient > 0 && c.transactionsDone >= spec_.transactionsPerClient);
            if (stopping) {
                c.phase = Client::Phase::Done;
                return;
            }
            if (spec_.rate > 0 && !c.scheduled) {
                // Poisson arrivals per thread, as pgbench's --rate.
                nextScheduleNs_ += static_cast<int64_t>(-std::log(1.0 - scheduleRng_.uniform()) * meanScheduleGapNs_);
                c.scheduledNs = nextScheduleNs_;
                c.scheduled = true;
                if (latencyLimitNs_ > 0) {
                    // A slot so late that it would miss the limit even if it ended at once is
                    // skipped, and counts as a transaction of the client (pgbench).
                    while (c.scheduledNs < now - latencyLimitNs_ &&
                           (spec_.transactionsPerClient <= 0 || c.transactionsDone < spec_.transactionsPerClient)) {
                        if (PhaseCounters* p = phaseAt(now)) PhaseCounters::bump(p->skipped);
                        ++c.transactionsDone;
                        nextScheduleNs_ += static_cast<int64_t>(-std::log(1.0 - scheduleRng_.uniform()) * meanScheduleGapNs_);
                        c.scheduledNs = nextScheduleNs_;
                    }
                    if (spec_.transactionsPerClient > 0 && c.transactionsDone >= spec_.transactionsPerClient) {
                        c.phase = Client::Phase::Done;
                        return;
                    }
                }
                // A start scheduled after the end of the run never happens: the client is done
                // now rather than sleeping into the time after the run.
                if (c.scheduledNs > shared_.deadlineNs) {
                    c.phase = Client::Phase::Done;
                    return;
                }
                if (c.scheduledNs > now) {
                    c.wakeNs = c.scheduledNs;
                    c.phase = Client::Phase::Throttled;
                    return;
                }
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
            finishTransaction(c, monotonicNs());
            if (!spec_.workload.replay && PQtransactionStatus(c.conn) != PQTRANS_IDLE) {
                abortClient(c, "client " + std::to_string(c.id) +
                                   " aborted: end of script reached without completing the last transaction (" +
                                   script.name + ")");
                return;
            }
            c.phase = Client::Phase::Start;
            continue;
        }
        const Command& cmd = script.commands[c.command];
        if (cmd.kind == Command::Kind::Sql) {
            if (send(c, cmd, c.script, static_cast<int>(c.command))) c.phase = Client::Phase::Waiting;
            return;
        }
        EvalError err;
        int64_t value = evaluate(cmd.expr, c.vars.data(), c.rng, err);
        if (err.what) {
            abortClient(c, "client " + std::to_string(c.id) + " aborted in command " + std::to_string(c.command) + " of script " +
                               std::to_string(c.script) + " (" + script.name + ":" + std::to_string(cmd.line) +
                               "): evaluation of meta-command failed: " + err.what);
            return;
        }
        ++c.command;
        if (cmd.kind == Command::Kind::Set) {
            c.vars[static_cast<size_t>(cmd.setVar)] = value;
        } else {
            c.wakeNs = monotonicNs() + std::max<int64_t>(0, value) * cmd.sleepUnitUs * 1000;
            c.phase = Client::Phase::Sleeping;
            return;
        }
    }
}

bool Worker::send(Client& c, const Command& cmd, int scriptIndex, int commandIndex) {
    const SqlCommand& sql = cmd.sql;
    size_t n = sql.vars.size();
    for (size_t k = 0; k < n; ++k) {
        snprintf(c.params[k].data(), c.params[k].size(), "%lld",
                 static_cast<long long>(c.vars[static_cast<size_t>(sql.vars[k])]));
        c.paramPtrs[k] = c.params[k].data();
    }
    int ok = 0;
    switch (spec_.mode) {
    case QueryMode::Simple:
        c.sql.clear();
        for (size_t k = 0; k < n; ++k) c.sql.append(sql.pieces[k]).append(c.params[k].data());
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
    int flushed = ok ? PQflush(c.conn) : -1;
    if (flushed < 0) {
        lose(c, PQerrorMessage(c.conn));
        return false;
    }
    c.needFlush = flushed == 1;
    c.sqlstate[0] = '\0';
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
        c.needFlush = flushed == 1;
    }
    while (!PQisBusy(c.conn)) {
        PGresult* r = PQgetResult(c.conn);
        if (!r) {
            commandDone(c);
            return;
        }
        if (PQresultStatus(r) == PGRES_FATAL_ERROR && !c.sqlstate[0]) {
            const char* state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
            std::strncpy(c.sqlstate, state ? state : "XX000", 5);
            c.sqlstate[5] = '\0';
            c.errorMessage = PQresultErrorMessage(r);  // the error path may allocate
            while (!c.errorMessage.empty() && c.errorMessage.back() == '\n') c.errorMessage.pop_back();
            if (firstFailureMessage_.empty() && !c.rollingBack) firstFailureMessage_ = c.errorMessage;
        }
        PQclear(r);
    }
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
            abortClient(c, "client " + std::to_string(c.id) + " script " + std::to_string(c.script) + " aborted in command " +
                               std::to_string(c.command) + " query 0: " + c.errorMessage + " (" +
                               spec_.workload.scripts[static_cast<size_t>(c.script)].name + ":" +
                               std::to_string(spec_.workload.scripts[static_cast<size_t>(c.script)].commands[c.command].line) + ")");
            return;
        }
        PGTransactionStatusType tx = PQtransactionStatus(c.conn);
        if (tx == PQTRANS_INERROR || tx == PQTRANS_INTRANS) {
            c.rollingBack = true;
            char state[6];
            std::memcpy(state, c.sqlstate, sizeof state);
            if (!PQsendQuery(c.conn, "ROLLBACK") || PQflush(c.conn) < 0) {
                lose(c, PQerrorMessage(c.conn));
                return;
            }
            std::memcpy(c.sqlstate, state, sizeof state);
            return;  // still Waiting, now for the ROLLBACK
        }
        afterError(c);
        return;
    }
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
    c.phase = Client::Phase::Start;
    advance(c);
}

void Worker::finishTransaction(Client& c, int64_t now) {
    ++c.transactionsDone;
    PhaseCounters* p = phaseAt(now);
    if (!p) return;
    int64_t latency = now - c.txStartNs;
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
    if (c.conn) {
        PQfinish(c.conn);  // an open transaction ends with the session
        c.conn = nullptr;
    }
    c.phase = Client::Phase::Done;
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
