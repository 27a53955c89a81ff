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
    for (const auto& s : w.scripts) {
        nlohmann::json one = {{"name", s.name}, {"text", s.text}, {"weight", s.weight}};
        if (s.keyingS > 0 || s.thinkMeanS > 0) one["keying_s"] = s.keyingS, one["think_mean_s"] = s.thinkMeanS;
        scripts.push_back(one);
    }
    nlohmann::json defines = nlohmann::json::array();
    for (const auto& d : w.defines()) defines.push_back(w.vars.name(d.slot) + "=" + d.value);
    nlohmann::json j = {{"replay", w.replay}, {"defines", defines}};
    if (w.replay) {
        j["shuffle"] = w.shuffle;
        j["replay_source"] = w.replaySource;
        j["replay_text"] = w.replayFileText;
    } else {
        j["scripts"] = scripts;
        if (!w.scriptSet.empty()) j["script_set"] = w.scriptSet;  // the result's terms (NOPM) come with it
        if (w.keyingThinking > 0) j["keying_thinking"] = w.keyingThinking;
    }
    return j;
}

Workload workloadFromJson(const nlohmann::json& j) {
    Workload w;
    if (get<bool>(j, "replay")) {
        w = Workload::replayText(get<std::string>(j, "replay_text"), get<std::string>(j, "replay_source"), get<bool>(j, "shuffle"));
    } else {
        for (const auto& s : get<nlohmann::json>(j, "scripts")) {
            w.addScriptText(get<std::string>(s, "text"), get<std::string>(s, "name"), get<int>(s, "weight"));
            if (s.contains("keying_s")) w.scripts.back().keyingS = get<double>(s, "keying_s");
            if (s.contains("think_mean_s")) w.scripts.back().thinkMeanS = get<double>(s, "think_mean_s");
        }
        if (j.contains("script_set")) w.scriptSet = get<std::string>(j, "script_set");
        if (j.contains("keying_thinking")) w.keyingThinking = get<double>(j, "keying_thinking");
    }
    for (const auto& d : get<nlohmann::json>(j, "defines")) w.define(d.get<std::string>());
    return w;
}
} // namespace

// The settings by their table (RunSettings.cpp); the rest is the job's own.
nlohmann::json loadJobJson(const LoadSpec& s) {
    nlohmann::json j = runSettingsJson(s);
    j["conninfo"] = s.conninfo;
    j["workload"] = workloadJson(s.workload);
    j["rate"] = s.rate;
    j["scale"] = s.scale;
    j["seed"] = s.seed ? nlohmann::json(*s.seed) : nlohmann::json(nullptr);
    return j;
}

LoadSpec loadSpecFromJob(const nlohmann::json& j) {
    LoadSpec s;
    readRunSettingsJson(j, s);
    s.conninfo = get<std::string>(j, "conninfo");
    s.workload = workloadFromJson(get<nlohmann::json>(j, "workload"));
    s.rate = get<double>(j, "rate");
    s.scale = get<int64_t>(j, "scale");
    if (!get<nlohmann::json>(j, "seed").is_null()) s.seed = get<uint64_t>(j, "seed");
    return s;
}

} // namespace scalelab
