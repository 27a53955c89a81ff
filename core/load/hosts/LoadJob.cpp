#include "load/hosts/LoadJob.h"

#include "util/JsonField.h"

namespace scalelab {
namespace {
template <class T>
T get(const nlohmann::json& j, const char* name) {
    return jsonField<T>(j, name, "load job");
}

nlohmann::json workloadJson(const Workload& w) {
    nlohmann::json scripts = nlohmann::json::array();
    for (const auto& s : w.scripts) scripts.push_back({{"name", s.name}, {"text", s.text}, {"weight", s.weight}});
    nlohmann::json defines = nlohmann::json::array();
    for (const auto& d : w.defines()) defines.push_back(w.vars.name(d.slot) + "=" + d.value);
    nlohmann::json j = {{"replay", w.replay}, {"defines", defines}};
    if (w.replay) {
        j["shuffle"] = w.shuffle;
        j["replay_source"] = w.replaySource;
        j["replay_text"] = w.replayFileText;
    } else {
        j["scripts"] = scripts;
    }
    return j;
}

Workload workloadFromJson(const nlohmann::json& j) {
    Workload w;
    if (get<bool>(j, "replay")) {
        w = Workload::replayText(get<std::string>(j, "replay_text"), get<std::string>(j, "replay_source"), get<bool>(j, "shuffle"));
    } else {
        for (const auto& s : get<nlohmann::json>(j, "scripts"))
            w.addScriptText(get<std::string>(s, "text"), get<std::string>(s, "name"), get<int>(s, "weight"));
    }
    for (const auto& d : get<nlohmann::json>(j, "defines")) w.define(d.get<std::string>());
    return w;
}
} // namespace

nlohmann::json loadJobJson(const LoadSpec& s) {
    nlohmann::json j = {{"conninfo", s.conninfo},
                        {"workload", workloadJson(s.workload)},
                        {"query_mode", queryModeName(s.mode)},
                        {"duration_s", s.durationS},
                        {"transactions_per_client", s.transactionsPerClient},
                        {"warmup_s", s.warmupS},
                        {"rate", s.rate},
                        {"latency_limit_ms", s.latencyLimitMs},
                        {"max_failed_pct", s.maxFailedPct},
                        {"max_tries", s.maxTries},
                        {"sample_interval_s", s.sampleIntervalS},
                        {"scale", s.scale},
                        {"vacuum", s.vacuum == RunVacuum::None ? "none" : s.vacuum == RunVacuum::All ? "all" : "pgbench"},
                        {"report_per_command", s.reportPerCommand},
                        {"connect_per_transaction", s.connectPerTransaction},
                        {"failures_detailed", s.failuresDetailed},
                        {"verbose_errors", s.verboseErrors},
                        {"continue_on_error", s.continueOnError},
                        {"engine", loadEngineName(s.engine)}};
    j["seed"] = s.seed ? nlohmann::json(*s.seed) : nlohmann::json(nullptr);
    return j;
}

LoadSpec loadSpecFromJob(const nlohmann::json& j) {
    LoadSpec s;
    s.conninfo = get<std::string>(j, "conninfo");
    s.workload = workloadFromJson(get<nlohmann::json>(j, "workload"));
    s.mode = parseQueryMode(get<std::string>(j, "query_mode"));
    s.durationS = get<double>(j, "duration_s");
    s.transactionsPerClient = get<int64_t>(j, "transactions_per_client");
    s.warmupS = get<double>(j, "warmup_s");
    s.rate = get<double>(j, "rate");
    s.latencyLimitMs = get<double>(j, "latency_limit_ms");
    s.maxFailedPct = get<double>(j, "max_failed_pct");
    s.maxTries = get<int>(j, "max_tries");
    s.sampleIntervalS = get<double>(j, "sample_interval_s");
    s.scale = get<int64_t>(j, "scale");
    std::string vacuum = get<std::string>(j, "vacuum");
    s.vacuum = vacuum == "none" ? RunVacuum::None : vacuum == "all" ? RunVacuum::All : RunVacuum::Pgbench;
    s.reportPerCommand = get<bool>(j, "report_per_command");
    s.connectPerTransaction = get<bool>(j, "connect_per_transaction");
    s.failuresDetailed = get<bool>(j, "failures_detailed");
    s.verboseErrors = get<bool>(j, "verbose_errors");
    s.continueOnError = j.value("continue_on_error", false);  // an agent older than the option sends none
    auto engine = loadEngineFromName(j.value("engine", std::string("auto")));
    if (!engine) throw Error("the job's engine is not auto, wire or libpq: " + j.value("engine", std::string()));
    s.engine = *engine;
    if (!j["seed"].is_null()) s.seed = get<uint64_t>(j, "seed");
    return s;
}

} // namespace scalelab
