#include "load/data/TpccResults.h"

#include "load/data/TpccScripts.h"
#include "util/Format.h"

#include <cstdio>
#include <iterator>

namespace scalelab::tpcc {

bool isTprocc(const std::string& scriptSet) { return scriptSet == kScriptSet; }

namespace {
const ScriptReport* scriptNamed(const std::vector<ScriptReport>& scripts, const std::string& name) {
    for (const auto& s : scripts)
        if (s.name == name) return &s;
    return nullptr;
}

// The five transactions of the mix and the scripts that run each (New-Order's rollbacks are
// New-Orders too: clause 5.2.3 counts them in the mix).
struct Transaction {
    const char* title;
    const char* scripts[2];
    double targetPct;  // TPC-C's minimum mix as the weights give it
};
const Transaction kTransactions[] = {{"New-Order", {kNewOrderScript, kNewOrderRollbackScript}, 45.0},
                                     {"Payment", {kPaymentScript, nullptr}, 43.0},
                                     {"Order-Status", {kOrderStatusScript, nullptr}, 4.0},
                                     {"Delivery", {kDeliveryScript, nullptr}, 4.0},
                                     {"Stock-Level", {kStockLevelScript, nullptr}, 4.0}};

std::string ms(const LatencySummary& l, double v) { return l.count ? formatNumber("%.3f", v) : std::string("-"); }
} // namespace

std::optional<double> newOrdersPerMinute(const std::string& scriptSet, const std::vector<ScriptReport>& scripts,
                                         double measuredSeconds) {
    if (!isTprocc(scriptSet) || measuredSeconds <= 0) return std::nullopt;
    const ScriptReport* s = scriptNamed(scripts, kNewOrderScript);
    if (!s) return std::nullopt;
    return static_cast<double>(s->transactions) * 60.0 / measuredSeconds;
}

std::optional<double> sampleNewOrdersPerMinute(const std::string& scriptSet, const LoadSample& s) {
    if (!isTprocc(scriptSet) || s.scriptTransactions.size() != std::size(kScriptNames) || s.endS <= s.startS)
        return std::nullopt;
    return static_cast<double>(s.scriptTransactions[kNewOrderScriptIndex]) * 60.0 / (s.endS - s.startS);
}

std::optional<double> transactionsPerMinute(const std::string& scriptSet, std::optional<double> serverCommitsPerSec,
                                            std::optional<double> serverRollbacksPerSec) {
    if (!isTprocc(scriptSet) || !serverCommitsPerSec || !serverRollbacksPerSec) return std::nullopt;
    return (*serverCommitsPerSec + *serverRollbacksPerSec) * 60.0;
}

std::vector<std::string> reportLines(const LoadResult& r) {
    std::vector<std::string> out;
    if (!isTprocc(r.scriptSet)) return out;
    auto nopm = newOrdersPerMinute(r.scriptSet, r.scripts, r.measuredSeconds);
    std::optional<double> commits, rollbacks;
    if (r.system && r.system->server) commits = r.system->server->commits, rollbacks = r.system->server->rollbacks;
    auto tpm = transactionsPerMinute(r.scriptSet, commits, rollbacks);
    out.push_back("TPROC-C: NOPM = " + (nopm ? formatNumber("%.0f", *nopm) : std::string("-")) +
                  " (New-Order commits per minute), TPM = " +
                  (tpm ? formatNumber("%.0f", *tpm) + " (the server's commits + rollbacks per minute)"
                       : std::string("- (the server's counters were not read)")));
    const ScriptReport* committed = scriptNamed(r.scripts, kNewOrderScript);
    const ScriptReport* rolledBack = scriptNamed(r.scripts, kNewOrderRollbackScript);
    if (committed && rolledBack) {
        uint64_t orders = committed->transactions + rolledBack->transactions;
        out.push_back(" - New-Order rolled back on purpose (an unused item, clause 2.4.1.4): " +
                      std::to_string(rolledBack->transactions) + " of " + std::to_string(orders) + " (" +
                      (orders ? formatNumber("%.2f", 100.0 * static_cast<double>(rolledBack->transactions) / static_cast<double>(orders))
                              : std::string("-")) +
                      "%), not failures");
    }
    uint64_t all = 0;
    for (const auto& s : r.scripts) all += s.ended();
    char line[200];
    std::snprintf(line, sizeof line, " - %-13s %7s %7s %12s %9s %9s %9s %9s %9s", "transaction", "share", "target",
                  "committed", "failed", "p50 ms", "p95 ms", "p99 ms", "max ms");
    out.push_back(line);
    for (const Transaction& t : kTransactions) {
        uint64_t ended = 0, failed = 0;
        for (const char* name : t.scripts)
            if (const ScriptReport* s = name ? scriptNamed(r.scripts, name) : nullptr) ended += s->ended(), failed += s->failures.total();
        // Latency of the committed ones: New-Order's are the new_order script's.
        const ScriptReport* s = scriptNamed(r.scripts, t.scripts[0]);
        LatencySummary l = s ? s->latency : LatencySummary{};
        uint64_t done = s ? s->transactions : 0;
        std::string share = all ? formatNumber("%.2f%%", 100.0 * static_cast<double>(ended) / static_cast<double>(all)) : "-";
        std::snprintf(line, sizeof line, " - %-13s %7s %6.2f%% %12llu %9llu %9s %9s %9s %9s", t.title, share.c_str(), t.targetPct,
                      static_cast<unsigned long long>(done), static_cast<unsigned long long>(failed), ms(l, l.p50Ms).c_str(),
                      ms(l, l.p95Ms).c_str(), ms(l, l.p99Ms).c_str(), ms(l, l.maxMs).c_str());
        out.push_back(line);
    }
    return out;
}

} // namespace scalelab::tpcc
