// The runs of a plan in the order they run, scale by scale: interleaved (each round, each client count and rate, the
// series in a random order of the seed's) or sequential (series by series).
#include "sweep/SweepPlan.h"

#include "load/script/Random.h"

#include <algorithm>

namespace scalelab {

std::vector<PlannedRun> expandPlan(const SweepPlan& plan, uint64_t seed) {
    std::vector<PlannedRun> runs;
    Random rng(seed);
    std::vector<int> clients = plan.clients;
    std::sort(clients.begin(), clients.end());
    std::vector<double> rates = plan.rates;
    std::sort(rates.begin(), rates.end());
    int nSeries = static_cast<int>(plan.series.size());
    std::vector<int64_t> scales = plan.scales;
    std::sort(scales.begin(), scales.end());
    for (int64_t scale : scales) {
        if (plan.interleaved) {
            for (int round = 1; round <= plan.repetitions; ++round)
                for (int c : clients)
                    for (double rate : rates) {
                        std::vector<int> order(static_cast<size_t>(nSeries));
                        for (int s = 0; s < nSeries; ++s) order[static_cast<size_t>(s)] = s;
                        for (int i = nSeries - 1; i > 0; --i)
                            std::swap(order[static_cast<size_t>(i)], order[static_cast<size_t>(rng.between(0, i))]);
                        for (int s : order) runs.push_back({static_cast<int>(runs.size()), round, s, c, rate, scale});
                    }
        } else {
            for (int s = 0; s < nSeries; ++s)
                for (int round = 1; round <= plan.repetitions; ++round)
                    for (int c : clients)
                        for (double rate : rates) runs.push_back({static_cast<int>(runs.size()), round, s, c, rate, scale});
        }
    }
    return runs;
}

} // namespace scalelab
