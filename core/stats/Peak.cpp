#include "stats/Peak.h"

#include "stats/SeriesNames.h"
#include "util/Error.h"

namespace scalelab {

std::vector<PeakRow> peakTable(const std::vector<SeriesPoint>& points, const std::string& baseline) {
    std::vector<PeakRow> rows;
    for (const auto& p : points) {
        PeakRow* row = nullptr;
        for (auto& r : rows)
            if (r.series == p.series) row = &r;
        if (!row) {
            rows.push_back({p.series, p.clients, p.summary, std::nullopt});
        } else if (p.summary.mean > row->at.mean) {
            row->clients = p.clients;
            row->at = p.summary;
        }
    }
    if (baseline.empty()) return rows;
    const PeakRow* base = nullptr;
    for (const auto& r : rows)
        if (r.series == baseline) base = &r;
    if (!base) {
        std::vector<std::string> known;
        for (const auto& r : rows) known.push_back(r.series);
        throw Error(noSeriesNamed(baseline, "to use as the baseline", known));
    }
    double basePeak = base->at.mean;
    for (auto& r : rows)
        if (basePeak != 0) r.percentOfBaseline = 100 * r.at.mean / basePeak;
    return rows;
}

} // namespace scalelab
