// A worker's connections: all of them at once before the run, one per transaction under -C,
// and the statements prepared on each.
#include "load/worker/WorkerClient.h"

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
using worker_detail::chomp;

// A worker's clients connect a window at a time: libpq's non-blocking connect, polled together,
// so the server's session start-ups overlap instead of queueing behind one another, with at
// most kConnectingAtOnce in flight. The window keeps what a connection allocates only while it
// connects (its addresses, the exchange with the server) in the heap's holes that the
// connections before it left, as pgbench's one-at-a-time connects do; with every connection
// started at once those short-lived blocks sat between the lasting ones and cost resident
// pages per client (docs/performance.md, memory per client).
bool Worker::connectAll() {
    if (spec_.connectPerTransaction) return true;  // -C: each transaction connects (startConnect)
    // expand_dbname: the conninfo (key=value or URI) fills in everything it names; the
    // application_name lets the metrics wait for these sessions to end.
    const char* keys[] = {"dbname", "fallback_application_name", nullptr};
    const char* values[] = {spec_.conninfo.c_str(), kLoadApplicationName, nullptr};
    struct Connecting {
        Client* client;
        PostgresPollingStatusType polling;
    };
    std::vector<Connecting> connecting;
    connecting.reserve(kConnectingAtOnce);
    std::vector<pollfd> fds;
    size_t next = 0;
    while (next < clients_.size() || !connecting.empty()) {
        if (shared_.stop.load(std::memory_order_acquire) != RunShared::kRunning) return false;
        for (; next < clients_.size() && connecting.size() < kConnectingAtOnce; ++next) {
            Client& c = clients_[next];
            c.conn = PQconnectStartParams(keys, values, 1);
            if (!c.conn || PQstatus(c.conn) == CONNECTION_BAD) {
                shared_.fail("client " + std::to_string(c.id) + " could not connect: " +
                             chomp(c.conn ? PQerrorMessage(c.conn) : "out of memory"));
                return false;
            }
            connecting.push_back({&c, PGRES_POLLING_WRITING});
        }
        fds.clear();
        for (const auto& k : connecting)  // the socket can change while libpq tries the next host or address
            fds.push_back({PQsocket(k.client->conn), short(k.polling == PGRES_POLLING_READING ? POLLIN : POLLOUT), 0});
        int ready = poll(fds.data(), fds.size(), 100);
        if (ready < 0 && errno != EINTR) {
            shared_.fail(std::string("waiting for connections failed: ") + std::strerror(errno));
            return false;
        }
        size_t kept = 0;
        for (size_t k = 0; k < connecting.size(); ++k) {
            Connecting& one = connecting[k];
            if (ready > 0 && fds[k].revents) {
                one.polling = PQconnectPoll(one.client->conn);
                if (one.polling == PGRES_POLLING_FAILED) {
                    shared_.fail("client " + std::to_string(one.client->id) + " could not connect: " +
                                 chomp(PQerrorMessage(one.client->conn)));
                    return false;
                }
            }
            if (one.polling != PGRES_POLLING_OK) connecting[kept++] = one;
        }
        connecting.resize(kept);
    }
    for (auto& c : clients_) PQsetNoticeProcessor(c.conn, Client::keepNotice, &c);
    if (spec_.mode == QueryMode::Prepared && !prepareAll()) return false;
    for (auto& c : clients_) {
        if (PQsetnonblocking(c.conn, 1) != 0) {
            shared_.fail("client " + std::to_string(c.id) + ": cannot make the connection non-blocking");
            return false;
        }
    }
    for (auto& c : clients_) startWire(c);
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
                } else if (st != PGRES_COMMAND_OK && c.said(&Client::Seldom::prepareError).empty()) {
                    const Script& script = spec_.workload.scripts[p.script];
                    c.seldom().prepareError = script.name + ":" + std::to_string(script.commands[p.command].line) + ": " +
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
    watchFor(c, EPOLLOUT);
}

void Worker::connectStep(Client& c) {
    if (c.phase == Client::Phase::Preparing) {
        if (!PQconsumeInput(c.conn) || (c.needFlush && PQflush(c.conn) < 0)) {
            connectFailed(c, chomp(PQerrorMessage(c.conn)));
            return;
        }
        while (!PQisBusy(c.conn)) {
            PGresult* r = PQgetResult(c.conn);
            if (!r) continue;  // between two statements
            ExecStatusType st = PQresultStatus(r);
            if (st == PGRES_FATAL_ERROR && c.said(&Client::Seldom::prepareError).empty())
                c.seldom().prepareError = chomp(PQresultErrorMessage(r));  // the statement stays unprepared, as pgbench's
            PQclear(r);
            if (st == PGRES_PIPELINE_SYNC) {
                PQexitPipelineMode(c.conn);
                setNeedFlush(c, false);
                startWire(c);
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
    PQsetNoticeProcessor(c.conn, Client::keepNotice, &c);
    PQsetnonblocking(c.conn, 1);
    watchFor(c, EPOLLIN);
    if (spec_.mode == QueryMode::Prepared) {
        int flushed = queuePrepares(c.conn, statements_) ? PQflush(c.conn) : -1;
        if (flushed < 0) {
            connectFailed(c, "cannot send the statements to prepare: " + chomp(PQerrorMessage(c.conn)));
            return;
        }
        setNeedFlush(c, flushed == 1);
        c.phase = Client::Phase::Preparing;
        return;
    }
    startWire(c);
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
    c.wire = false;
    connectionNs_ += monotonicNs() - start;
}

} // namespace scalelab
