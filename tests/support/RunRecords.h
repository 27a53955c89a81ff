#pragma once
// A completed run as the store keeps one, for tests that build experiments without a server.
#include "store/ExperimentStore.h"

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

} // namespace scalelab::test
