#pragma once
// Peak table: each series' highest mean throughput, where it occurs, and how it compares with
// a baseline series' peak (the "% of baseline" column of a CPU-count scaling table).
#include "stats/Summary.h"

#include <optional>
#include <string>
#include <vector>

namespace scalelab {

struct SeriesPoint {
    std::string series;
    int clients = 0;
    PointSummary summary;
};

struct PeakRow {
    std::string series;
    int clients = 0;             // where the highest mean is
    PointSummary at;             // that point: mean and its interval
    std::optional<double> percentOfBaseline;  // 100 * peak / baseline's peak
};

// Series in order of first appearance. Throws Error when `baseline` names no series.
std::vector<PeakRow> peakTable(const std::vector<SeriesPoint>& points, const std::string& baseline = "");

} // namespace scalelab
