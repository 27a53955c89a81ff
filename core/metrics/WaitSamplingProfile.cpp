#include "metrics/WaitSamplingProfile.h"

#include "metrics/WaitSampler.h"

namespace scalelab {

SamplingWindow samplingWindow(const SamplingCounts& start, const SamplingCounts& now, int referencePid,
                              const BackendClasses& classes) {
    SamplingWindow w;
    std::map<int, uint64_t>& sampledOf = w.sampledOf;
    for (const auto& [key, n] : now) {
        auto was = start.find(key);
        const uint64_t before = was == start.end() ? 0 : was->second;
        if (n < before) {
            w.error = "the pg_wait_sampling profile was reset during the window";
            return w;
        }
        if (n == before) continue;
        const uint64_t delta = n - before;
        const auto& [pid, type, event, queryId] = key;
        sampledOf[pid] += delta;
        if (pid == referencePid) continue;
        auto cls = classes.find(pid);
        const std::string backend = cls == classes.end() ? kShortLivedBackends : cls->second;
        if (backend.empty()) continue;
        const bool client = backend == kLoadBackends || backend == "other clients";
        if (!client && type == "Activity") continue;  // asleep in its main loop
        // Another client waiting for its client is idle as far as the profile can tell (the
        // extension cannot tell idle from idle in a transaction): a psql left open is no load.
        if (backend == "other clients" && type == "Client" && event == "ClientRead") continue;
        w.counts[{backend, type, event, queryId}] += delta;
    }
    for (const auto& [key, n] : start)  // the reference's count may not have moved at all
        if (now.find(key) == now.end()) {
            w.error = "the pg_wait_sampling profile was reset during the window";
            return w;
        }
    w.rounds = sampledOf[referencePid];
    if (w.rounds == 0) {
        w.error = "pg_wait_sampling's collector took no samples in the window";
        return w;
    }
    return w;
}

void addCpuSamples(SamplingWindow& w, const BackendClasses& classes, const std::map<int, AliveAt>& alive, int referencePid) {
    for (const auto& [pid, at] : alive) {
        auto cls = classes.find(pid);
        if (pid == referencePid || cls == classes.end() || cls->second.empty()) continue;
        if (at.sampled < at.rounds) w.counts[{cls->second, "CPU", "CPU", ""}] += at.rounds - at.sampled;
    }
}

} // namespace scalelab
