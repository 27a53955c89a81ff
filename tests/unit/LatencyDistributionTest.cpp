// Latency distributions of stored runs: a run's histogram read back from its record, a point's
// rounds merged exactly, and both exported as bucket bounds and a percentile table.
#include "load/hosts/LoadResultJson.h"
#include "stats/LatencyDistribution.h"
#include "util/Csv.h"
#include "report/Export.h"
#include "util/TempDir.h"

#include "ErrorOf.h"
#include "RunRecords.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

namespace scalelab {
namespace {

constexpr uint64_t kMs = 1000000;

// 90 transactions of 1 ms, 9 of 10 ms, 1 of 100 ms.
LatencyHistogram tailed() {
    LatencyHistogram h;
    for (int i = 0; i < 90; ++i) h.record(1 * kMs);
    for (int i = 0; i < 9; ++i) h.record(10 * kMs);
    h.record(100 * kMs);
    return h;
}

RunRecord withHistogram(RunRecord r, const LatencyHistogram& h) {
    r.detail["histogram"] = toJson(h.data());
    r.transactions = h.count();
    return r;
}

std::vector<std::map<std::string, std::string>> readRows(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    std::vector<std::string> header;
    std::vector<std::map<std::string, std::string>> rows;
    readCsv(text.str(), path, [&](const std::vector<std::string>& fields, int) {
        if (header.empty()) {
            header = fields;
            return;
        }
        std::map<std::string, std::string> row;
        for (size_t i = 0; i < fields.size() && i < header.size(); ++i) row[header[i]] = fields[i];
        rows.push_back(row);
    });
    return rows;
}

TEST(LatencyDistribution, ARunsHistogramComesBackFromItsRecordBucketByBucket) {
    RunRecord r = withHistogram(test::completedRun("A", 4, 1, 100), tailed());
    auto h = runHistogram(r);
    ASSERT_TRUE(h);
    EXPECT_EQ(h->count(), 100u);
    auto buckets = nonEmptyBuckets(*h);
    ASSERT_EQ(buckets.size(), 3u);
    EXPECT_EQ(buckets[0].count, 90u);
    EXPECT_LE(buckets[0].lowMs, 1.0);
    EXPECT_GT(buckets[0].highMs, 1.0);
    EXPECT_LT(buckets[0].highMs - buckets[0].lowMs, 1.0 / 128 + 1e-9);  // 1/128 of its value at most
    EXPECT_EQ(buckets[2].count, 1u);
    EXPECT_LE(buckets[2].lowMs, 100.0);
    EXPECT_GT(buckets[2].highMs, 100.0);

    EXPECT_FALSE(runHistogram(test::completedRun("A", 4, 2, 100)));  // an older or imported run: none
    RunRecord damaged = test::completedRun("A", 4, 3, 100);
    damaged.id = 7;
    damaged.detail["histogram"] = {{"count", 2}, {"sum_ns", 1}, {"sum_squares", 1}, {"min_ns", 1}, {"max_ns", 1},
                                   {"buckets", {{0, 1}}}};
    EXPECT_EQ(test::errorOf([&] { runHistogram(damaged); }).rfind("run 7: its stored latency histogram cannot be read (", 0), 0u)
        << test::errorOf([&] { runHistogram(damaged); });
}

TEST(LatencyDistribution, APointMergesItsCountedRoundsAndSaysWhichHaveNone) {
    LatencyHistogram twoMs;
    for (int i = 0; i < 100; ++i) twoMs.record(2 * kMs);
    RunRecord excluded = withHistogram(test::completedRun("A", 4, 3, 100), tailed());
    excluded.excluded = true;
    RunRecord failed = withHistogram(test::completedRun("A", 4, 4, 100), tailed());
    failed.status = RunStatus::Failed;
    std::vector<RunRecord> runs{withHistogram(test::completedRun("B", 4, 1, 100), twoMs),
                                withHistogram(test::completedRun("A", 4, 1, 100), tailed()),
                                withHistogram(test::completedRun("A", 4, 2, 100), twoMs),
                                test::completedRun("A", 4, 5, 100),  // imported: no histogram
                                excluded, failed};
    auto points = pointDistributions(runs, {"A", "B"});
    ASSERT_EQ(points.size(), 2u);
    EXPECT_EQ(points[0].series, "A");  // the experiment's order, not the runs'
    EXPECT_EQ(points[0].runs, 2);
    EXPECT_EQ(points[0].runsWithout, 1);
    EXPECT_EQ(points[0].merged.count(), 200u);  // excluded and failed runs left out
    // Merged exactly: the 200 values in order are 90 x 1 ms, 100 x 2 ms, 9 x 10 ms, 1 x 100 ms.
    EXPECT_NEAR(points[0].merged.percentileNs(0.45) / 1e6, 1.0, 0.004);
    EXPECT_NEAR(points[0].merged.percentileNs(0.5) / 1e6, 2.0, 0.008);
    EXPECT_NEAR(points[0].merged.percentileNs(0.99) / 1e6, 10.0, 0.04);
    EXPECT_EQ(points[0].merged.maxNs(), 100 * kMs);
    EXPECT_EQ(points[1].series, "B");
    EXPECT_EQ(points[1].runs, 1);
}

TEST(LatencyDistribution, TheExportWritesBucketsAndPercentilesOfRunsAndPoints) {
    TempDir dir("scalelab-latency");
    std::string path = (dir.path() / "e.slab").string();
    {
        auto store = ExperimentStore::create(path);
        store->saveRun(withHistogram(test::completedRun("A", 4, 1, 100, 0), tailed()), {});
        store->saveRun(withHistogram(test::completedRun("A", 4, 2, 100, 1), tailed()), {});
        store->saveRun(test::completedRun("A", 8, 1, 100, 2), {});  // no histogram: in no latency file
    }
    auto store = ExperimentStore::open(path, true);
    std::string out = (dir.path() / "csv").string();
    auto written = exportCsv(*store, out);
    EXPECT_NE(std::find(written.begin(), written.end(), out + "/latency-histograms.csv"), written.end());

    auto buckets = readRows(out + "/latency-histograms.csv");
    ASSERT_EQ(buckets.size(), 6u);  // 3 non-empty buckets of each of the 2 runs
    uint64_t total = 0;
    for (const auto& b : buckets) {
        EXPECT_EQ(b.at("series"), "A");
        EXPECT_LT(std::stod(b.at("bucket_low_ms")), std::stod(b.at("bucket_high_ms")));
        total += std::stoull(b.at("count"));
    }
    EXPECT_EQ(total, 200u);

    auto pct = readRows(out + "/latency-percentiles.csv");
    ASSERT_EQ(pct.size(), 3u);  // 2 runs, 1 point (the 8-client run has no histogram, so no point row)
    EXPECT_EQ(pct[0].at("scope"), "run");
    EXPECT_EQ(pct[0].at("transactions"), "100");
    EXPECT_NEAR(std::stod(pct[0].at("p50_ms")), 1.0, 0.004);
    EXPECT_NEAR(std::stod(pct[0].at("p90_ms")), 1.0, 0.004);   // nearest rank: the 90th of 100
    EXPECT_NEAR(std::stod(pct[0].at("p99_ms")), 10.0, 0.04);
    EXPECT_NEAR(std::stod(pct[0].at("p99_99_ms")), 100.0, 0.4);
    EXPECT_EQ(pct[0].at("max_ms"), "100");
    EXPECT_EQ(pct[2].at("scope"), "point");
    EXPECT_EQ(pct[2].at("run_id"), "");
    EXPECT_EQ(pct[2].at("runs"), "2");
    EXPECT_EQ(pct[2].at("transactions"), "200");

    nlohmann::json j = exportJson(*store, false);
    const auto& d = j["runs"][0]["latency_distribution"];
    EXPECT_EQ(d["count"], 100);
    EXPECT_EQ(d["buckets"].size(), 3u);
    EXPECT_NEAR(d["percentiles_ms"]["p99"].get<double>(), 10.0, 0.04);
    EXPECT_FALSE(j["runs"][0]["detail"].contains("histogram")) << "bucket indices are internal: bounds only";
    EXPECT_TRUE(j["runs"][2]["latency_distribution"].is_null());
}

} // namespace
} // namespace scalelab
