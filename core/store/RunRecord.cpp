#include "store/RunRecord.h"

#include <algorithm>

namespace scalelab {

double offeredRateOf(const RunRecord& run) {
    auto it = run.detail.find("rate");
    return it != run.detail.end() && it->is_number() ? it->get<double>() : 0;
}

int64_t dataScaleOf(const RunRecord& run) {
    for (const char* key : {"data_scale", "scale"}) {
        auto it = run.detail.find(key);
        if (it != run.detail.end() && it->is_number() && it->get<double>() >= 1) return it->get<int64_t>();
    }
    return 0;
}

GridCell gridCellOf(const RunRecord& run) { return {offeredRateOf(run), dataScaleOf(run)}; }

std::vector<GridCell> gridCells(const std::vector<RunRecord>& runs) {
    std::vector<GridCell> cells;
    for (const auto& r : runs) cells.push_back(gridCellOf(r));
    std::sort(cells.begin(), cells.end());
    cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
    return cells;
}

std::vector<RunRecord> runsIn(const std::vector<RunRecord>& runs, const GridCell& cell) {
    std::vector<RunRecord> out;
    for (const auto& r : runs)
        if (gridCellOf(r) == cell) out.push_back(r);
    return out;
}

void applyExclusion(RunRecord& r, bool excluded) {
    // A run that did not complete (failed, stopped) is left out unless included on purpose;
    // that choice is the flag "included", visible wherever flags are shown.
    r.excluded = excluded;
    r.flags.remove(RunFlag::Included);
    if (!excluded && r.status != RunStatus::Completed) r.flags.add(RunFlag::Included);
}

bool countsInStatistics(const RunRecord& run) {
    if (run.excluded) return false;
    return run.status == RunStatus::Completed || run.flags.has(RunFlag::Included);
}

} // namespace scalelab
