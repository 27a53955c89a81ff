#include "load/hosts/LoadResultJson.h"

#include "metrics/MetricsJson.h"
#include "util/Error.h"
#include "util/JsonField.h"

namespace scalelab {

// With no transaction there is no latency: null (missing), never 0.
nlohmann::json toJson(const LatencySummary& s) {
    auto ms = [&](double v) { return s.count ? nlohmann::json(v) : nlohmann::json(nullptr); };
    return {{"count", s.count}, {"mean_ms", ms(s.meanMs)}, {"stddev_ms", ms(s.stddevMs)}, {"min_ms", ms(s.minMs)},
            {"p50_ms", ms(s.p50Ms)}, {"p90_ms", ms(s.p90Ms)}, {"p95_ms", ms(s.p95Ms)}, {"p99_ms", ms(s.p99Ms)},
            {"p99_9_ms", ms(s.p999Ms)}, {"max_ms", ms(s.maxMs)}};
}

namespace {
nlohmann::json failureCountsJson(const FailureCounts& f) {
    return {{"serialization", f.serialization}, {"deadlock", f.deadlock}, {"other", f.other}, {"total", f.total()}};
}
} // namespace

nlohmann::json toJson(const LoadSample& s) {
    nlohmann::json j = {{"start_s", s.startS}, {"end_s", s.endS}, {"warmup", s.warmup}, {"transactions", s.transactions},
                        {"tps", s.tps}, {"latency", toJson(s.latency)}, {"failures", s.failures}, {"retries", s.retries},
                        {"skipped", s.skipped}};
    if (s.system) j["system"] = toJson(*s.system);
    if (s.histogram) j["histogram"] = toJson(*s.histogram);
    if (!s.scriptTransactions.empty()) j["script_transactions"] = s.scriptTransactions;
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
            {"failures", failureCountsJson(r.failures)},
            {"retries", r.retries},
            {"retried_transactions", r.retriedTransactions},
            {"first_error", r.firstErrorMessage},
            {"rate", r.rate},
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
    if (!r.scripts.empty()) {
        nlohmann::json scripts = nlohmann::json::array();
        for (const auto& s : r.scripts) {
            nlohmann::json one = {{"name", s.name},
                                  {"weight", s.weight},
                                  {"transactions", s.transactions},
                                  {"failures", failureCountsJson(s.failures)},
                                  {"retried_transactions", s.retriedTransactions},
                                  {"retries", s.retries},
                                  {"skipped", s.skipped},
                                  {"latency", toJson(s.latency)}};
            if (s.histogram) one["histogram"] = toJson(*s.histogram);
            scripts.push_back(one);
        }
        j["scripts"] = scripts;
    }
    if (!r.scriptSet.empty()) j["script_set"] = r.scriptSet;
    if (r.keyingThinking > 0) j["keying_thinking"] = r.keyingThinking;
    if (r.connectionSecondsTotal > 0) j["connection_seconds_total"] = r.connectionSecondsTotal;
    if (!r.engine.empty()) j["engine"] = r.engine;
    if (!r.engineWhy.empty()) j["engine_why"] = r.engineWhy;
    if (r.system) j["system"] = toJson(*r.system, false);
    if (r.histogram) j["histogram"] = toJson(*r.histogram);
    return j;
}

nlohmann::json toJson(const HistogramData& h) {
    nlohmann::json buckets = nlohmann::json::array();
    for (const auto& [index, n] : h.buckets) buckets.push_back({index, n});
    return {{"count", h.count}, {"sum_ns", h.sumNs}, {"sum_squares", h.sumSquares}, {"min_ns", h.minNs},
            {"max_ns", h.maxNs}, {"buckets", buckets}};
}

namespace {
template <class T>
T field(const nlohmann::json& j, const char* name) {
    return jsonField<T>(j, name, "load host result");
}

template <class T>
T fieldOr(const nlohmann::json& j, const char* name, T otherwise) {
    return j.contains(name) && !j[name].is_null() ? field<T>(j, name) : otherwise;
}
} // namespace

HistogramData histogramFromJson(const nlohmann::json& j) {
    HistogramData h;
    h.count = field<uint64_t>(j, "count");
    h.sumNs = field<uint64_t>(j, "sum_ns");
    h.sumSquares = field<double>(j, "sum_squares");
    h.minNs = field<uint64_t>(j, "min_ns");
    h.maxNs = field<uint64_t>(j, "max_ns");
    for (const auto& b : field<nlohmann::json>(j, "buckets")) {
        if (!b.is_array() || b.size() != 2) throw Error("load host result: a histogram bucket is not [index, count]");
        h.buckets.emplace_back(b[0].get<uint32_t>(), b[1].get<uint64_t>());
    }
    return h;
}

LoadSample loadSampleFromJson(const nlohmann::json& j) {
    LoadSample s;
    s.startS = field<double>(j, "start_s");
    s.endS = field<double>(j, "end_s");
    s.warmup = field<bool>(j, "warmup");
    s.transactions = field<uint64_t>(j, "transactions");
    s.tps = field<double>(j, "tps");
    s.failures = field<uint64_t>(j, "failures");
    s.retries = field<uint64_t>(j, "retries");
    s.skipped = field<uint64_t>(j, "skipped");
    if (j.contains("histogram")) {
        s.histogram = histogramFromJson(j["histogram"]);
        s.latency = LatencyHistogram::fromData(*s.histogram).summary();
    }
    if (j.contains("script_transactions")) {
        const nlohmann::json& per = j["script_transactions"];
        if (!per.is_array()) throw Error("load host result: a sample's script_transactions is not an array");
        for (const auto& n : per) {
            if (!n.is_number_unsigned()) throw Error("load host result: a sample's script_transactions holds " + n.dump());
            s.scriptTransactions.push_back(n.get<uint64_t>());
        }
    }
    return s;
}

namespace {
FailureCounts failureCountsFromJson(const nlohmann::json& j) {
    FailureCounts f;
    f.serialization = field<uint64_t>(j, "serialization");
    f.deadlock = field<uint64_t>(j, "deadlock");
    f.other = field<uint64_t>(j, "other");
    return f;
}
} // namespace

LatencySummary latencySummaryFromJson(const nlohmann::json& j) {
    LatencySummary s;
    s.count = field<uint64_t>(j, "count");
    s.meanMs = fieldOr<double>(j, "mean_ms", 0);
    s.stddevMs = fieldOr<double>(j, "stddev_ms", 0);
    s.minMs = fieldOr<double>(j, "min_ms", 0);
    s.p50Ms = fieldOr<double>(j, "p50_ms", 0);
    s.p90Ms = fieldOr<double>(j, "p90_ms", 0);
    s.p95Ms = fieldOr<double>(j, "p95_ms", 0);
    s.p99Ms = fieldOr<double>(j, "p99_ms", 0);
    s.p999Ms = fieldOr<double>(j, "p99_9_ms", 0);
    s.maxMs = fieldOr<double>(j, "max_ms", 0);
    return s;
}

ScriptReport scriptReportFromJson(const nlohmann::json& j) {
    ScriptReport s;
    s.name = field<std::string>(j, "name");
    s.weight = field<int>(j, "weight");
    s.transactions = field<uint64_t>(j, "transactions");
    s.failures = failureCountsFromJson(field<nlohmann::json>(j, "failures"));
    s.retriedTransactions = field<uint64_t>(j, "retried_transactions");
    s.retries = field<uint64_t>(j, "retries");
    s.skipped = field<uint64_t>(j, "skipped");
    s.latency = latencySummaryFromJson(field<nlohmann::json>(j, "latency"));
    if (j.contains("histogram")) {
        s.histogram = histogramFromJson(j["histogram"]);
        s.latency = LatencyHistogram::fromData(*s.histogram).summary();
    }
    if (s.latency.count != s.transactions)
        throw Error("load host result: script '" + s.name + "' has " + std::to_string(s.transactions) + " transactions but " +
                    std::to_string(s.latency.count) + " latencies");
    return s;
}

LoadResult loadResultFromJson(const nlohmann::json& j) {
    LoadResult r;
    std::string status = field<std::string>(j, "status");
    auto known = runStatusFromName(status);
    if (!known) throw Error("load host result: unknown status '" + status + "'");
    r.status = *known;
    r.error = field<std::string>(j, "error");
    r.workload = field<std::string>(j, "workload");
    r.scale = field<int64_t>(j, "scale");
    r.mode = parseQueryMode(field<std::string>(j, "query_mode"));
    r.clients = field<int>(j, "clients");
    r.threads = field<int>(j, "threads");
    r.seed = field<uint64_t>(j, "seed");
    r.connectSeconds = field<double>(j, "connect_s");
    r.measuredSeconds = field<double>(j, "measured_s");
    r.transactions = field<uint64_t>(j, "transactions");
    r.tps = field<double>(j, "tps");
    r.failures = failureCountsFromJson(field<nlohmann::json>(j, "failures"));
    r.retries = field<uint64_t>(j, "retries");
    r.retriedTransactions = field<uint64_t>(j, "retried_transactions");
    r.firstErrorMessage = field<std::string>(j, "first_error");
    r.rate = j.value("rate", 0.0);  // runs stored before the offered rate was kept: unthrottled
    r.lagMeanMs = field<double>(j, "lag_mean_ms");
    r.lagMaxMs = field<double>(j, "lag_max_ms");
    r.skipped = field<uint64_t>(j, "skipped");
    r.late = field<uint64_t>(j, "late");
    r.abortedClients = field<int>(j, "aborted_clients");
    r.firstAbort = field<std::string>(j, "first_abort");
    for (const auto& s : field<nlohmann::json>(j, "samples")) r.samples.push_back(loadSampleFromJson(s));
    for (const auto& h : fieldOr<nlohmann::json>(j, "housekeeping", nlohmann::json::array()))
        r.housekeeping.push_back({field<std::string>(h, "statement"), fieldOr<std::string>(h, "error", "")});
    for (const auto& c : fieldOr<nlohmann::json>(j, "commands", nlohmann::json::array())) {
        CommandReport one;
        one.script = field<int>(c, "script");
        one.command = field<int>(c, "command");
        one.text = field<std::string>(c, "text");
        one.count = field<uint64_t>(c, "count");
        one.failures = field<uint64_t>(c, "failures");
        one.retries = field<uint64_t>(c, "retries");
        one.meanMs = fieldOr<double>(c, "mean_ms", 0);
        r.commands.push_back(std::move(one));
    }
    for (const auto& s : fieldOr<nlohmann::json>(j, "scripts", nlohmann::json::array())) r.scripts.push_back(scriptReportFromJson(s));
    r.scriptSet = fieldOr<std::string>(j, "script_set", "");
    r.keyingThinking = fieldOr<double>(j, "keying_thinking", 0);
    r.connectionSecondsTotal = fieldOr<double>(j, "connection_seconds_total", 0);
    r.engine = fieldOr<std::string>(j, "engine", "");
    r.engineWhy = fieldOr<std::string>(j, "engine_why", "");
    if (j.contains("histogram")) {
        r.histogram = histogramFromJson(j["histogram"]);
        r.latency = LatencyHistogram::fromData(*r.histogram).summary();
    }
    return r;
}

} // namespace scalelab
