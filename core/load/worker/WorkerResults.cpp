// A worker's SQL commands: sending them (simple, extended or prepared), reading their results
// (\gset, \aset, pipelines), a command's end, errors, retries and -r's per-command times.
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

void Worker::substitute(Client& c, const SqlCommand& sql) {
    size_t n = sql.vars.size();
    for (size_t k = 0; k < n; ++k) paramPtrs_[k] = c.vars.text(sql.vars[k]);  // nullptr (SQL NULL) when undefined
    if (spec_.mode != QueryMode::Simple) return;
    // A variable that is not defined stays as written, as pgbench's assignVariables().
    sql_.clear();
    for (size_t k = 0; k < n; ++k) {
        sql_.append(sql.pieces[k]);
        if (paramPtrs_[k]) sql_.append(paramPtrs_[k]);
        else sql_.append(":").append(spec_.workload.vars.name(sql.vars[k]));
    }
    sql_.append(sql.pieces[n]);
}

bool Worker::send(Client& c, const Command& cmd, int scriptIndex, int commandIndex) {
    const SqlCommand& sql = cmd.sql;
    size_t n = sql.vars.size();
    substitute(c, sql);
    // The wire engine rebuilds the text for an error's cursor; \aset may change the values
    // before a later statement of the command fails, so that command's text is kept.
    if (c.wire && spec_.mode == QueryMode::Simple && sql.store == SqlCommand::Store::Aset) c.seldom().asetSql = sql_;
    const std::string& statement = statementNames_[static_cast<size_t>(scriptIndex)][static_cast<size_t>(commandIndex)];
    int ok = 1;
    if (c.wire) {
        queueWire(c, cmd, scriptIndex, commandIndex);
    } else {
        switch (spec_.mode) {
        case QueryMode::Simple: ok = PQsendQuery(c.conn, sql_.c_str()); break;
        case QueryMode::Extended:
            ok = PQsendQueryParams(c.conn, sql.parameterized.c_str(), static_cast<int>(n), nullptr, paramPtrs_.data(),
                                   nullptr, nullptr, 0);
            break;
        case QueryMode::Prepared:
            ok = PQsendQueryPrepared(c.conn, statement.c_str(), static_cast<int>(n), paramPtrs_.data(), nullptr, nullptr, 0);
            break;
        }
    }
    if (spec_.debug)  // what pgbench shows: the query as sent, its text with $n, or the statement's name
        debugLine("client %d sending %s", c.id,
                  spec_.mode == QueryMode::Simple     ? sql_.c_str()
                  : spec_.mode == QueryMode::Extended ? sql.parameterized.c_str()
                                                      : statement.c_str());
    // In a pipeline the queries stay in libpq's buffer until the sync (one send for all of them,
    // as pgbench); otherwise out now.
    bool pipelined = scriptsPipeline_ && PQpipelineStatus(c.conn) != PQ_PIPELINE_OFF;
    int flushed = !ok ? -1 : pipelined ? 0 : c.wire ? sendWire(c) : PQflush(c.conn);
    if (flushed < 0) {
        lose(c, connectionError(c));
        return false;
    }
    if (!pipelined) setNeedFlush(c, flushed == 1);
    c.sqlstate[0] = '\0';
    c.query = 0;
    return true;
}

void Worker::onReadable(Client& c) {
    if (c.wire) {
        wireReadable(c);
        return;
    }
    if (spec_.debug) debugLine("client %d receiving", c.id);
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
    const Command* cmd = c.phase != Client::Phase::Waiting ? nullptr  // Draining, RollingBack
                         : &spec_.workload.scripts[static_cast<size_t>(c.script)].commands[c.command];
    SqlCommand::Store store = cmd ? cmd->sql.store : SqlCommand::Store::None;
    while (!PQisBusy(c.conn)) {
        PGresult* r = PQgetResult(c.conn);
        if (!r) {
            if (c.phase == Client::Phase::Draining) continue;  // between two of the pipeline's queries
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
        if (c.phase == Client::Phase::Draining && st == PGRES_PIPELINE_SYNC) {
            PQclear(r);
            if (--c.syncs == 0) {
                c.phase = Client::Phase::Waiting;  // the pipeline's end, as a command's
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
                c.errorQuery = c.phase == Client::Phase::Draining ? 0 : c.query;  // pgbench counts a pipeline's queries one by one
                std::string& error = c.seldom().errorMessage;  // the error path may allocate
                error = PQresultErrorMessage(r);
                while (!error.empty() && error.back() == '\n') error.pop_back();
                if (firstFailureMessage_.empty() && c.phase != Client::Phase::RollingBack) firstFailureMessage_ = error;
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
template <class NameAt, class ValueAt>
bool Worker::storeRow(Client& c, int query, bool gset, int rows, int fields, NameAt nameAt, ValueAt valueAt) {
    const SqlCommand& sql = spec_.workload.scripts[static_cast<size_t>(c.script)].commands[c.command].sql;
    auto metaError = [&](const std::string& what) {
        abortClient(c, "client " + std::to_string(c.id) + " script " + std::to_string(c.script) + " command " +
                           std::to_string(c.command) + " query " + std::to_string(query) + ": " + what);
        return false;
    };
    if (gset && rows != 1) return metaError("expected one row, got " + std::to_string(rows));
    for (int f = 0; f < fields; ++f) {
        const char* column = nameAt(f);
        int slot = spec_.workload.vars.find(sql.prefix, column);
        if (slot < 0 || !c.vars.defined(slot)) {
            std::string name = sql.prefix + column;  // a new variable: pgbench checks its name
            if (!isValidVariableName(name))
                return metaError(std::string(gset ? "gset" : "aset") + ": invalid variable name: \"" + name +
                                 "\"; error storing into variable " + name);
            if (slot < 0) continue;  // no script reads it
        }
        c.vars.setText(slot, valueAt(rows - 1, f));
    }
    return true;
}

bool Worker::storeResult(Client& c, const PGresult* r, int query, bool gset) {
    int rows = PQresultStatus(r) == PGRES_TUPLES_OK ? PQntuples(r) : 0;
    return storeRow(c, query, gset, rows, PQnfields(r), [&](int f) { return PQfname(r, f); },
                    [&](int row, int f) { return PQgetvalue(r, row, f); });
}

// The wire engine's result: the columns of its RowDescription and its last DataRow.
bool Worker::storeWireResult(Client& c, int query, bool gset, int rows) {
    const Client::Seldom& read = c.seldom();
    int fields = static_cast<int>(read.columns.size());
    if (rows > 0 && read.values.size() != read.columns.size()) {
        lose(c, "the server's row has " + std::to_string(read.values.size()) + " values for " + std::to_string(fields) + " columns");
        return false;
    }
    return storeRow(c, query, gset, rows, fields, [&](int f) { return read.columns[static_cast<size_t>(f)].c_str(); },
                    [&](int, int f) { return read.values[static_cast<size_t>(f)].c_str(); });
}

void Worker::commandDone(Client& c) {
    if (c.phase == Client::Phase::RollingBack) {
        afterError(c);
        return;
    }
    if (c.sqlstate[0]) {
        // The server ended the session (pg_terminate_backend, shutdown) or the socket broke.
        if (connectionBroken(c) || std::strncmp(c.sqlstate, "57P0", 4) == 0 || std::strncmp(c.sqlstate, "08", 2) == 0) {
            lose(c, connectionError(c));
            return;
        }
        bool retryable = std::strcmp(c.sqlstate, "40001") == 0 || std::strcmp(c.sqlstate, "40P01") == 0;
        if (!retryable && !spec_.continueOnError) {
            // pgbench: any other SQL error aborts the client (its open transaction ends with
            // the connection); the other clients go on. With --continue-on-error (pgbench 19)
            // it is rolled back and counted as an "other" failure below, as a serialization
            // failure past its last try is.
            const Script& script = spec_.workload.scripts[static_cast<size_t>(c.script)];
            std::string why = "client " + std::to_string(c.id) + " script " + std::to_string(c.script) + " aborted in command " +
                              std::to_string(c.command) + " query " + std::to_string(c.errorQuery) + ": " +
                              c.said(&Client::Seldom::errorMessage) + " (" + script.name + ":" + std::to_string(script.commands[c.command].line) + ")";
            const std::string& prepareError = c.said(&Client::Seldom::prepareError);
            if (!prepareError.empty()) why += "; preparing the script's statements failed: " + prepareError;
            abortClient(c, why);
            return;
        }
        if (spec_.verboseErrors)
            std::fprintf(stderr, "client %d got an error in command %zu (SQL) of script %d; %s\n", c.id, c.command, c.script,
                         c.said(&Client::Seldom::errorMessage).c_str());
        PGTransactionStatusType tx = txStatus(c);
        if (tx == PQTRANS_INERROR || tx == PQTRANS_INTRANS) {
            c.phase = Client::Phase::RollingBack;
            char state[6];
            std::memcpy(state, c.sqlstate, sizeof state);
            if (!sendRollback(c)) return;
            std::memcpy(c.sqlstate, state, sizeof state);
            return;
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
    // pgbench's doRetry: a serialization or deadlock failure, tries left (--max-tries 0: no
    // limit), no longer since the transaction's (scheduled) start than the latency limit, and
    // the run not over.
    bool triesLeft = spec_.maxTries == 0 || c.tries < spec_.maxTries;
    bool inTime = latencyLimitNs_ == 0 || now - c.txStartNs <= latencyLimitNs_;
    bool canRetry = (serialization || deadlock) && triesLeft && inTime &&
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
        if (ScriptStats* s = measuredScript(c, p)) ++s->retries;
        c.rng.restore(c.rngAtStart);
        c.command = 0;
        c.phase = Client::Phase::Exec;
        advance(c);
        return;
    }
    if (p) {
        PhaseCounters::bump(serialization ? p->serializationFailures : deadlock ? p->deadlockFailures : p->otherFailures);
        if (c.tries > 1) PhaseCounters::bump(p->retriedTransactions);
        if (ScriptStats* s = measuredScript(c, p)) {
            ++(serialization ? s->failures.serialization : deadlock ? s->failures.deadlock : s->failures.other);
            if (c.tries > 1) ++s->retriedTransactions;
        }
    }
    ++c.transactionsDone;
    if (terminalTimes_) c.thinkNs = thinkTime(c.script);
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

} // namespace scalelab
