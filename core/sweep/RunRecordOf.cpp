#include "sweep/RunRecordOf.h"

#include "load/data/TpccResults.h"
#include "load/hosts/LoadResultJson.h"
#include "metrics/MetricsJson.h"
#include "stats/SteadyState.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace scalelab {

LatencySummary missingLatency() {
    double none = std::numeric_limits<double>::quiet_NaN();
    LatencySummary l;
    l.meanMs = l.stddevMs = l.minMs = l.p50Ms = l.p90Ms = l.p95Ms = l.p99Ms = l.p999Ms = l.maxMs = none;
    return l;
}

bool belowOfferedRate(const LoadResult& r) {
    if (r.rate <= 0 || r.status != RunStatus::Completed || r.measuredSeconds <= 0) return false;
    double offered = r.rate * r.measuredSeconds;
    // Failed transactions were served (and failed); skipped ones (-L) were not. One transaction
    // a client may be in flight at the window's end.
    double achieved = static_cast<double>(r.transactions + r.failures.total()) + r.clients;
    return achieved < std::min(kBelowRateShare * offered, offered - 3 * std::sqrt(offered));
}

RunRecord recordOf(const LoadResult& r, const std::string& series, int repetition) {
    RunRecord rec;
    rec.series = series;
    rec.clients = r.clients;
    rec.threads = r.threads;
    rec.repetition = repetition;
    rec.status = r.status;
    rec.error = r.error;
    rec.tps = r.tps;
    rec.measuredSeconds = r.measuredSeconds;
    rec.transactions = r.transactions;
    rec.failures = r.failures.total();
    rec.latency = r.latency;
    if (r.latency.count == 0) rec.latency = missingLatency();
    if (r.system) {
        if (r.system->cpuMeasured()) rec.cpuBusyPct = r.system->cpu.total.busy();
        if (!r.system->missing.empty()) rec.flags.add(RunFlag::SystemMissing);
        if (r.system->slowReadings) rec.flags.add(RunFlag::SlowMetrics);
        rec.loadGeneratorCpuPct = r.system->loadGeneratorCpuPct;
        rec.serverCpuPct = r.system->serverCpuPct;
        if (r.system->server) {
            rec.logicalReadsPerSec = r.system->server->logicalReads;
            rec.commitsPerSec = r.system->server->commits;
        }
        if (r.system->clientBound) rec.flags.add(RunFlag::ClientBound);
    }
    if (belowOfferedRate(r)) rec.flags.add(RunFlag::BelowRate);
    std::vector<double> tps, ends;
    for (const auto& s : r.samples)
        if (!s.warmup) tps.push_back(s.tps), ends.push_back(s.endS);
    SteadyState steady = steadyState(tps, ends);
    if (steady.unstable) rec.flags.add(RunFlag::Unstable);
    rec.detail = toJson(r);
    rec.detail.erase("samples");
    rec.detail["steady_state"] = {{"cv", steady.cv}, {"intervals", steady.intervals}, {"unstable", steady.unstable},
                                  {"slope_tps_per_s", steady.slopePerSecond ? nlohmann::json(*steady.slopePerSecond) : nlohmann::json()},
                                  {"slope_p", steady.slopePValue ? nlohmann::json(*steady.slopePValue) : nlohmann::json()},
                                  {"reason", steady.reason}};
    // TPROC-C's NOPM has its own trend test: a comparison of NOPM asks whether NOPM was steady.
    // Only when every counted interval has its NOPM (a run recorded before samples counted
    // per script has none).
    std::vector<double> nopm;
    if (tpcc::isTprocc(r.scriptSet))
        for (const auto& s : r.samples) {
            if (s.warmup) continue;
            auto v = tpcc::sampleNewOrdersPerMinute(r.scriptSet, s);
            if (!v) break;
            nopm.push_back(*v);
        }
    if (!nopm.empty() && nopm.size() == tps.size()) {
        SteadyState n = steadyState(nopm, ends);
        rec.detail["steady_state_nopm"] = {
            {"cv", n.cv}, {"intervals", n.intervals}, {"mean", n.meanTps},
            {"slope_per_s", n.slopePerSecond ? nlohmann::json(*n.slopePerSecond) : nlohmann::json()},
            {"slope_p", n.slopePValue ? nlohmann::json(*n.slopePValue) : nlohmann::json()}};
    }
    return rec;
}

std::vector<StoredSample> samplesOf(const LoadResult& r) {
    std::vector<StoredSample> out;
    for (const auto& s : r.samples) {
        StoredSample st;
        st.startS = s.startS;
        st.endS = s.endS;
        st.warmup = s.warmup;
        st.transactions = s.transactions;
        st.failures = s.failures;
        st.tps = s.tps;
        // An interval without a transaction has no latency: stored as NULL, shown as missing.
        double none = std::numeric_limits<double>::quiet_NaN();
        bool any = s.latency.count > 0;
        st.latMeanMs = any ? s.latency.meanMs : none;
        st.latP50Ms = any ? s.latency.p50Ms : none;
        st.latP95Ms = any ? s.latency.p95Ms : none;
        st.latP99Ms = any ? s.latency.p99Ms : none;
        if (s.system) st.system = toJson(*s.system);
        out.push_back(std::move(st));
    }
    return out;
}

} // namespace scalelab
