// A worker's -l transaction log, in pgbench's format: one line per transaction or per
// aggregation interval.
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
        } else if (std::strcmp(outcome, "other") == 0) {
            ++a.other;
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
// only under -R, -L, --max-tries and --failures-detailed are 0 otherwise); with
// --continue-on-error also pgbench 19's other failures.
void Worker::writeAggregates(int64_t nowUs) {
    int64_t interval = static_cast<int64_t>(spec_.log->aggregateIntervalS) * 1000000;
    while (agg_.startUs + interval <= nowUs) {
        const Aggregate& a = agg_;
        bool tries = spec_.maxTries != 1, detailed = spec_.failuresDetailed;
        std::fprintf(log_, "%lld %llu %.0f %.0f %.0f %.0f %.0f %.0f %.0f %.0f %llu %llu %llu %llu %llu",
                     static_cast<long long>(a.startUs / 1000000), static_cast<unsigned long long>(a.count), a.sum, a.sum2,
                     a.min, a.max, a.lagSum, a.lagSum2, a.lagMin, a.lagMax,
                     static_cast<unsigned long long>(latencyLimitNs_ > 0 ? a.skipped : 0),
                     static_cast<unsigned long long>(tries ? a.retried : 0), static_cast<unsigned long long>(tries ? a.retries : 0),
                     static_cast<unsigned long long>(detailed ? a.serialization : 0),
                     static_cast<unsigned long long>(detailed ? a.deadlock : 0));
        // pgbench 19 adds other_sql_failures as a 16th field; it exists only with
        // --continue-on-error here, so that a log keeps pgbench 15's 15 fields otherwise.
        if (spec_.continueOnError) std::fprintf(log_, " %llu", static_cast<unsigned long long>(detailed ? a.other : 0));
        std::fputc('\n', log_);
        int64_t next = agg_.startUs + interval;
        agg_ = Aggregate{};
        agg_.startUs = next;
    }
}

void Worker::finishTransaction(Client& c, int64_t now) {
    ++c.transactionsDone;
    if (terminalTimes_) c.thinkNs = thinkTime(c.script);
    int64_t latency = now - c.txStartNs;
    if (log_) logTransaction(c, now, latency, nullptr);
    PhaseCounters* p = phaseAt(now);
    if (!p) return;
    p->latency.record(static_cast<uint64_t>(latency));
    if (c.tries > 1) PhaseCounters::bump(p->retriedTransactions);
    if (scriptCommits_) PhaseCounters::bump(scriptCommits_[static_cast<size_t>(c.script)]);
    if (ScriptStats* s = measuredScript(c, p)) {
        s->latency.record(static_cast<uint64_t>(latency));
        if (c.tries > 1) ++s->retriedTransactions;
    }
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
    const std::string& notice = c.said(&Client::Seldom::lastNotice);
    if (notice.rfind("FATAL:", 0) == 0) msg = notice + " (" + what + ")";
    while (!msg.empty() && msg.back() == '\n') msg.pop_back();
    size_t nl;
    while ((nl = msg.find('\n')) != std::string::npos) msg.replace(nl, 1, " ");
    while ((nl = msg.find('\t')) != std::string::npos) msg.erase(nl, 1);
    while ((nl = msg.find("  ")) != std::string::npos) msg.erase(nl, 1);
    abortClient(c, "client " + std::to_string(c.id) + " aborted: lost its connection to the server: " +
                       (msg.empty() ? std::string("connection closed") : msg));
}

void Worker::abortClient(Client& c, const std::string& why) {
    shared_.clientAborted(why, index_);
    if (c.pending) PQclear(c.pending);
    c.pending = nullptr;
    if (c.conn) {
        PQfinish(c.conn);  // an open transaction ends with the session
        c.conn = nullptr;
        c.wire = false;
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
        if (Client::awaitsResults(c.phase) && PQstatus(c.conn) == CONNECTION_OK && txStatus(c) == PQTRANS_ACTIVE) {
            if (PGcancel* cancel = PQgetCancel(c.conn)) {
                char err[256];
                PQcancel(cancel, err, sizeof err);
                PQfreeCancel(cancel);
            }
        }
        PQfinish(c.conn);
        c.conn = nullptr;
        c.wire = false;
    }
}

} // namespace scalelab
