// A latency percentile across a point's rounds: each run's own percentile, the box plot's five
// numbers (quartiles as R's and numpy's default computes them), runs without the percentile
// counted apart, never as 0.
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

} // namespace
} // namespace scalelab
