#include "stats/RunCaveats.h"

#include <cmath>

namespace scalelab {
namespace {

std::optional<double> number(const nlohmann::json& j, const char* key) {
    if (!j.is_object() || !j.contains(key) || !j[key].is_number()) return std::nullopt;
    return j[key].get<double>();
}

} // namespace

RunCaveats caveatsOf(const RunRecord& run, bool nopm) {
    RunCaveats c;
    c.clientBound = run.flags.has(RunFlag::ClientBound);
    const nlohmann::json& d = run.detail;
    if (nopm && d.contains("steady_state_nopm")) {
        c.trendOf = "NOPM";
        auto slope = number(d["steady_state_nopm"], "slope_per_s");
        auto p = number(d["steady_state_nopm"], "slope_p");
        auto mean = number(d["steady_state_nopm"], "mean");
        if (slope && p && mean && *mean > 0 && run.measuredSeconds > 0) {
            double drift = 100 * *slope * run.measuredSeconds / *mean;
            if (*p < kTrendP && std::fabs(drift) > kTrendPercent) c.trendPct = drift;
        }
    } else if (d.contains("steady_state")) {
        auto slope = number(d["steady_state"], "slope_tps_per_s");
        auto p = number(d["steady_state"], "slope_p");
        if (slope && p && run.tps > 0 && run.measuredSeconds > 0) {
            double drift = 100 * *slope * run.measuredSeconds / run.tps;
            if (*p < kTrendP && std::fabs(drift) > kTrendPercent) c.trendPct = drift;
        }
    }
    if (d.contains("system") && d["system"].is_object() && d["system"].contains("cpu")) {
        const nlohmann::json& cpu = d["system"]["cpu"];
        auto iowait = number(cpu, "iowait"), idle = number(cpu, "idle"), steal = number(cpu, "steal");
        if (iowait && idle) {
            double busy = 100 - *idle - *iowait - steal.value_or(0);
            if (*iowait > busy) c.iowaitPct = *iowait, c.busyPct = busy;
        }
    }
    return c;
}

} // namespace scalelab
