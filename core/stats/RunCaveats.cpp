#include "stats/RunCaveats.h"

#include <cmath>

namespace scalelab {
namespace {

std::optional<double> number(const nlohmann::json& j, const char* key) {
    if (!j.is_object() || !j.contains(key) || !j[key].is_number()) return std::nullopt;
    return j[key].get<double>();
}

// The drift of a run's interval series over its counted window, in % of the series' mean, when
// its slope test is significant and the drift above kTrendPercent.
std::optional<double> significantDrift(std::optional<double> slopePerS, std::optional<double> p, double mean, double seconds) {
    if (!slopePerS || !p || !(mean > 0) || !(seconds > 0)) return std::nullopt;  // NaN: a failed run's tps
    double drift = 100 * *slopePerS * seconds / mean;
    if (*p < kTrendP && std::fabs(drift) > kTrendPercent) return drift;
    return std::nullopt;
}

} // namespace

RunCaveats caveatsOf(const RunRecord& run, bool nopm) {
    RunCaveats c;
    c.clientBound = run.flags.has(RunFlag::ClientBound);
    const nlohmann::json& d = run.detail;
    if (nopm && d.contains("steady_state_nopm")) {
        const nlohmann::json& n = d["steady_state_nopm"];
        c.trendOf = "NOPM";
        c.trendPct = significantDrift(number(n, "slope_per_s"), number(n, "slope_p"), number(n, "mean").value_or(0),
                                      run.measuredSeconds);
    } else if (d.contains("steady_state")) {
        const nlohmann::json& t = d["steady_state"];
        c.trendPct = significantDrift(number(t, "slope_tps_per_s"), number(t, "slope_p"), run.tps, run.measuredSeconds);
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
