// A run's result as the experiment keeps it: the below-rate flag, set when a rate was offered
// and the run served clearly less than its schedule, never for the Poisson spread of a run
// that kept up.
#include "stats/RunCaveats.h"
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

// A TPROC-C run's NOPM intervals get their own trend test: a comparison of NOPM asks whether
// NOPM was steady, another metric whether tps was (stats/RunCaveats.h).
TEST(RunRecordOf, ATproccRunsNopmHasItsOwnTrendTest) {
    LoadResult r;
    r.status = RunStatus::Completed;
    r.scriptSet = "tprocc";
    r.measuredSeconds = 20;
    for (int i = 0; i < 20; ++i) {
        LoadSample s;
        s.startS = i;
        s.endS = i + 1;
        s.transactions = 1000;
        s.tps = 1000;
        uint64_t orders = 300 + 15 * static_cast<uint64_t>(i);  // 18,000 to 35,100 NOPM over the run
        s.scriptTransactions = {orders, 4, 1000 - orders - 124, 40, 40, 40};
        r.samples.push_back(s);
        r.transactions += s.transactions;
    }
    r.tps = 1000;
    RunRecord rec = recordOf(r, "A", 1);
    ASSERT_TRUE(rec.detail.contains("steady_state_nopm"));
    EXPECT_NEAR(rec.detail["steady_state_nopm"]["mean"].get<double>(), (300 + 15 * 9.5) * 60, 1e-6);
    EXPECT_FALSE(caveatsOf(rec).trendPct) << "tps was flat";
    RunCaveats nopm = caveatsOf(rec, true);
    ASSERT_TRUE(nopm.trendPct);
    EXPECT_STREQ(nopm.trendOf, "NOPM");
    EXPECT_NEAR(*nopm.trendPct, 100 * 15.0 * 60 * 20 / ((300 + 15 * 9.5) * 60), 1e-6);

    r.scriptSet.clear();  // the same samples of another workload: no NOPM, its tps decides
    RunRecord other = recordOf(r, "A", 1);
    EXPECT_FALSE(other.detail.contains("steady_state_nopm"));
    EXPECT_FALSE(caveatsOf(other, true).trendPct);
    EXPECT_STREQ(caveatsOf(other, true).trendOf, "tps");
}

} // namespace
} // namespace scalelab
