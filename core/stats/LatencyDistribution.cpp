#include "stats/LatencyDistribution.h"

#include "stats/PointGrouping.h"

#include "load/hosts/LoadResultJson.h"
#include "util/Error.h"

#include <algorithm>
#include <cmath>

namespace scalelab {

std::optional<LatencyHistogram> runHistogram(const RunRecord& run) {
    auto it = run.detail.find("histogram");
    if (it == run.detail.end() || it->is_null()) return std::nullopt;
    try {
        return LatencyHistogram::fromData(histogramFromJson(*it));
    } catch (const std::exception& e) {
        throw Error("run " + std::to_string(run.id) + ": its stored latency histogram cannot be read (" + e.what() + ")");
    }
}

std::vector<LatencyBucket> nonEmptyBuckets(const LatencyHistogram& h) {
    std::vector<LatencyBucket> out;
    for (size_t i = 0; i < histogram::kBuckets; ++i) {
        uint64_t n = h.bucketCount(i);
        if (!n) continue;
        double low = static_cast<double>(histogram::bucketLow(i));
        out.push_back({low / 1e6, (low + static_cast<double>(histogram::bucketWidth(i))) / 1e6, n});
    }
    return out;
}

const std::vector<std::pair<double, const char*>>& distributionPercentiles() {
    static const std::vector<std::pair<double, const char*>> list = {
        {0.5, "p50"}, {0.9, "p90"}, {0.95, "p95"}, {0.99, "p99"}, {0.999, "p99_9"}, {0.9999, "p99_99"}};
    return list;
}

std::vector<PointDistribution> pointDistributions(const std::vector<RunRecord>& runs,
                                                  const std::vector<std::string>& seriesOrder) {
    std::vector<PointDistribution> points;
    for (const auto& r : runs) {
        if (!countsInStatistics(r)) continue;
        PointDistribution* it = &pointOf(points, r);
        if (auto h = runHistogram(r)) {
            it->merged.merge(*h);
            it->rounds.push_back(*h);
            ++it->runs;
        } else {
            ++it->runsWithout;
        }
    }
    sortPoints(points, seriesOrder);
    return points;
}

std::vector<std::pair<double, double>> percentileSpectrum(const LatencyHistogram& h) {
    std::vector<std::pair<double, double>> out;
    if (h.count() == 0) return out;
    double lastTail = 1.0 / static_cast<double>(h.count());  // 1 - q of the highest rank but one
    for (int k = 0;; ++k) {
        double tail = std::pow(10.0, -k / 20.0);
        if (tail < lastTail * (1 - 1e-9)) break;
        double q = 1 - tail;
        out.emplace_back(q, static_cast<double>(h.percentileNs(q)) / 1e6);
    }
    out.emplace_back(1.0, static_cast<double>(h.maxNs()) / 1e6);
    return out;
}

} // namespace scalelab
