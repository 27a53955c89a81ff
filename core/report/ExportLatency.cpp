#include "report/ExportLatency.h"

#include "stats/LatencyDistribution.h"
#include "util/Csv.h"
#include "report/ReportCsv.h"

namespace scalelab {
namespace {

std::vector<std::string> percentileCells(const LatencyHistogram& h) {
    std::vector<std::string> cells{std::to_string(h.count())};
    for (const auto& [q, name] : distributionPercentiles()) {
        (void)name;
        cells.push_back(csvNumber(static_cast<double>(h.percentileNs(q)) / 1e6));
    }
    cells.push_back(csvNumber(static_cast<double>(h.maxNs()) / 1e6));
    return cells;
}

} // namespace

void writeLatencyCsv(const std::vector<RunRecord>& runs, const std::vector<std::string>& seriesOrder,
                     const std::string& dir, std::vector<std::string>& written) {
    std::string histPath = dir + "/latency-histograms.csv";
    CsvWriter hist(histPath);
    hist.row({"run_id", "series", "clients", "rate", "scale", "repetition", "bucket_low_ms", "bucket_high_ms", "count"});
    std::string pctPath = dir + "/latency-percentiles.csv";
    CsvWriter pct(pctPath);
    std::vector<std::string> header{"scope", "run_id", "series", "clients", "rate", "scale", "repetition", "runs", "runs_without_histogram",
                                    "transactions"};
    for (const auto& [q, name] : distributionPercentiles()) {
        (void)q;
        header.push_back(std::string(name) + "_ms");
    }
    header.push_back("max_ms");
    pct.row(header);
    for (const auto& r : runs) {
        auto h = runHistogram(r);
        if (!h || h->count() == 0) continue;
        for (const auto& b : nonEmptyBuckets(*h))
            hist.row({std::to_string(r.id), r.series, std::to_string(r.clients), rateField(offeredRateOf(r)),
                      scaleField(dataScaleOf(r)),
                      std::to_string(r.repetition), csvNumber(b.lowMs),
                      csvNumber(b.highMs), std::to_string(b.count)});
        std::vector<std::string> row{"run", std::to_string(r.id), r.series, std::to_string(r.clients),
                                     rateField(offeredRateOf(r)), scaleField(dataScaleOf(r)), std::to_string(r.repetition),
                                     "1", "0"};
        for (auto& c : percentileCells(*h)) row.push_back(std::move(c));
        pct.row(row);
    }
    // A point: its rounds' histograms added (exact), the runs that count in statistics only.
    for (const GridCell& cell : gridCells(runs))
        for (const auto& p : pointDistributions(runsIn(runs, cell), seriesOrder)) {
            if (p.merged.count() == 0) continue;
            std::vector<std::string> row{"point", "", p.series, std::to_string(p.clients), rateField(cell.rate),
                                         scaleField(cell.scale), "",
                                         std::to_string(p.runs), std::to_string(p.runsWithout)};
            for (auto& c : percentileCells(p.merged)) row.push_back(std::move(c));
            pct.row(row);
        }
    hist.close();
    written.push_back(histPath);
    pct.close();
    written.push_back(pctPath);
}

nlohmann::json latencyDistributionJson(const RunRecord& run) {
    auto h = runHistogram(run);
    if (!h) return nullptr;
    nlohmann::json buckets = nlohmann::json::array();
    for (const auto& b : nonEmptyBuckets(*h)) buckets.push_back({{"low_ms", b.lowMs}, {"high_ms", b.highMs}, {"count", b.count}});
    nlohmann::json percentiles = nlohmann::json::object();
    if (h->count() > 0)
        for (const auto& [q, name] : distributionPercentiles()) percentiles[name] = static_cast<double>(h->percentileNs(q)) / 1e6;
    return {{"count", h->count()},
            {"buckets", buckets},
            {"percentiles_ms", percentiles},
            {"max_ms", h->count() ? nlohmann::json(static_cast<double>(h->maxNs()) / 1e6) : nlohmann::json()}};
}

} // namespace scalelab
