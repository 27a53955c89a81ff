// The example plans sized for a first run (issue 65): each shipped file, sized to a machine,
// is a plan the parser accepts, with client counts up to twice its PUs and short runs, and one
// the machine cannot run says why.
#include "sweep/ExamplePlans.h"

#include "sweep/SweepEstimate.h"
#include "sweep/SweepPlan.h"
#include "util/Error.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

using namespace scalelab;

namespace {

nlohmann::json shippedPlan(const std::string& name) {
    std::ifstream in(std::string(SCALELAB_SOURCE_DIR) + "/resources/plans/" + name + ".json");
    return nlohmann::json::parse(in);
}

ExamplePlan sizedOn(const std::string& name, const std::string& synthetic) {
    return sizedExample(name, shippedPlan(name), Topology::synthetic(synthetic).info(), "/tmp/scalelab-example/cluster");
}

} // namespace

TEST(ExamplePlans, OnATwoCoreLaptopWithoutSmtTheCoresExampleRunsAndSmtSaysWhyNot) {
    ExamplePlan cores = sizedOn("cores-half", "pack:1 core:2 pu:1");
    EXPECT_TRUE(cores.unusable.empty()) << cores.unusable;
    SweepPlan p = parsePlan(cores.plan);
    EXPECT_EQ(p.clients, (std::vector<int>{1, 2, 4}));
    ASSERT_EQ(p.series.size(), 2u);
    EXPECT_EQ(cores.plan["series"][0]["placement"], "cores:2");
    EXPECT_EQ(cores.plan["series"][1]["placement"], "cores:1");
    EXPECT_EQ(p.durationS, 10);
    EXPECT_EQ(p.repetitions, 3);
    // 2 series x 3 client counts x 3 rounds, and the window's own estimate of them.
    SweepEstimate estimate = estimateSweep(p);
    EXPECT_EQ(estimate.runs, 18);
    ASSERT_TRUE(estimate.seconds);
    const std::string minutes = std::to_string(static_cast<int>(std::lround(*estimate.seconds / 60)));
    EXPECT_NE(cores.sentence.find("2 cores, then on 1"), std::string::npos) << cores.sentence;
    EXPECT_NE(cores.sentence.find("; 18 runs, about " + minutes + " min here."), std::string::npos) << cores.sentence;

    ExamplePlan smt = sizedOn("smt-on-off", "pack:1 core:2 pu:1");
    EXPECT_NE(smt.unusable.find("no SMT (2 cores, 2 PUs)"), std::string::npos) << smt.unusable;
    EXPECT_NO_THROW(parsePlan(smt.plan));
}

TEST(ExamplePlans, OnABigMachineTheClientCountsGrowWithItsPus) {
    ExamplePlan smt = sizedOn("smt-on-off", "pack:2 core:8 pu:2");
    EXPECT_TRUE(smt.unusable.empty()) << smt.unusable;
    EXPECT_EQ(parsePlan(smt.plan).clients, (std::vector<int>{1, 2, 4, 8, 16, 32, 64}));
    EXPECT_NE(smt.sentence.find("1-64 clients"), std::string::npos) << smt.sentence;
    ExamplePlan cores = sizedOn("cores-half", "pack:2 core:8 pu:2");
    EXPECT_EQ(cores.plan["series"][0]["placement"], "cores:16");
    EXPECT_EQ(cores.plan["series"][1]["placement"], "cores:8");
    EXPECT_NE(sizedOn("cores-half", "pack:1 core:1 pu:1").unusable, "");
}

TEST(ExamplePlans, TwoBuildsWithoutAPatchedBuildCompareThisMachinesServerWithItself) {
    ExamplePlan builds = sizedOn("head-vs-patched", "pack:1 core:2 pu:1");
    EXPECT_TRUE(builds.unusable.empty());
    SweepPlan p = parsePlan(builds.plan);
    ASSERT_EQ(p.series.size(), 2u);
    for (const auto& s : builds.plan["series"]) EXPECT_FALSE(s.contains("pg_bindir")) << s.dump();
    EXPECT_EQ(builds.plan["series"][0]["data_dir"], "/tmp/scalelab-example/cluster-head");
    EXPECT_EQ(builds.plan["series"][1]["data_dir"], "/tmp/scalelab-example/cluster-patched");
    EXPECT_NE(builds.sentence.find("against itself (no build in /opt/pg-patched/bin yet"), std::string::npos)
        << builds.sentence;
    // Without a default data directory (no HOME) there is nowhere to keep the two clusters.
    ExamplePlan homeless = sizedExample("head-vs-patched", shippedPlan("head-vs-patched"),
                                        Topology::synthetic("pack:1 core:2 pu:1").info(), "");
    EXPECT_NE(homeless.unusable.find("no default data directory"), std::string::npos) << homeless.unusable;
    EXPECT_THROW(sizedExample("no-such-plan", shippedPlan("cores-half"), Topology::synthetic("pack:1 core:2 pu:1").info(), "/tmp/x"),
                 Error);
}
