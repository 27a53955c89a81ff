#include "load/LatencyHistogram.h"
#include "load/script/Random.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace scalelab;

namespace {

// Exact nearest-rank percentile of sorted data: the value at rank ceil(q * n).
uint64_t exactPercentile(const std::vector<uint64_t>& sorted, double q) {
    size_t rank = static_cast<size_t>(std::ceil(q * static_cast<double>(sorted.size())));
    return sorted[std::max<size_t>(rank, 1) - 1];
}

// Latencies spread over 1 us .. 60 s on a log scale: what a run can produce.
std::vector<uint64_t> logSpread(size_t n, uint64_t seed) {
    Random rng(seed);
    std::vector<uint64_t> v;
    for (size_t i = 0; i < n; ++i) v.push_back(static_cast<uint64_t>(std::exp(std::log(1e3) + rng.uniform() * (std::log(6e10) - std::log(1e3)))));
    return v;
}

} // namespace

TEST(LatencyHistogram, EveryValueFallsInABucketAtMostOnePart128Wide) {
    for (uint64_t v : {uint64_t{0}, uint64_t{1}, uint64_t{127}, uint64_t{128}, uint64_t{255}, uint64_t{256}, uint64_t{1000},
                       uint64_t{999'999}, uint64_t{1'000'000}, uint64_t{60'000'000'000}, (uint64_t{1} << 37) - 1}) {
        size_t i = histogram::bucketIndex(v);
        ASSERT_LT(i, histogram::kBuckets);
        EXPECT_LE(histogram::bucketLow(i), v) << v;
        EXPECT_LT(v, histogram::bucketLow(i) + histogram::bucketWidth(i)) << v;
        EXPECT_LE(histogram::bucketWidth(i) * 128, std::max<uint64_t>(v, 128)) << v;
    }
    EXPECT_EQ(histogram::bucketIndex(UINT64_MAX), histogram::kBuckets - 1);
}

TEST(LatencyHistogram, PercentilesAreWithinOnePercentOfTheExactOnes) {
    std::vector<uint64_t> data = logSpread(200'000, 42);
    LatencyHistogram h;
    for (uint64_t v : data) h.record(v);
    std::sort(data.begin(), data.end());
    for (double q : {0.0, 0.01, 0.5, 0.9, 0.95, 0.99, 0.999, 1.0}) {
        double exact = static_cast<double>(exactPercentile(data, q));
        double got = static_cast<double>(h.percentileNs(q));
        EXPECT_LE(std::abs(got - exact) / exact, 0.01) << "q=" << q << " exact=" << exact << " got=" << got;
    }
    EXPECT_EQ(h.minNs(), data.front());
    EXPECT_EQ(h.maxNs(), data.back());
}

TEST(LatencyHistogram, MeanAndStddevAreExact) {
    // 1, 2, 3, 4 ms: mean 2.5 ms, sample sd sqrt(5/3) ms.
    LatencyHistogram h;
    for (uint64_t ms : {1, 2, 3, 4}) h.record(ms * 1'000'000);
    LatencySummary s = h.summary();
    EXPECT_EQ(s.count, 4u);
    EXPECT_DOUBLE_EQ(s.meanMs, 2.5);
    EXPECT_NEAR(s.stddevMs, std::sqrt(5.0 / 3.0), 1e-9);
    EXPECT_DOUBLE_EQ(s.minMs, 1.0);
    EXPECT_DOUBLE_EQ(s.maxMs, 4.0);
}

TEST(LatencyHistogram, MergingPerThreadHistogramsEqualsRecordingEverythingInOne) {
    std::vector<uint64_t> a = logSpread(50'000, 1), b = logSpread(70'000, 2);
    LatencyHistogram ha, hb, all;
    for (uint64_t v : a) ha.record(v), all.record(v);
    for (uint64_t v : b) hb.record(v), all.record(v);
    ha.merge(hb);
    EXPECT_EQ(ha.count(), all.count());
    for (size_t i = 0; i < histogram::kBuckets; ++i) ASSERT_EQ(ha.bucketCount(i), all.bucketCount(i)) << i;
    for (double q : {0.5, 0.99, 0.999}) EXPECT_EQ(ha.percentileNs(q), all.percentileNs(q));
    EXPECT_DOUBLE_EQ(ha.meanNs(), all.meanNs());
}

TEST(LatencyHistogram, AnIntervalIsTheDifferenceOfTwoSnapshots) {
    LiveLatencyHistogram live;
    for (uint64_t v : {1000, 2000, 3000}) live.record(v);
    LatencyHistogram first = live.snapshot();
    for (uint64_t v : {5'000'000, 7'000'000}) live.record(v);
    LatencyHistogram interval = live.snapshot().since(first);
    EXPECT_EQ(interval.count(), 2u);
    EXPECT_DOUBLE_EQ(interval.meanNs(), 6'000'000);
    EXPECT_EQ(interval.percentileNs(0.5), histogram::bucketLow(histogram::bucketIndex(5'000'000)) +
                                              histogram::bucketWidth(histogram::bucketIndex(5'000'000)) / 2);
}

// An interval's min and max are its own, not the run so far: a 100 ms outlier in the first
// interval must not show up as the second interval's max, nor a 1 us first value as its min.
TEST(LatencyHistogram, AnIntervalsMinAndMaxAreItsOwn) {
    LiveLatencyHistogram live;
    for (uint64_t v : {1'000, 100'000'000}) live.record(v);
    LatencyHistogram first = live.snapshot();
    for (uint64_t v : {10'000'000, 20'000'000}) live.record(v);
    LatencyHistogram interval = live.snapshot().since(first);
    EXPECT_NEAR(static_cast<double>(interval.minNs()), 10e6, 10e6 * 0.004);
    EXPECT_NEAR(static_cast<double>(interval.maxNs()), 20e6, 20e6 * 0.004);
    EXPECT_LE(interval.minNs(), 10'000'000u);
    EXPECT_GE(interval.maxNs(), 20'000'000u);
    LatencySummary s = interval.summary();
    EXPECT_LT(s.maxMs, 21.0);
    EXPECT_GT(s.minMs, 9.9);
}

TEST(LatencyHistogram, AnEmptyHistogramReportsZeros) {
    LatencyHistogram h;
    EXPECT_EQ(h.percentileNs(0.99), 0u);
    EXPECT_EQ(h.summary().count, 0u);
    EXPECT_EQ(h.summary().p99Ms, 0.0);
}
