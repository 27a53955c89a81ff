// The precision rule of a sweep plan: which points get another round, in which order, and what
// a plan may say (core/sweep/AdaptiveRounds, SweepPlan's "precision").
#include "ErrorOf.h"
#include "RunRecords.h"
#include "sweep/AdaptiveRounds.h"
#include "util/Error.h"

#include <gtest/gtest.h>

#include <set>

using namespace scalelab;
using json = nlohmann::json;
using test::completedRun;

namespace {

json plan(const json& precision) {
    json j = json::parse(R"({"version": 1, "series": [{"label": "A"}, {"label": "B"}],
                             "clients": [1, 2, 4], "duration": 10, "repetitions": 3, "seed": 7})");
    if (!precision.is_null()) j["precision"] = precision;
    return j;
}

std::string problem(const json& j) { return test::errorOf([&] { parsePlan(j); }); }

// Three rounds: every point's runs within 1% of its mean (interval +/-2.5%), except A at 2
// clients (10%).
std::vector<RunRecord> threeRounds(double bFactor = 1.0) {
    std::vector<RunRecord> runs;
    const double tight[] = {0.99, 1.0, 1.01}, loose[] = {0.9, 1.0, 1.1};
    for (int rep = 1; rep <= 3; ++rep)
        for (int clients : {1, 2, 4}) {
            double a = 1000.0 * clients;
            runs.push_back(completedRun("A", clients, rep, a * (clients == 2 ? loose : tight)[rep - 1]));
            runs.push_back(completedRun("B", clients, rep, a * bFactor * tight[(rep + 1) % 3]));
        }
    return runs;
}

} // namespace

TEST(AdaptiveRounds, PlanMembersAreCheckedWithTheirPaths) {
    EXPECT_EQ(problem(plan({{"target", 2}, {"max_repetitions", 8}})), "(no error)");
    EXPECT_FALSE(parsePlan(plan(nullptr)).precision) << "no rule: exactly the planned rounds";
    SweepPlan p = parsePlan(plan({{"target", 2.5}, {"max_repetitions", 8}, {"compare", {"A", "B"}}}));
    ASSERT_TRUE(p.precision);
    EXPECT_EQ(p.precision->targetPct, 2.5);
    EXPECT_EQ(p.precision->maxRepetitions, 8);
    EXPECT_EQ(p.precision->candidate, "B");
    EXPECT_EQ(problem(plan({{"target", 2}})),
              "$.precision.max_repetitions: missing: the most rounds any point may run (at least $.repetitions)");
    EXPECT_EQ(problem(plan({{"target", 2}, {"max_repetitions", 2}})),
              "$.precision.max_repetitions: must be at least $.repetitions (3), got 2");
    EXPECT_EQ(problem(plan({{"target", 0}, {"max_repetitions", 5}})),
              "$.precision.target: expected the interval's half-width to reach, as a % of the mean, above 0 and at most 100");
    EXPECT_EQ(problem(plan({{"target", 2}, {"max_repetitions", 5}, {"compare", {"A", "C"}}})),
              "$.precision.compare[1]: no series labelled \"C\"");
    EXPECT_EQ(problem(plan({{"target", 2}, {"max_repetitions", 5}, {"compare", {"A"}}})),
              "$.precision.compare: expected two different series labels: [baseline, candidate]");
    EXPECT_EQ(problem(plan({{"target", 2}, {"max_repetitions", 5}, {"rounds", 3}})),
              "$.precision.rounds: unknown member (see docs/sweeps.md for the plan's members)");
    json sequential = plan({{"target", 2}, {"max_repetitions", 5}});
    sequential["order"] = "sequential";
    EXPECT_EQ(problem(sequential), "$.precision: added rounds keep the interleaved order, so drift hits every series "
                                   "alike: use \"order\": \"interleaved\"");
    EXPECT_EQ(problem(plan({{"target", 2}, {"max_repetitions", 200000}})),
              "$.precision.max_repetitions: 200000 rounds of 6 runs are more than the 1000000 runs one sweep may plan");
}

TEST(AdaptiveRounds, OnlyPointsThatMissTheTargetGetARound) {
    SweepPlan p = parsePlan(plan({{"target", 3}, {"max_repetitions", 6}}));
    auto needs = pointsNeedingRounds(p, threeRounds());
    ASSERT_EQ(needs.size(), 1u);
    EXPECT_EQ(needs[0].series, 0);
    EXPECT_EQ(needs[0].clients, 2);
    EXPECT_EQ(needs[0].rounds, 3);
    // sd 10% over 3 runs: t(0.975, 2) * 0.1 / sqrt(3) = 24.8%.
    EXPECT_EQ(needs[0].reason, "interval +/-24.8%, target +/-3.0%");
    // It would take about (4.30 * 10 / 3)^2 runs: the limit, 6, so 3 more.
    EXPECT_EQ(estimatedExtraRuns(p, threeRounds()), 3);
    EXPECT_TRUE(pointsShortAtLimit(p, threeRounds()).empty());

    // A loose target needs nothing: the sweep is the planned rounds.
    SweepPlan loose = parsePlan(plan({{"target", 30}, {"max_repetitions", 6}}));
    EXPECT_TRUE(pointsNeedingRounds(loose, threeRounds()).empty());
    EXPECT_EQ(estimatedExtraRuns(loose, threeRounds()), 0);
}

TEST(AdaptiveRounds, AtTheLimitAPointIsSaidShortInsteadOfRunAgain) {
    SweepPlan p = parsePlan(plan({{"target", 3}, {"max_repetitions", 3}}));
    EXPECT_TRUE(pointsNeedingRounds(p, threeRounds()).empty());
    auto short_ = pointsShortAtLimit(p, threeRounds());
    ASSERT_EQ(short_.size(), 1u);
    EXPECT_EQ(short_[0].clients, 2);
}

TEST(AdaptiveRounds, ExcludedAndFailedRunsDoNotCount) {
    SweepPlan p = parsePlan(plan({{"target", 3}, {"max_repetitions", 6}}));
    auto runs = threeRounds();
    for (auto& r : runs)
        if (r.series == "B" && r.clients == 4 && r.repetition == 3) r.status = RunStatus::Failed;
    auto needs = pointsNeedingRounds(p, runs);
    ASSERT_EQ(needs.size(), 2u);
    EXPECT_EQ(needs[1].series, 1);
    EXPECT_EQ(needs[1].clients, 4);
    EXPECT_EQ(needs[1].rounds, 2);
}

TEST(AdaptiveRounds, AnUndecidedComparisonGetsRoundsOnBothSides) {
    // Both series precise to 3% alone (+/-2.5%); B 0.5% above A: no difference, but the
    // simultaneous interval of the change is wider than +/-3%, so the comparison is not decided.
    SweepPlan p = parsePlan(plan({{"target", 3}, {"max_repetitions", 6}, {"compare", {"A", "B"}}}));
    auto runs = threeRounds(1.005);
    auto needs = pointsNeedingRounds(p, runs);
    std::set<std::pair<int, int>> points;
    for (const auto& n : needs) points.insert({n.series, n.clients});
    EXPECT_TRUE(points.count({0, 1}) && points.count({1, 1})) << "both sides at 1 client";
    for (const auto& n : needs) {
        if (n.clients == 1) {
            EXPECT_EQ(n.reason.rfind("comparison no difference (change ", 0), 0u) << n.reason;
        }
    }
    // B 20% faster: decided everywhere it can be; only A's imprecise point is left.
    auto decided = pointsNeedingRounds(p, threeRounds(1.2));
    for (const auto& n : decided) {
        EXPECT_EQ(n.clients, 2) << n.reason;
    }
}

TEST(AdaptiveRounds, AnExtraRoundIsInterleavedAndNumberedAfterThePlannedOnes) {
    SweepPlan p = parsePlan(plan({{"target", 3}, {"max_repetitions", 6}}));
    std::vector<PointNeed> needs{{0, 4, 3, "x"}, {1, 1, 3, "x"}, {0, 1, 3, "x"}};
    auto round = extraRound(p, needs, 18, 4, 7);
    ASSERT_EQ(round.size(), 3u);
    EXPECT_EQ(round[0].clients, 1);
    EXPECT_EQ(round[1].clients, 1);
    EXPECT_EQ(round[2].clients, 4);
    EXPECT_NE(round[0].series, round[1].series);
    for (size_t i = 0; i < round.size(); ++i) {
        EXPECT_EQ(round[i].index, 18 + static_cast<int>(i));
        EXPECT_EQ(round[i].repetition, 4);
    }
    // Deterministic for a seed and round; the series order within a client count is shuffled.
    auto again = extraRound(p, needs, 18, 4, 7);
    for (size_t i = 0; i < round.size(); ++i) EXPECT_EQ(again[i].series, round[i].series);
    std::set<int> firsts;
    for (int r = 4; r < 40; ++r) firsts.insert(extraRound(p, needs, 18, r, 7)[0].series);
    EXPECT_EQ(firsts.size(), 2u) << "either series may go first";
}
