#include "stats/RoundSpread.h"

#include "stats/PointGrouping.h"
#include "util/Error.h"

#include <algorithm>
#include <cmath>

namespace scalelab {

const char* latencyPercentileName(LatencyPercentile p) {
    switch (p) {
    case LatencyPercentile::P50: return "p50";
    case LatencyPercentile::P90: return "p90";
    case LatencyPercentile::P95: return "p95";
    case LatencyPercentile::P99: return "p99";
    case LatencyPercentile::P999: return "p99.9";
    case LatencyPercentile::Max: return "max";
    }
    return "?";
}

std::vector<LatencyPercentile> allLatencyPercentiles() {
    return {LatencyPercentile::P50, LatencyPercentile::P90, LatencyPercentile::P95,
            LatencyPercentile::P99, LatencyPercentile::P999, LatencyPercentile::Max};
}

LatencyPercentile parseLatencyPercentile(std::string_view name, const std::string& what) {
    std::string given(name);
    std::string withP = !given.empty() && given[0] != 'p' && given != "max" ? "p" + given : given;
    std::string names;
    for (LatencyPercentile p : allLatencyPercentiles()) {
        if (withP == latencyPercentileName(p)) return p;
        names += (names.empty() ? "" : ", ") + std::string(latencyPercentileName(p));
    }
    throw Error(what + ": '" + given + "' is not a percentile ScaleLab keeps per run: " + names);
}

std::optional<double> latencyPercentileOf(const RunRecord& r, LatencyPercentile p) {
    const LatencySummary& l = r.latency;
    double v = p == LatencyPercentile::P50    ? l.p50Ms
               : p == LatencyPercentile::P90  ? l.p90Ms
               : p == LatencyPercentile::P95  ? l.p95Ms
               : p == LatencyPercentile::P99  ? l.p99Ms
               : p == LatencyPercentile::P999 ? l.p999Ms
                                              : l.maxMs;
    if (!std::isfinite(v) || (r.transactions == 0 && v == 0)) return std::nullopt;
    return v;
}

BoxSummary boxSummary(std::vector<double> values) {
    if (values.empty()) throw Error("a box plot needs at least one value");
    std::sort(values.begin(), values.end());
    auto quantile = [&](double q) {
        double h = q * static_cast<double>(values.size() - 1);
        size_t lo = static_cast<size_t>(std::floor(h));
        size_t hi = std::min(lo + 1, values.size() - 1);
        return values[lo] + (h - static_cast<double>(lo)) * (values[hi] - values[lo]);
    };
    BoxSummary b;
    b.n = static_cast<int>(values.size());
    b.min = values.front();
    b.q1 = quantile(0.25);
    b.median = quantile(0.5);
    b.q3 = quantile(0.75);
    b.max = values.back();
    return b;
}

std::vector<PointBox> percentileBoxes(const std::vector<RunRecord>& runs, const std::vector<std::string>& order,
                                      LatencyPercentile p) {
    std::vector<PointBox> points;
    for (const auto& r : runs) {
        if (!countsInStatistics(r)) continue;
        PointBox& point = pointOf(points, r);
        if (auto v = latencyPercentileOf(r, p)) point.values.push_back(*v);
        else ++point.runsWithout;
    }
    for (auto& point : points)
        if (!point.values.empty()) point.box = boxSummary(point.values);
    sortPoints(points, order);
    return points;
}

} // namespace scalelab
