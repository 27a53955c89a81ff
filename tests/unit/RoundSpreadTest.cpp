// A latency percentile across a point's rounds: each run's own percentile, the box plot's five
// numbers (quartiles as R's and numpy's default computes them), runs without the percentile
// counted apart, never as 0.
#include "stats/LatencyThroughput.h"
#include "stats/PointAxis.h"
#include "stats/RoundSpread.h"

#include "ErrorOf.h"
#include "RunRecords.h"

#include <gtest/gtest.h>

#include <cmath>

namespace scalelab {
namespace {

TEST(RoundSpread, QuartilesInterpolateAsNumpyDoes) {
    // numpy.percentile([1, 2, 3, 4, 10], [25, 50, 75]) = 2, 3, 4; of [4, 1, 3, 2]: 1.75, 2.5, 3.25.
    BoxSummary odd = boxSummary({10, 1, 3, 2, 4});
    EXPECT_EQ(odd.n, 5);
    EXPECT_DOUBLE_EQ(odd.min, 1);
    EXPECT_DOUBLE_EQ(odd.q1, 2);
    EXPECT_DOUBLE_EQ(odd.median, 3);
    EXPECT_DOUBLE_EQ(odd.q3, 4);
    EXPECT_DOUBLE_EQ(odd.max, 10);
    BoxSummary even = boxSummary({4, 1, 3, 2});
    EXPECT_DOUBLE_EQ(even.q1, 1.75);
    EXPECT_DOUBLE_EQ(even.median, 2.5);
    EXPECT_DOUBLE_EQ(even.q3, 3.25);
    BoxSummary one = boxSummary({7});
    EXPECT_DOUBLE_EQ(one.q1, 7);
    EXPECT_DOUBLE_EQ(one.max, 7);
    EXPECT_NE(test::errorOf([] { boxSummary({}); }).find("at least one value"), std::string::npos);
}

TEST(RoundSpread, PercentileNamesAreThoseARunKeeps) {
    EXPECT_EQ(parseLatencyPercentile("p99", "--rounds"), LatencyPercentile::P99);
    EXPECT_EQ(parseLatencyPercentile("99.9", "--rounds"), LatencyPercentile::P999);
    EXPECT_EQ(parseLatencyPercentile("max", "--rounds"), LatencyPercentile::Max);
    EXPECT_EQ(test::errorOf([] { parseLatencyPercentile("p98", "--rounds"); }),
              "--rounds: 'p98' is not a percentile ScaleLab keeps per run: p50, p90, p95, p99, p99.9, max");
}

RunRecord withP99(const std::string& series, int clients, int round, double p99) {
    RunRecord r = test::completedRun(series, clients, round, 100);
    r.transactions = 1000;
    r.latency.count = 1000;
    r.latency.p99Ms = p99;
    return r;
}

TEST(RoundSpread, EachPointsRoundsMakeABoxAndRunsWithoutThePercentileAreCountedApart) {
    std::vector<RunRecord> runs = {withP99("B", 4, 1, 5), withP99("A", 4, 1, 2), withP99("A", 4, 2, 4),
                                   withP99("A", 1, 1, 1), withP99("A", 4, 3, 3)};
    RunRecord imported = test::completedRun("A", 4, 4, 100);  // no latency: NaN
    imported.latency.p99Ms = std::nan("");
    runs.push_back(imported);
    RunRecord failed = withP99("A", 4, 5, 100);
    failed.status = RunStatus::Failed;  // does not count
    runs.push_back(failed);
    auto points = percentileBoxes(runs, {"A", "B"}, LatencyPercentile::P99);
    ASSERT_EQ(points.size(), 3u);
    EXPECT_EQ(points[0].clients, 1);
    EXPECT_EQ(points[1].series, "A");
    EXPECT_EQ(points[1].clients, 4);
    EXPECT_EQ(points[1].values, (std::vector<double>{2, 4, 3}));
    EXPECT_EQ(points[1].runsWithout, 1);
    ASSERT_TRUE(points[1].box);
    EXPECT_DOUBLE_EQ(points[1].box->median, 3);
    EXPECT_DOUBLE_EQ(points[1].box->q1, 2.5);
    EXPECT_EQ(points[2].series, "B");
    EXPECT_EQ(points[2].box->n, 1);
}


// Issue 35: latency against throughput, the hockey stick. Each point: the mean achieved tps and
// mean percentile of the runs that count; where runs fell below their rate and where -L skipped.
RunRecord offered(const std::string& series, double rate, int round, double tps, double p99) {
    RunRecord r = test::completedRun(series, 8, round, tps);
    r.detail["rate"] = rate;
    r.latency.p99Ms = p99;
    return r;
}

TEST(LatencyThroughput, PointsKneesAndSkips) {
    std::vector<RunRecord> runs;
    for (int round = 1; round <= 3; ++round) {
        runs.push_back(offered("A", 100, round, 99 + round, 2 + round));
        runs.push_back(offered("A", 400, round, 300, 50));
        runs.push_back(offered("B", 100, round, 100, 2));
        runs.push_back(offered("B", 400, round, 390, 4));
    }
    runs[1].flags.add(RunFlag::BelowRate);   // A at 400, round 1 and 2 fell short
    runs[5].flags.add(RunFlag::BelowRate);
    runs[7].detail["skipped"] = 12;          // B at 400, round 2 skipped under -L
    RunRecord excluded = offered("A", 100, 4, 1000, 1000);
    excluded.excluded = true;                // left out, as in every statistic
    runs.push_back(excluded);
    RunRecord noLatency = offered("A", 100, 5, 1000, 1);
    noLatency.latency.p99Ms = std::nan("");  // no such percentile: not a point of this chart
    runs.push_back(noLatency);

    AxisRuns onRate = runsOnAxis(runs, {"A", "B"}, PointAxis::Rate);
    auto points = latencyThroughput(onRate.runs, onRate.curves, LatencyPercentile::P99);
    ASSERT_EQ(points.size(), 4u);
    EXPECT_EQ(points[0].series, "A");
    EXPECT_EQ(points[0].clients, 100);
    EXPECT_EQ(points[0].runs, 3);
    EXPECT_DOUBLE_EQ(points[0].tps, 101);
    EXPECT_DOUBLE_EQ(points[0].value, 4);
    EXPECT_EQ(points[1].belowRate, 2);
    EXPECT_EQ(points[1].skipping, 0);
    EXPECT_EQ(points[3].series, "B");
    EXPECT_EQ(points[3].skipping, 1);
    EXPECT_EQ(kneeNotes(points, PointAxis::Rate),
              (std::vector<std::string>{"A: below the offered rate from 400 tps offered (2 of 3 runs there)",
                                        "B: -L skips transactions from 400 tps offered (1 of 3 runs there)"}));
}

// Achieved tps as the x of any y: a run metric is drawn as a percentile is, each point the
// mean of its runs that have it; a run without it is no point of that chart (never a 0).
TEST(LatencyThroughput, AnyRunMetricAgainstAchievedTps) {
    std::vector<RunRecord> runs;
    for (int round = 1; round <= 2; ++round) {
        RunRecord r = offered("A", 100, round, 100, 2);
        r.serverCpuPct = 40.0 + round;
        runs.push_back(r);
        RunRecord high = offered("A", 400, round, 380, 9);
        high.serverCpuPct = 150.0 + 10 * round;
        high.flags.add(RunFlag::BelowRate);
        runs.push_back(high);
    }
    runs.push_back(offered("A", 400, 3, 10, 1));  // no server CPU: left out, not drawn at 0
    AxisRuns onRate = runsOnAxis(runs, {"A"}, PointAxis::Rate);
    ThroughputY cpu = parseThroughputY("server_cpu", "--against-tps");
    EXPECT_EQ(cpu.label(), "server CPU");
    EXPECT_EQ(cpu.unit(), "% of one PU");
    auto points = againstThroughput(onRate.runs, onRate.curves, cpu);
    ASSERT_EQ(points.size(), 2u);
    EXPECT_DOUBLE_EQ(points[0].value, 41.5);
    EXPECT_EQ(points[1].runs, 2);
    EXPECT_DOUBLE_EQ(points[1].tps, 380);
    EXPECT_DOUBLE_EQ(points[1].value, 165);
    EXPECT_EQ(points[1].belowRate, 2);
    // The percentiles and the metrics by name; tps (the x) and a metric's p95/p99 (the
    // percentiles) are not offered twice.
    EXPECT_EQ(parseThroughputY("p99.9", "--against-tps").label(), "p99.9 latency");
    EXPECT_EQ(test::errorOf([] { parseThroughputY("tps", "--against-tps"); }),
              "--against-tps: 'tps' cannot be drawn against achieved tps (p50, p90, p95, p99, p99.9, max, latency_mean, "
              "logical_reads, cpu_busy, server_cpu)");
}
} // namespace
} // namespace scalelab
