#include "metrics/MetricsJson.h"

namespace scalelab {

nlohmann::json toJson(const CpuUsage& u) {
    return {{"user", u.user},       {"nice", u.nice},   {"system", u.system}, {"iowait", u.iowait},
            {"irq", u.irq},         {"softirq", u.softirq}, {"steal", u.steal}, {"idle", u.idle}};
}

nlohmann::json toJson(const SystemSample& s, bool perPu) {
    nlohmann::json j;
    j["seconds"] = s.seconds;
    // A figure that could not be read is null, and "missing" says why (never a 0, issue 60.5).
    j["cpu"] = s.cpuMeasured() ? toJson(s.cpu.total) : nlohmann::json();
    if (!s.missing.empty()) j["missing"] = s.missing;
    j["slowest_reading_ms"] = s.slowestReadingMs;
    if (s.slowReadings) j["slow_readings"] = true;
    if (perPu && s.cpuMeasured()) {
        nlohmann::json pus = nlohmann::json::object();
        for (const auto& [pu, usage] : s.cpu.perPu) pus[std::to_string(pu)] = toJson(usage);
        j["cpu_per_pu"] = pus;
    }
    j["disks"] = nlohmann::json::array();
    for (const auto& d : s.disks)
        j["disks"].push_back({{"device", d.name}, {"r_s", d.readsPerSec}, {"w_s", d.writesPerSec}, {"rMB_s", d.readMBps},
                              {"wMB_s", d.writeMBps}, {"await_ms", d.awaitMs}, {"util_pct", d.utilPct}});
    j["load_generator_cpu_pct"] = s.loadGeneratorCpuPct ? nlohmann::json(*s.loadGeneratorCpuPct) : nlohmann::json();
    j["server_cpu_pct"] = s.serverCpuPct ? nlohmann::json(*s.serverCpuPct) : nlohmann::json();
    j["client_bound"] = s.clientBound;
    if (s.serverCountersReset) j["server_counters_reset"] = true;
    if (s.cpuPressure) j["pressure_cpu_some_pct"] = s.cpuPressure->somePct;
    if (s.ioPressure) {
        j["pressure_io_some_pct"] = s.ioPressure->somePct;
        j["pressure_io_full_pct"] = s.ioPressure->fullPct;
    }
    if (s.server) {
        const auto& r = *s.server;
        j["server"] = {{"commits_s", r.commits},         {"rollbacks_s", r.rollbacks},
                       {"blks_hit_s", r.blksHit},        {"blks_read_s", r.blksRead},
                       {"logical_reads_s", r.logicalReads}, {"tup_returned_s", r.tupReturned},
                       {"tup_fetched_s", r.tupFetched},  {"tup_inserted_s", r.tupInserted},
                       {"tup_updated_s", r.tupUpdated},  {"tup_deleted_s", r.tupDeleted},
                       {"deadlocks_s", r.deadlocks},     {"temp_bytes_s", r.tempBytes},
                       {"checkpoints_s", r.checkpoints}, {"buffers_checkpoint_s", r.buffersCheckpoint},
                       {"buffers_clean_s", r.buffersClean}, {"buffers_alloc_s", r.buffersAlloc},
                       {"commits", r.commitDelta},       {"own_counter_queries", r.ownStatements},
                       {"wait_events", r.waitEvents}};
    }
    if (s.statements) j["statements"] = toJson(*s.statements);
    if (s.waits) j["waits"] = toJson(*s.waits);
    if (s.cpuProfile) j["cpu_profile"] = toJson(*s.cpuProfile);
    return j;
}

nlohmann::json toJson(const StatementsWindow& w) {
    if (!w.unavailable.empty()) return {{"unavailable", w.unavailable}};
    if (w.reset) return {{"reset", true}};
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& d : w.rows) {
        nlohmann::json r = {{"queryid", std::to_string(d.queryId)},
                            {"calls", d.calls},
                            {"total_ms", d.totalMs},
                            {"mean_ms", d.meanMs},
                            {"rows", d.rows},
                            {"shared_blks_hit", d.blksHit},
                            {"shared_blks_read", d.blksRead},
                            {"shared_blks_dirtied", d.blksDirtied},
                            {"wal_bytes", d.walBytes ? nlohmann::json(*d.walBytes) : nlohmann::json()}};
        if (!d.query.empty()) r["query"] = d.query;
        rows.push_back(std::move(r));
    }
    nlohmann::json j = {{"rows", rows}};
    if (w.evicted && *w.evicted > 0) j["evicted"] = *w.evicted;
    return j;
}

} // namespace scalelab
