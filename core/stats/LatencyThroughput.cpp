#include "stats/LatencyThroughput.h"

#include "stats/PointGrouping.h"

#include <cmath>

namespace scalelab {
namespace {

struct Sums {
    std::string series;
    int clients = 0;
    double tps = 0, latency = 0;
    int runs = 0, belowRate = 0, skipping = 0;
};

uint64_t skippedOf(const RunRecord& r) {
    auto it = r.detail.find("skipped");
    return it != r.detail.end() && it->is_number() && it->get<double>() > 0 ? it->get<uint64_t>() : 0;
}

} // namespace

std::vector<LatencyThroughputPoint> latencyThroughput(const std::vector<RunRecord>& runs,
                                                      const std::vector<std::string>& order, LatencyPercentile p) {
    std::vector<Sums> sums;
    for (const auto& r : runs) {
        if (!countsInStatistics(r) || std::isnan(r.tps)) continue;
        auto latency = latencyPercentileOf(r, p);
        if (!latency) continue;
        Sums& s = pointOf(sums, r);
        s.tps += r.tps;
        s.latency += *latency;
        ++s.runs;
        s.belowRate += r.flags.has(RunFlag::BelowRate) ? 1 : 0;
        s.skipping += skippedOf(r) > 0 ? 1 : 0;
    }
    sortPoints(sums, order);
    std::vector<LatencyThroughputPoint> out;
    for (const auto& s : sums)
        out.push_back({s.series, s.clients, s.runs, s.tps / s.runs, s.latency / s.runs, s.belowRate, s.skipping});
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
