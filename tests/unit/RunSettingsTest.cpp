// The run settings' one table (core/load/RunSettings.h): every row reaches a plan and the load
// job's JSON by its names, and its bounds say what and where. Driven by the table itself, so a
// row added later is tested by these without a line here.
#include "load/LoadSpec.h"
#include "load/RunSettings.h"
#include "load/hosts/LoadJob.h"
#include "sweep/SweepPlan.h"
#include "util/Error.h"
#include "util/Overload.h"

#include <gtest/gtest.h>

#include <set>
#include <type_traits>

using namespace scalelab;
using json = nlohmann::json;

namespace {

json basePlan() {
    return json::parse(R"({"version": 1, "series": [{"label": "A"}], "clients": [1], "duration": 10})");
}

// A value inside the row's bounds that is not the default, as the plan's JSON writes it.
json otherValue(const RunSettingRow& row) {
    static const RunSettings defaults;
    return std::visit(Overload{[&](bool RunSettings::*m) { return json(!(defaults.*m)); },
                               [&](const RunSettingChoice& c) {
                                   for (const auto& [word, value] : c.names)
                                       if (value != c.get(defaults)) return json(word);
                                   return json(nullptr);
                               },
                               [&](double RunSettings::*) { return json(row.min + 2); },
                               [&](auto) { return json(static_cast<int64_t>(row.min) + 2); }},
                      row.value);
}

// "$.workload.latency_limit" from "workload.latency_limit"; the plan with `value` there.
json planWith(const RunSettingRow& row, const json& value) {
    json j = basePlan();
    std::string member = row.plan;
    if (member == "transactions") j.erase("duration");  // either, not both
    size_t dot = member.find('.');
    if (dot == std::string::npos) j[member] = value;
    else j[member.substr(0, dot)][member.substr(dot + 1)] = value;
    return j;
}

// `v` as the row's JSON: a whole number for a count.
json numberJson(const RunSettingRow& row, double v) {
    if (std::holds_alternative<double RunSettings::*>(row.value)) return json(v);
    return json(static_cast<int64_t>(v));
}

// The row's value as a load job carries it (every row these tests compare has a job key).
std::string settingText(const RunSettingRow& row, const RunSettings& s) { return runSettingsJson(s).at(row.job).dump(); }

std::string problem(const json& plan) {
    try {
        parsePlan(plan);
    } catch (const Error& e) {
        return e.what();
    }
    return "(valid)";
}

} // namespace

TEST(RunSettings, EveryRowHasItsOwnNames) {
    std::set<std::string> cli, plan, job, nouns;
    for (const auto& row : runSettingRows()) {
        EXPECT_TRUE(*row.noun) << "a row without a noun";
        EXPECT_TRUE(nouns.insert(row.noun).second) << row.noun;
        if (*row.cli) {
            EXPECT_TRUE(cli.insert(row.cli).second) << row.cli;
            EXPECT_TRUE(*row.doc) << row.cli << ": an option needs its help line";
        }
        if (*row.plan) {
            EXPECT_TRUE(plan.insert(row.plan).second) << row.plan;
        }
        if (*row.job) {
            EXPECT_TRUE(job.insert(row.job).second) << row.job;
        }
        EXPECT_TRUE(*row.cli || *row.plan) << row.noun << ": a setting no one can set";
        EXPECT_TRUE(!*row.plan || *row.job) << row.plan << ": a sweep's runs may run on load hosts";
    }
}

TEST(RunSettings, EveryPlanMemberReachesThePlan) {
    for (const auto& row : runSettingRows()) {
        if (!*row.plan) continue;
        SCOPED_TRACE(row.plan);
        json value = otherValue(row);
        SweepPlan parsed = parsePlan(planWith(row, value));
        EXPECT_NE(settingText(row, parsed), settingText(row, RunSettings{})) << "the plan's value did not arrive";
        // And on to a load host unchanged.
        EXPECT_EQ(runSettingsJson(parsed).at(row.job), value);
    }
}

TEST(RunSettings, APlanValueOutOfBoundsNamesItsPathAndTheRule) {
    for (const auto& row : runSettingRows()) {
        if (!*row.plan || std::holds_alternative<bool RunSettings::*>(row.value)) continue;
        SCOPED_TRACE(row.plan);
        std::string path = std::string("$.") + row.plan + ": ";
        if (std::holds_alternative<RunSettingChoice>(row.value)) {
            EXPECT_EQ(problem(planWith(row, "sometimes")).rfind(path + "unknown " + row.noun + " 'sometimes' (choices: ", 0), 0u)
                << problem(planWith(row, "sometimes"));
            continue;
        }
        double below = row.min - 1;
        std::string said = problem(planWith(row, numberJson(row, below)));
        if (row.zeroIsNone) {
            EXPECT_EQ(problem(planWith(row, 0)), "(valid)") << "0: none";
        }
        EXPECT_EQ(said.rfind(path + "must be ", 0), 0u) << said;
        EXPECT_NE(said.find(row.rule), std::string::npos) << said;
        if (row.max < 1e300) {
            said = problem(planWith(row, numberJson(row, row.max * 10)));
            EXPECT_EQ(said.rfind(path + "must be ", 0), 0u) << said;
        }
        EXPECT_EQ(problem(planWith(row, "ten")).rfind(path + "expected a", 0), 0u) << problem(planWith(row, "ten"));
    }
}

TEST(RunSettings, EveryJobKeyRoundTripsAndIsRequired) {
    RunSettings s;
    for (const auto& row : runSettingRows()) {
        if (!*row.job) continue;
        json v = otherValue(row);
        std::visit(Overload{[&](bool RunSettings::*m) { s.*m = v.get<bool>(); },
                            [&](const RunSettingChoice& c) { c.set(s, *c.valueOf(v.get<std::string>())); },
                            [&](auto m) { s.*m = v.get<std::remove_reference_t<decltype(s.*m)>>(); }},
                   row.value);
    }
    json j = json::parse(runSettingsJson(s).dump());
    RunSettings back;
    readRunSettingsJson(j, back);
    for (const auto& row : runSettingRows()) {
        if (!*row.job) continue;
        SCOPED_TRACE(row.job);
        EXPECT_NE(settingText(row, s), settingText(row, RunSettings{}));
        EXPECT_EQ(settingText(row, back), settingText(row, s));
        json without = j;
        without.erase(row.job);
        try {
            RunSettings r;
            readRunSettingsJson(without, r);
            ADD_FAILURE() << "a job without " << row.job << " was read";
        } catch (const Error& e) {
            EXPECT_EQ(std::string(e.what()), std::string("load job: no \"") + row.job + "\"");
        }
    }
}

TEST(RunSettings, ALoadSpecSaysEachBoundInTheRowsWords) {
    LoadSpec s;
    s.workload.addScriptText("SELECT 1;", "one", 1);
    s.transactionsPerClient = 1;
    s.latencyLimitMs = -5;
    try {
        validate(s);
        FAIL() << "a negative latency limit passed";
    } catch (const Error& e) {
        EXPECT_STREQ(e.what(), "latency limit must be a positive number of milliseconds (got -5)");
    }
}
