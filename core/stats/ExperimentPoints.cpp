#include "stats/ExperimentPoints.h"

#include "stats/PointGrouping.h"

#include "load/data/TpccResults.h"
#include "load/hosts/LoadResultJson.h"

#include "util/Error.h"
#include "util/Format.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace scalelab {
namespace {
struct MetricInfo {
    RunMetric metric;
    const char* name;   // the id: options, CSV columns, JSON
    const char* unit;
    const char* label;  // what a menu, a chart title or a caption says
};
const MetricInfo kMetrics[] = {{RunMetric::Tps, "tps", "transactions/s", "tps"},
                               {RunMetric::LatencyMean, "latency_mean", "ms", "latency mean"},
                               {RunMetric::LatencyP95, "latency_p95", "ms", "latency p95"},
                               {RunMetric::LatencyP99, "latency_p99", "ms", "latency p99"},
                               {RunMetric::LogicalReads, "logical_reads", "blocks/s", "logical reads"},
                               {RunMetric::CpuBusy, "cpu_busy", "%", "CPU busy"},
                               {RunMetric::ServerCpu, "server_cpu", "% of one PU", "server CPU"},
                               {RunMetric::Nopm, "nopm", "new orders/min", "NOPM"},
                               {RunMetric::Tpm, "tpm", "tx/min", "TPM"}};
} // namespace

RunMetric parseRunMetric(const std::string& name) {
    std::string names;
    for (const auto& m : kMetrics) {
        if (name == m.name) return m.metric;
        names += (names.empty() ? "" : ", ") + std::string(m.name);
    }
    throw Error("unknown metric '" + name + "' (metrics: " + names + ")");
}

const char* runMetricName(RunMetric m) {
    for (const auto& i : kMetrics)
        if (i.metric == m) return i.name;
    return "?";
}

const char* runMetricLabel(RunMetric m) {
    for (const auto& i : kMetrics)
        if (i.metric == m) return i.label;
    return "?";
}

const char* runMetricUnit(RunMetric m) {
    for (const auto& i : kMetrics)
        if (i.metric == m) return i.unit;
    return "";
}

namespace {
// Missing values are NaN in memory (NULL in the file): they are no value, never 0.
std::optional<double> present(double v) { return std::isnan(v) ? std::nullopt : std::optional<double>(v); }
std::optional<double> present(const std::optional<double>& v) { return v ? present(*v) : std::nullopt; }

// TPROC-C's metrics from the run's record (its result as JSON, load/hosts/LoadResultJson.h).
std::string scriptSetOf(const RunRecord& r) {
    auto it = r.detail.find("script_set");
    return it != r.detail.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<double> nopmOf(const RunRecord& r) {
    std::string set = scriptSetOf(r);
    if (!tpcc::isTprocc(set)) return std::nullopt;
    auto it = r.detail.find("scripts");
    if (it == r.detail.end() || !it->is_array()) return std::nullopt;
    std::vector<ScriptReport> scripts;
    try {
        for (const auto& s : *it) scripts.push_back(scriptReportFromJson(s));
    } catch (const Error&) {
        return std::nullopt;  // a record edited by hand: no NOPM rather than a wrong one
    }
    return tpcc::newOrdersPerMinute(set, scripts, r.measuredSeconds);
}

std::optional<double> tpmOf(const RunRecord& r) {
    const nlohmann::json* server = nullptr;
    auto system = r.detail.find("system");
    if (system != r.detail.end() && system->is_object()) {
        auto it = system->find("server");
        if (it != system->end() && it->is_object()) server = &*it;
    }
    auto rate = [&](const char* name) -> std::optional<double> {
        if (!server) return std::nullopt;
        auto it = server->find(name);
        return it != server->end() && it->is_number() ? present(it->get<double>()) : std::nullopt;
    };
    return tpcc::transactionsPerMinute(scriptSetOf(r), rate("commits_s"), rate("rollbacks_s"));
}
} // namespace

std::optional<double> metricOf(const RunRecord& r, RunMetric m) {
    switch (m) {
    case RunMetric::Tps: return present(r.tps);
    case RunMetric::LatencyMean: return present(r.latency.meanMs);
    case RunMetric::LatencyP95: return present(r.latency.p95Ms);
    case RunMetric::LatencyP99: return present(r.latency.p99Ms);
    case RunMetric::LogicalReads: return present(r.logicalReadsPerSec);
    case RunMetric::CpuBusy: return present(r.cpuBusyPct);
    case RunMetric::ServerCpu: return present(r.serverCpuPct);
    case RunMetric::Nopm: return nopmOf(r);
    case RunMetric::Tpm: return tpmOf(r);
    }
    return std::nullopt;
}

bool isThroughputMetric(RunMetric m) {
    return m == RunMetric::Tps || m == RunMetric::LogicalReads || m == RunMetric::Nopm || m == RunMetric::Tpm;
}

std::vector<RunMetric> allRunMetrics() {
    std::vector<RunMetric> all;
    for (const auto& m : kMetrics) all.push_back(m.metric);
    return all;
}

std::vector<RunMetric> metricsPresent(const std::vector<RunRecord>& runs) {
    std::vector<const RunRecord*> counted;
    for (const auto& r : runs)
        if (countsInStatistics(r)) counted.push_back(&r);
    if (counted.empty()) return allRunMetrics();
    std::vector<RunMetric> present;
    for (RunMetric m : allRunMetrics())
        if (std::any_of(counted.begin(), counted.end(), [m](const RunRecord* r) { return metricOf(*r, m).has_value(); }))
            present.push_back(m);
    return present;
}

std::vector<PointRuns> pointRuns(const std::vector<RunRecord>& runs, const std::vector<std::string>& seriesOrder,
                                 RunMetric metric) {
    std::vector<PointRuns> points;
    for (const auto& r : runs) {
        if (!countsInStatistics(r)) continue;
        auto value = metricOf(r, metric);
        if (!value) continue;
        PointRuns& point = pointOf(points, r);
        point.values.push_back(*value);
        point.repetitions.push_back(r.repetition);
    }
    sortPoints(points, seriesOrder);
    return points;
}

std::vector<SeriesPoint> summarizePoints(const std::vector<PointRuns>& points, double confidence) {
    std::vector<SeriesPoint> out;
    for (const auto& p : points) {
        PointSummary s = summarize(p.values, confidence, p.series + " at " + clientsText(p.clients));
        // Every run metric is >= 0: an interval reaching below 0 says "too few runs", not
        // "negative throughput" (issue 32.5).
        if (s.ciLow && *s.ciLow < 0) s.ciLow = 0, s.ciLowClamped = true;
        out.push_back({p.series, p.clients, s});
    }
    return out;
}

std::vector<PointComparison> compareSeries(const std::vector<PointRuns>& points, const std::string& baseline,
                                           const std::string& candidate, bool paired, double confidence) {
    std::vector<PointComparison> out;
    for (const auto& a : points) {
        if (a.series != baseline) continue;
        for (const auto& b : points) {
            if (b.series != candidate || b.clients != a.clients) continue;
            std::vector<double> va = a.values, vb = b.values;
            if (paired) {
                // Exactly one run per round and series: a round twice on a side cannot be paired.
                for (const PointRuns* side : {&a, &b}) {
                    std::set<int> seen;
                    for (int rep : side->repetitions)
                        if (!seen.insert(rep).second)
                            throw Error("cannot pair the runs of '" + side->series + "' at " + clientsText(side->clients) +
                                        ": round " + std::to_string(rep) +
                                        " is there more than once (exclude the extra runs, or compare unpaired)");
                }
                va.clear(), vb.clear();
                for (size_t i = 0; i < a.values.size(); ++i)
                    for (size_t k = 0; k < b.values.size(); ++k)
                        if (a.repetitions[i] == b.repetitions[k]) va.push_back(a.values[i]), vb.push_back(b.values[k]);
                if (va.empty()) continue;
            }
            out.push_back({a.clients, paired ? comparePaired(va, vb, confidence) : compareWelch(va, vb, confidence)});
        }
    }
    return out;
}

} // namespace scalelab
