#include "stats/LatencyThroughput.h"

#include "stats/PointGrouping.h"
#include "util/Error.h"

#include <cmath>

namespace scalelab {
namespace {

struct Sums {
    std::string series;
    int clients = 0;
    double tps = 0, value = 0;
    int runs = 0, belowRate = 0, skipping = 0;
};

uint64_t skippedOf(const RunRecord& r) {
    auto it = r.detail.find("skipped");
    return it != r.detail.end() && it->is_number() && it->get<double>() > 0 ? it->get<uint64_t>() : 0;
}

// The run metrics that may be drawn against tps: tps itself is the x, and p95/p99 are percentiles.
const RunMetric kOtherMetrics[] = {RunMetric::LatencyMean, RunMetric::LogicalReads, RunMetric::CpuBusy,
                                   RunMetric::ServerCpu};

} // namespace

std::string ThroughputY::name() const {
    return percentile ? latencyPercentileName(*percentile) : runMetricName(metric);
}

std::string ThroughputY::label() const {
    return percentile ? std::string(latencyPercentileName(*percentile)) + " latency" : runMetricLabel(metric);
}

std::string ThroughputY::unit() const { return percentile ? "ms" : runMetricUnit(metric); }

std::optional<double> ThroughputY::of(const RunRecord& run) const {
    return percentile ? latencyPercentileOf(run, *percentile) : metricOf(run, metric);
}

ThroughputY throughputY(LatencyPercentile p) {
    ThroughputY y;
    y.percentile = p;
    return y;
}

ThroughputY parseThroughputY(const std::string& name, const std::string& what) {
    std::string names;
    for (const ThroughputY& y : allThroughputYs()) {
        if (y.name() == name) return y;
        names += (names.empty() ? "" : ", ") + y.name();
    }
    throw Error(what + ": '" + name + "' cannot be drawn against achieved tps (" + names + ")");
}

std::vector<ThroughputY> allThroughputYs() {
    std::vector<ThroughputY> out;
    for (LatencyPercentile p : allLatencyPercentiles()) out.push_back(throughputY(p));
    for (RunMetric m : kOtherMetrics) {
        ThroughputY y;
        y.metric = m;
        out.push_back(y);
    }
    return out;
}

std::vector<LatencyThroughputPoint> againstThroughput(const std::vector<RunRecord>& runs,
                                                      const std::vector<std::string>& order, const ThroughputY& y) {
    std::vector<Sums> sums;
    for (const auto& r : runs) {
        if (!countsInStatistics(r) || std::isnan(r.tps)) continue;
        auto value = y.of(r);
        if (!value) continue;
        Sums& s = pointOf(sums, r);
        s.tps += r.tps;
        s.value += *value;
        ++s.runs;
        s.belowRate += r.flags.has(RunFlag::BelowRate) ? 1 : 0;
        s.skipping += skippedOf(r) > 0 ? 1 : 0;
    }
    sortPoints(sums, order);
    std::vector<LatencyThroughputPoint> out;
    for (const auto& s : sums)
        out.push_back({s.series, s.clients, s.runs, s.tps / s.runs, s.value / s.runs, s.belowRate, s.skipping});
    return out;
}

std::vector<std::string> kneeNotes(const std::vector<LatencyThroughputPoint>& points, PointAxis axis) {
    std::vector<std::string> out;
    for (size_t i = 0; i < points.size(); ++i) {
        if (i > 0 && points[i].series == points[i - 1].series) continue;
        std::string line;
        // The first point of the series where some run fell below its rate (skipped), and how
        // many of that point's runs did.
        auto first = [&](int LatencyThroughputPoint::*count, const char* what) {
            for (size_t j = i; j < points.size() && points[j].series == points[i].series; ++j)
                if (points[j].*count > 0) {
                    line += std::string(line.empty() ? points[i].series + ": " : "; ") + what + " from " +
                            pointText(axis, points[j].clients) + " (" + std::to_string(points[j].*count) + " of " +
                            std::to_string(points[j].runs) + " runs there)";
                    return;
                }
        };
        first(&LatencyThroughputPoint::belowRate, "below the offered rate");
        first(&LatencyThroughputPoint::skipping, "-L skips transactions");
        if (!line.empty()) out.push_back(line);
    }
    return out;
}

} // namespace scalelab
