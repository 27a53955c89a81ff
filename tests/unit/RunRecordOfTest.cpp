// A run's result as the experiment keeps it: the below-rate flag, set when a rate was offered
// and the run served clearly less than its schedule, never for the Poisson spread of a run
// that kept up.
#include "sweep/RunRecordOf.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace scalelab {
namespace {

LoadResult throttled(double rate, double seconds, uint64_t transactions, int clients = 4) {
    LoadResult r;
    r.status = RunStatus::Completed;
    r.rate = rate;
    r.clients = clients;
    r.measuredSeconds = seconds;
    r.transactions = transactions;
    r.tps = static_cast<double>(transactions) / seconds;
    return r;
}

TEST(RunRecordOf, ARunFarBelowItsOfferedRateIsFlagged) {
    RunRecord below = recordOf(throttled(20000, 10, 95000), "A", 1);  // offered 200,000, served 95,000
    EXPECT_TRUE(below.flags.has(RunFlag::BelowRate));
    EXPECT_EQ(below.flags.joined(), "below-rate");
    EXPECT_DOUBLE_EQ(below.detail.at("rate").get<double>(), 20000);
    EXPECT_FALSE(recordOf(throttled(20000, 10, 199000), "A", 1).flags.has(RunFlag::BelowRate));
    EXPECT_FALSE(recordOf(throttled(0, 10, 10), "A", 1).flags.has(RunFlag::BelowRate));  // unthrottled
    LoadResult failedTransactions = throttled(1000, 10, 5000);
    failedTransactions.failures.serialization = 5000;  // served, and failed: not behind
    EXPECT_FALSE(recordOf(failedTransactions, "A", 1).flags.has(RunFlag::BelowRate));
    LoadResult stopped = throttled(1000, 10, 10);
    stopped.status = RunStatus::Stopped;
    EXPECT_FALSE(recordOf(stopped, "A", 1).flags.has(RunFlag::BelowRate));
}

// A run that keeps up serves a Poisson number of transactions around rate x seconds: at low
// rates that is far more than 5% apart from it now and then, and is never flagged for it.
TEST(RunRecordOf, ThePoissonSpreadOfARunThatKeptUpIsNotFlagged) {
    std::mt19937_64 rng(20261203);
    int flagged = 0;
    for (double rate : {5.0, 20.0, 100.0, 1000.0, 50000.0})
        for (int i = 0; i < 2000; ++i) {
            std::poisson_distribution<uint64_t> schedule(rate * 10);
            if (belowOfferedRate(throttled(rate, 10, schedule(rng), 1))) ++flagged;
        }
    // 3 standard deviations below: about 0.1% of runs that kept up, of 10,000.
    RecordProperty("flagged_of_10000", flagged);
    EXPECT_LE(flagged, 30);
}

} // namespace
} // namespace scalelab
