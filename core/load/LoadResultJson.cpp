#include "load/LoadResultJson.h"

#include "metrics/MetricsJson.h"

namespace scalelab {

// With no transaction there is no latency: null (missing), never 0.
nlohmann::json toJson(const LatencySummary& s) {
    auto ms = [&](double v) { return s.count ? nlohmann::json(v) : nlohmann::json(nullptr); };
    return {{"count", s.count}, {"mean_ms", ms(s.meanMs)}, {"stddev_ms", ms(s.stddevMs)}, {"min_ms", ms(s.minMs)},
            {"p50_ms", ms(s.p50Ms)}, {"p90_ms", ms(s.p90Ms)}, {"p95_ms", ms(s.p95Ms)}, {"p99_ms", ms(s.p99Ms)},
            {"p99_9_ms", ms(s.p999Ms)}, {"max_ms", ms(s.maxMs)}};
}

nlohmann::json toJson(const LoadSample& s) {
    nlohmann::json j = {{"start_s", s.startS}, {"end_s", s.endS}, {"warmup", s.warmup}, {"transactions", s.transactions},
                        {"tps", s.tps}, {"latency", toJson(s.latency)}, {"failures", s.failures}, {"retries", s.retries},
                        {"skipped", s.skipped}};
    if (s.system) j["system"] = toJson(*s.system);
    return j;
}

nlohmann::json toJson(const LoadResult& r) {
    nlohmann::json samples = nlohmann::json::array();
    for (const auto& s : r.samples) samples.push_back(toJson(s));
    nlohmann::json j = {{"status", runStatusName(r.status)},
            {"error", r.error},
            {"workload", r.workload},
            {"scale", r.scale},
            {"query_mode", queryModeName(r.mode)},
            {"clients", r.clients},
            {"threads", r.threads},
            {"seed", r.seed},
            {"connect_s", r.connectSeconds},
            {"measured_s", r.measuredSeconds},
            {"transactions", r.transactions},
            {"tps", r.tps},
            {"latency", toJson(r.latency)},
            {"failures",
             {{"serialization", r.failures.serialization}, {"deadlock", r.failures.deadlock}, {"other", r.failures.other},
              {"total", r.failures.total()}}},
            {"retries", r.retries},
            {"retried_transactions", r.retriedTransactions},
            {"first_error", r.firstErrorMessage},
            {"lag_mean_ms", r.lagMeanMs},
            {"lag_max_ms", r.lagMaxMs},
            {"skipped", r.skipped},
            {"late", r.late},
            {"aborted_clients", r.abortedClients},
            {"first_abort", r.firstAbort},
            {"samples", samples}};
    nlohmann::json housekeeping = nlohmann::json::array();
    for (const auto& h : r.housekeeping) {
        nlohmann::json step = {{"statement", h.statement}};
        if (!h.error.empty()) step["error"] = h.error;
        housekeeping.push_back(step);
    }
    j["housekeeping"] = housekeeping;
    if (!r.commands.empty()) {  // -r
        nlohmann::json commands = nlohmann::json::array();
        for (const auto& c : r.commands) {
            nlohmann::json one = {{"script", c.script}, {"command", c.command}, {"text", c.text}, {"count", c.count},
                                  {"failures", c.failures}, {"retries", c.retries}};
            one["mean_ms"] = c.count ? nlohmann::json(c.meanMs) : nlohmann::json(nullptr);  // none ran: missing, not 0
            commands.push_back(one);
        }
        j["commands"] = commands;
    }
    if (r.connectionSecondsTotal > 0) j["connection_seconds_total"] = r.connectionSecondsTotal;
    if (r.system) j["system"] = toJson(*r.system, false);
    return j;
}

} // namespace scalelab
