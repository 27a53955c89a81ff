#pragma once
// A completed run as the store keeps one, for tests that build experiments without a server.
#include "metrics/CpuProfile.h"
#include "metrics/WaitSampler.h"
#include "store/ExperimentStore.h"

#include <map>
#include <utility>
#include <vector>

#include <optional>
#include <string>

namespace scalelab::test {

inline RunRecord completedRun(const std::string& series, int clients, int repetition, double tps,
                              std::optional<int64_t> runIndex = {}) {
    RunRecord r;
    r.series = series;
    r.clients = clients;
    r.threads = 1;
    r.repetition = repetition;
    r.status = RunStatus::Completed;
    r.tps = tps;
    r.runIndex = runIndex;
    r.startedAt = r.endedAt = "2026-11-30T08:00:00Z";
    return r;
}

// A run of `transactions` in 10 s whose CPU profile holds `stacks` (folded, samples).
inline RunRecord profiledRun(const std::string& series, int repetition, uint64_t transactions,
                             const std::map<std::string, uint64_t>& stacks, int clients = 8,
                             std::optional<int64_t> runIndex = {}) {
    RunRecord r = completedRun(series, clients, repetition, static_cast<double>(transactions) / 10, runIndex);
    r.transactions = transactions;
    r.measuredSeconds = 10;
    CpuProfile p;
    p.source = "perf record -F 99 -e cpu-clock -g";
    p.hz = 99;
    p.seconds = 10;
    p.folded = stacks;
    for (const auto& [s, n] : stacks) p.samples += n;
    r.detail["system"]["cpu_profile"] = toJson(p);
    return r;
}

// The same run's waits: 100 samples that found the load's sessions so ("Lock:transactionid" ->
// samples), and a walwriter busy in 30.
inline void addWaits(RunRecord& r, const std::vector<std::pair<std::string, uint64_t>>& loadEvents,
                     const std::string& source = kActivitySource) {
    WaitProfile p;
    p.source = source;
    p.hz = 10;
    p.samples = 100;
    p.seconds = 9.9;
    for (const auto& [event, n] : loadEvents) {
        auto colon = event.find(':');
        std::string type = colon == std::string::npos ? event : event.substr(0, colon);
        std::string name = colon == std::string::npos ? event : event.substr(colon + 1);
        p.counts.push_back({kLoadBackends, type, name, "42", n});
    }
    p.counts.push_back({"walwriter", "IO", "WALWrite", "", 30});
    r.detail["system"]["waits"] = toJson(p);
}

} // namespace scalelab::test
