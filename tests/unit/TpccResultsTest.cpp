// TPROC-C's results in its own terms (load/data/TpccResults.h): NOPM from the new_order
// script's commits, TPM from the server's commits and rollbacks; as run metrics read back from
// a run's record; missing, never 0, for another workload or a record without what they need.
#include "load/data/TpccResults.h"
#include "load/hosts/LoadResultJson.h"
#include "stats/ExperimentPoints.h"

#include <gtest/gtest.h>

using namespace scalelab;

namespace {
ScriptReport script(const std::string& name, uint64_t committed) {
    ScriptReport s;
    s.name = name;
    s.transactions = committed;
    s.latency.count = committed;
    return s;
}

LoadResult tproccResult() {
    LoadResult r;
    r.scriptSet = "tprocc";
    r.measuredSeconds = 30;
    r.scripts = {script("new_order", 4450), script("new_order_rollback", 45), script("payment", 4300),
                 script("order_status", 400), script("delivery", 400), script("stock_level", 400)};
    for (const auto& s : r.scripts) r.transactions += s.transactions;
    SystemSample system;
    ServerCounterRates server;
    server.commits = 333.0;
    server.rollbacks = 1.5;
    system.server = server;
    r.system = system;
    return r;
}

RunRecord recordOf(const LoadResult& r) {
    RunRecord rec;
    rec.measuredSeconds = r.measuredSeconds;
    rec.transactions = r.transactions;
    rec.detail = toJson(r);
    return rec;
}
} // namespace

TEST(TpccResults, NopmCountsCommittedNewOrdersPerMinuteAndTpmTheServersTransactions) {
    LoadResult r = tproccResult();
    EXPECT_DOUBLE_EQ(*tpcc::newOrdersPerMinute(r.scriptSet, r.scripts, r.measuredSeconds), 4450 * 2.0)
        << "the rolled-back New-Orders are not orders";
    EXPECT_DOUBLE_EQ(*tpcc::transactionsPerMinute(r.scriptSet, 333.0, 1.5), 334.5 * 60);
    EXPECT_FALSE(tpcc::transactionsPerMinute(r.scriptSet, 333.0, std::nullopt)) << "no counters: missing";
    EXPECT_FALSE(tpcc::newOrdersPerMinute("", r.scripts, r.measuredSeconds)) << "pgbench's scripts have no NOPM";
    EXPECT_FALSE(tpcc::newOrdersPerMinute(r.scriptSet, r.scripts, 0)) << "no counted window: missing";
}

TEST(TpccResults, AreRunMetricsOfTheRunsRecord) {
    RunRecord rec = recordOf(tproccResult());
    EXPECT_EQ(parseRunMetric("nopm"), RunMetric::Nopm);
    EXPECT_EQ(parseRunMetric("tpm"), RunMetric::Tpm);
    EXPECT_DOUBLE_EQ(*metricOf(rec, RunMetric::Nopm), 8900);
    EXPECT_DOUBLE_EQ(*metricOf(rec, RunMetric::Tpm), 20070);
    EXPECT_TRUE(isThroughputMetric(RunMetric::Nopm)) << "the USL fits NOPM as it fits tps";

    LoadResult pgbench = tproccResult();
    pgbench.scriptSet.clear();
    RunRecord other = recordOf(pgbench);
    EXPECT_FALSE(metricOf(other, RunMetric::Nopm));
    EXPECT_FALSE(metricOf(other, RunMetric::Tpm)) << "TPM is TPROC-C's term; a pgbench run has tps";
    auto present = metricsPresent({other});
    EXPECT_EQ(std::count(present.begin(), present.end(), RunMetric::Nopm), 0) << "menus offer NOPM only for TPROC-C runs";

    LoadResult unsampled = tproccResult();
    unsampled.system.reset();
    EXPECT_FALSE(metricOf(recordOf(unsampled), RunMetric::Tpm));
    EXPECT_TRUE(metricOf(recordOf(unsampled), RunMetric::Nopm));
    RunRecord edited = rec;
    edited.detail["scripts"][0].erase("transactions");
    EXPECT_FALSE(metricOf(edited, RunMetric::Nopm)) << "a broken record has no NOPM rather than a wrong one";
}

TEST(TpccResults, TheReportSaysNopmTpmRollbacksAndEachTransactionsShare) {
    LoadResult r = tproccResult();
    std::vector<std::string> lines = tpcc::reportLines(r);
    ASSERT_EQ(lines.size(), 8u);
    EXPECT_EQ(lines[0], "TPROC-C: NOPM = 8900 (New-Order commits per minute), TPM = 20070 (the server's commits + rollbacks per minute)");
    EXPECT_EQ(lines[1], " - New-Order rolled back on purpose (an unused item, clause 2.4.1.4): 45 of 4495 (1.00%), not failures");
    EXPECT_NE(lines[3].find("New-Order      44.97%  45.00%         4450"), std::string::npos) << lines[3];
    EXPECT_NE(lines[4].find("Payment        43.02%  43.00%         4300"), std::string::npos) << lines[4];
    r.system.reset();
    EXPECT_NE(tpcc::reportLines(r)[0].find("TPM = - (the server's counters were not read)"), std::string::npos);
    r.scriptSet.clear();
    EXPECT_TRUE(tpcc::reportLines(r).empty());
}

// The live NOPM of an interval: New-Order's commits in it, per minute; none without TPROC-C's
// six per-script counts (another workload, a sample from before they existed).
TEST(TpccResults, EachIntervalHasItsNopmFromNewOrdersCommitsInIt) {
    LoadSample s;
    s.startS = 2;
    s.endS = 2.5;
    s.scriptTransactions = {40, 1, 41, 3, 4, 5};
    EXPECT_DOUBLE_EQ(*tpcc::sampleNewOrdersPerMinute("tprocc", s), 4800);
    EXPECT_FALSE(tpcc::sampleNewOrdersPerMinute("", s));
    LoadSample two = s;
    two.scriptTransactions = {40, 1};
    EXPECT_FALSE(tpcc::sampleNewOrdersPerMinute("tprocc", two));
    LoadSample empty = s;
    empty.endS = empty.startS;
    EXPECT_FALSE(tpcc::sampleNewOrdersPerMinute("tprocc", empty));
    LoadSample none = s;
    none.scriptTransactions = {0, 0, 0, 0, 0, 0};
    EXPECT_DOUBLE_EQ(*tpcc::sampleNewOrdersPerMinute("tprocc", none), 0) << "an interval without New-Orders has 0 NOPM, measured";
}
