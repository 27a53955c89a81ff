// A small real sweep through SweepRunner against a throwaway embedded server.
#include "ServerRequirement.h"
#include "ThrowawayServer.h"

#include "store/ExperimentStore.h"
#include "sweep/SweepRunner.h"

#include <gtest/gtest.h>

#include <map>

using namespace scalelab;

namespace {

struct Recorder : SweepObserver {
    int samples = 0, finished = 0;
    std::vector<std::string> states;
    void onProgress(const SweepProgress& p) override { states.push_back(p.state); }
    void onSample(const SweepProgress&, const LoadSample&) override { ++samples; }
    void onRunFinished(const RunRecord&) override { ++finished; }
};

} // namespace

TEST(Sweep, TwoSeriesThreeClientCountsTwoRoundsLandInTheFileOnceEachInPlanOrder) {
    SCALELAB_REQUIRE_SERVER();
    test::ThrowawayServer s;
    TempDir files("scalelab-sweep");
    nlohmann::json j = {{"version", 1},
                        {"target", {{"data_dir", s.dir.path().string()}}},
                        {"workload", {{"builtin", "select-only"}, {"mode", "prepared"}}},
                        {"series", {{{"label", "base"}}, {{"label", "small work_mem"}, {"settings", {{"work_mem", "1MB"}}}}}},
                        {"clients", "1-4 x2"},
                        {"threads", 2},
                        {"duration", 2},
                        {"repetitions", 2},
                        {"seed", 11},
                        {"sample_interval", 0.5},
                        {"data", {{"scale", 1}}}};
    SweepPlan plan = parsePlan(j);
    auto store = ExperimentStore::create((files.path() / "e.slab").string());
    Recorder rec;
    SweepRunner(plan, *store, &rec, false).run();

    auto runs = store->runs();
    ASSERT_EQ(runs.size(), 12u);
    auto order = expandPlan(plan, 11);
    for (size_t i = 0; i < runs.size(); ++i) {
        SCOPED_TRACE("run " + std::to_string(i));
        ASSERT_TRUE(runs[i].runIndex);
        EXPECT_EQ(*runs[i].runIndex, static_cast<int64_t>(i)) << "written in plan order, each once";
        EXPECT_EQ(runs[i].series, plan.series[static_cast<size_t>(order[i].series)].label);
        EXPECT_EQ(runs[i].clients, order[i].clients);
        EXPECT_EQ(runs[i].repetition, order[i].repetition);
        EXPECT_EQ(runs[i].status, "completed") << runs[i].error;
        EXPECT_GT(runs[i].tps, 0);
        // How many samples a run gets depends on when the sampling thread wakes (a busy machine
        // makes intervals longer); what they add up to does not: every counted transaction.
        auto samples = store->samples(runs[i].id);
        ASSERT_FALSE(samples.empty());
        uint64_t sampled = 0;
        for (const auto& sample : samples) sampled += sample.transactions;
        EXPECT_LE(sampled, runs[i].transactions);
        EXPECT_GE(sampled + 4, runs[i].transactions);  // at most a record in flight per thread and boundary
        EXPECT_TRUE(runs[i].cpuBusyPct.has_value());
        EXPECT_EQ(runs[i].detail["placement"]["method"], "none");
    }
    EXPECT_EQ(rec.finished, 12);
    EXPECT_GE(rec.samples, 12);
    EXPECT_EQ(rec.states.back(), "finished");
    auto provenance = store->provenance();
    ASSERT_EQ(provenance.size(), 1u);
    EXPECT_FALSE(provenance[0]["machine"]["topology"].get<std::string>().empty());
    EXPECT_NE(provenance[0]["server"]["version"].get<std::string>().find("PostgreSQL"), std::string::npos);
    EXPECT_EQ(store->plan()->second, 11u);
    for (const auto& setting : s.server.alteredSettings()) EXPECT_NE(setting.name, "work_mem") << "series settings are reset";

    // A second sweep into the same file needs --resume, and a resumed finished sweep runs nothing.
    EXPECT_THROW(SweepRunner(plan, *store, nullptr, false).run(), Error);
    SweepRunner(plan, *store, nullptr, true).run();
    EXPECT_EQ(store->runs().size(), 12u);
    nlohmann::json other = j;
    other["duration"] = 3;
    EXPECT_THROW(SweepRunner(parsePlan(other), *store, nullptr, true).run(), Error);
}
