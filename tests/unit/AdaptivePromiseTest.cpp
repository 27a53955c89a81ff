// Every printed promise holds (issue 63): the verdict after adaptive rounds keeps its 5% at one,
// two and eight client counts, Welch and paired, by simulation of the very rule a sweep runs
// (core/sweep/AdaptiveSimulation), 20,000 experiments a case (the standard error of a 5% rate is
// then 0.15%: a true 5.7% cannot pass 5% + 3 standard errors, 5.46%). One and two compared
// client counts run the fixed design (every round to the limit); three and more, the rule.
// A known answer first: where every experiment reaches the limit, the rule is the fixed paired
// design of 10 pairs at 8 client counts, whose rate is exactly 1 - (1 - 0.05/8)^8 = 4.89%.
#include "SimulatedExperiments.h"
#include "sweep/AdaptiveSimulation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

using namespace scalelab;

namespace {

constexpr int kPromiseExperiments = test::simulatedExperiments(20000);

struct PromiseCase {
    int clients;
    double sdPct;
    bool paired;
};

class AdaptivePromise : public testing::TestWithParam<PromiseCase> {};

} // namespace

TEST(AdaptivePromise, AtTheLimitTheRuleIsTheFixedPairedDesignWithItsKnownRate) {
    AdaptiveSimSettings s;
    s.clientCounts = 8;
    s.paired = true;
    s.targetPct = 0.5;  // never met at sd 3%: every point runs its 10 rounds
    s.sdPct = 3;
    s.experiments = kPromiseExperiments;
    s.seed = 63001;
    AdaptiveSimResult r = simulateAdaptive(s);
    EXPECT_EQ(r.atLimit, 2 * 8 * kPromiseExperiments) << "every point at the limit";
    const double exact = 1 - std::pow(1 - 0.05 / 8, 8);
    EXPECT_NEAR(r.callRate(), exact, 3 * test::rateSe(exact, kPromiseExperiments))
        << r.anyCall << " of " << r.experiments << " experiments called a difference; exactly " << 100 * exact << "% expected";
}

TEST_P(AdaptivePromise, NoMoreFalseCallsThanPromised) {
    AdaptiveSimSettings s;
    s.clientCounts = GetParam().clients;
    s.sdPct = GetParam().sdPct;
    s.paired = GetParam().paired;
    s.targetPct = 2;
    s.experiments = kPromiseExperiments;
    s.seed = 63100 + static_cast<uint64_t>(s.clientCounts * 1000 + s.sdPct * 100 + (s.paired ? 1 : 0));
    AdaptiveSimResult r = simulateAdaptive(s);
    EXPECT_LE(r.callRate(), 0.05 + 3 * test::rateSe(0.05, kPromiseExperiments))
        << s.clientCounts << " client counts, sd " << s.sdPct << "%, " << (s.paired ? "paired" : "Welch") << ": "
        << r.anyCall << " of " << r.experiments << " experiments called a difference that is not there";
    if (s.clientCounts <= 2) {
        EXPECT_DOUBLE_EQ(r.meanRoundsPerPoint, s.maxRepetitions) << "the fixed design";
    }
}

// A scan over the run-to-run sd (target 2%): at one and two client counts the fixed design,
// whose rate does not depend on the sd (shown here over 0.5-3%); at eight the rule, around the
// worst cases the review found (sd 1.5%) and the bench's scan (docs/statistics.md: worst at
// 1-2%). Welch and paired each.
std::vector<PromiseCase> promiseScan() {
    std::vector<PromiseCase> out;
    const std::pair<int, std::vector<double>> scan[] = {{1, {0.5, 1, 2, 3}}, {2, {0.5, 1.5, 3}}, {8, {1, 1.5, 2}}};
    for (const auto& [clients, sds] : scan)
        for (double sd : sds)
            for (bool paired : {false, true}) out.push_back({clients, sd, paired});
    return out;
}

INSTANTIATE_TEST_SUITE_P(Scan, AdaptivePromise, testing::ValuesIn(promiseScan()),
                         [](const testing::TestParamInfo<PromiseCase>& i) {
                             return "Clients" + std::to_string(i.param.clients) + "Sd" +
                                    std::to_string(static_cast<int>(i.param.sdPct * 10)) +
                                    (i.param.paired ? "Paired" : "Welch");
                         });

// Power at a stated effect: a true +3% change at sd 1.5% (target 2%) is found in at least 80% of
// experiments, at one client count (the fixed design) and at eight (the rule), never the wrong
// way.
TEST(AdaptivePromise, ATrueThreePercentIsFound) {
    for (int clients : {1, 8}) {
        AdaptiveSimSettings s;
        s.clientCounts = clients;
        s.paired = true;
        s.targetPct = 2;
        s.sdPct = 1.5;
        s.truePct = 3;
        s.experiments = kPromiseExperiments / 10;
        s.seed = 63200 + static_cast<uint64_t>(clients);
        AdaptiveSimResult r = simulateAdaptive(s);
        EXPECT_GE(r.callRate(), 0.8) << clients << " client counts: power " << 100 * r.callRate() << "%";
        EXPECT_EQ(r.anyWrongDirection, 0);
    }
}
