// A small real sweep through SweepRunner against a throwaway embedded server.
#include "ServerRequirement.h"
#include "ThrowawayServer.h"

#include "store/ExperimentOverview.h"
#include "store/ExperimentStore.h"
#include "store/StatementTexts.h"
#include "sweep/SweepRunner.h"
#include "util/TempDir.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <pqxx/pqxx>

using namespace scalelab;

namespace {

struct Recorder : SweepObserver {
    int samples = 0, finished = 0;
    std::vector<SweepState> states;
    void onProgress(const SweepProgress& p) override {
        states.push_back(p.state);
        elapsed.push_back(p.elapsedS);
    }
    void onSample(const SweepProgress& p, const LoadSample&) override {
        ++samples;
        elapsed.push_back(p.elapsedS);
        auto& span = sampleSpan[p.run];
        if (span.first == 0) span.first = p.elapsedS;
        span.second = p.elapsedS;
    }
    std::vector<double> elapsed;          // of every progress and sample, in order
    std::map<int, std::pair<double, double>> sampleSpan;  // per run: elapsed at its first and last sample
    void onRunFinished(const RunRecord&) override { ++finished; }
    void onNote(const std::string& s) override { notes.push_back(s); }
    std::vector<std::string> notes;
    bool noted(const std::string& part) const {
        for (const auto& n : notes)
            if (n.find(part) != std::string::npos) return true;
        return false;
    }
};

// Select-only on the throwaway server, series A and B, 1-second runs at 1 client: the tests
// add or change what they are about.
nlohmann::json selectOnlyPlan(const test::ThrowawayServer& s) {
    return {{"version", 1},
            {"target", {{"data_dir", s.dir.path().string()}}},
            {"workload", {{"builtin", "select-only"}}},
            {"series", {{{"label", "A"}}, {{"label", "B"}}}},
            {"clients", {1}},
            {"duration", 1}};
}

} // namespace

TEST(Sweep, TwoSeriesThreeClientCountsTwoRoundsLandInTheFileOnceEachInPlanOrder) {
    SCALELAB_REQUIRE_SERVER();
    test::ThrowawayServer s;
    TempDir files("scalelab-sweep");
    nlohmann::json j = {{"version", 1},
                        {"target", {{"data_dir", s.dir.path().string()}}},
                        {"workload", {{"builtin", "select-only"}, {"mode", "prepared"}, {"define", {{"note", "x"}}}}},
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
    std::string failures;  // what a run that ran again said, so that a failure here names its cause
    for (const auto& r : runs)
        if (r.status != RunStatus::Completed) failures += "\n" + r.series + " at " + std::to_string(r.clients) + ": " + r.error;
    ASSERT_EQ(runs.size(), 12u) << failures << "\nthe sweep's notes: " << ::testing::PrintToString(rec.notes);
    auto order = expandPlan(plan, 11);
    for (size_t i = 0; i < runs.size(); ++i) {
        SCOPED_TRACE("run " + std::to_string(i));
        ASSERT_TRUE(runs[i].runIndex);
        EXPECT_EQ(*runs[i].runIndex, static_cast<int64_t>(i)) << "written in plan order, each once";
        EXPECT_EQ(runs[i].series, plan.series[static_cast<size_t>(order[i].series)].label);
        EXPECT_EQ(runs[i].clients, order[i].clients);
        EXPECT_EQ(runs[i].repetition, order[i].repetition);
        EXPECT_EQ(runs[i].status, RunStatus::Completed) << runs[i].error;
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
    // Issue 31.15: the elapsed time a progress line shows is the time now, not that of the run's
    // preparation (it stood still through every wait and every run).
    EXPECT_TRUE(std::is_sorted(rec.elapsed.begin(), rec.elapsed.end()));
    double longest = 0;
    for (const auto& [run, span] : rec.sampleSpan) longest = std::max(longest, span.second - span.first);
    EXPECT_GT(longest, 0.9) << "2 s runs sampled every 0.5 s: the samples' elapsed time moves within a run";
    EXPECT_EQ(rec.states.back(), SweepState::Finished);
    auto provenance = store->provenance();
    ASSERT_EQ(provenance.size(), 1u);
    EXPECT_FALSE(provenance[0]["machine"]["topology"].get<std::string>().empty());
    EXPECT_NE(provenance[0]["server"]["version"].get<std::string>().find("PostgreSQL"), std::string::npos);
    // The scripts' text, so that the result can be reproduced when the file has changed.
    EXPECT_EQ(provenance[0]["scripts"]["scripts"][0]["name"], "<builtin: select only>");
    EXPECT_NE(provenance[0]["scripts"]["scripts"][0]["text"].get<std::string>().find("SELECT abalance"), std::string::npos);
    EXPECT_EQ(provenance[0]["scripts"]["define"]["note"], "x");
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

// A run that fails runs again at the end of the sweep; with no retries left the end of the
// sweep names the short point, and --resume runs the failed run again.
TEST(Sweep, AFailedRunRunsAgainAtTheEndAndResumeRedoesOne) {
    SCALELAB_REQUIRE_SERVER();
    test::ThrowawayServer s;
    TempDir files("scalelab-sweep");
    {
        pqxx::connection c(s.server.connectionString());
        pqxx::nontransaction tx(c);
        tx.exec("CREATE SEQUENCE fail_once; CREATE SEQUENCE fail_twice");
    }
    // Sequences are not transactional: which calls fail is fixed, whatever rolls back.
    std::string once = (files.path() / "once.sql").string(), twice = (files.path() / "twice.sql").string();
    std::ofstream(once) << "SELECT 1 / (nextval('fail_once') - 1);\n";
    // Calls 1 and 3 fail: the first run, then its retry (the second run, call 2, passes).
    std::ofstream(twice) << "SELECT 1 / (nextval('fail_twice') NOT IN (1, 3))::int;\n";
    auto planWith = [&](const std::string& script, int retries) {
        return parsePlan({{"version", 1},
                          {"target", {{"data_dir", s.dir.path().string()}}},
                          {"workload", {{"files", script}, {"vacuum", "none"}}},
                          {"series", {{{"label", "A"}}}},
                          {"clients", {1}},
                          {"threads", 1},
                          {"transactions", 1},
                          {"repetitions", 2},
                          {"retries", retries},
                          {"seed", 3}});
    };
    {
        auto store = ExperimentStore::create((files.path() / "retry.slab").string());
        Recorder rec;
        SweepRunner(planWith(once, 1), *store, &rec, false).run();
        auto runs = store->runs();
        ASSERT_EQ(runs.size(), 3u);  // the failure stays as history
        EXPECT_EQ(runs[0].status, RunStatus::Failed);
        EXPECT_EQ(runs[2].status, RunStatus::Completed);
        EXPECT_EQ(runs[2].runIndex, runs[0].runIndex) << "the retry is the same planned run";
        EXPECT_EQ(store->finishedRunIndexes(), (std::set<int64_t>{0, 1}));
        EXPECT_TRUE(rec.noted("it runs again at the end of the sweep"));
        EXPECT_FALSE(rec.noted("rounds completed"));
    }
    {
        auto store = ExperimentStore::create((files.path() / "short.slab").string());
        Recorder rec;
        SweepPlan plan = planWith(twice, 1);  // fails on its first try and on its retry
        SweepRunner(plan, *store, &rec, false).run();
        EXPECT_EQ(store->finishedRunIndexes().size(), 1u);
        EXPECT_TRUE(rec.noted("A at 1 client: 1 of 2 rounds completed")) << ::testing::PrintToString(rec.notes);
        SweepRunner(plan, *store, &rec, true).run();  // --resume: the failed run once more, now passing
        EXPECT_EQ(store->finishedRunIndexes(), (std::set<int64_t>{0, 1}));
    }
}

// The precision rule on a real server: a target no run can meet adds interleaved rounds up to
// the limit, recorded as extra rounds, and the end of the sweep says which points are short.
TEST(Sweep, ThePrecisionRuleAddsInterleavedRoundsUpToTheLimit) {
    SCALELAB_REQUIRE_SERVER();
    test::ThrowawayServer s;
    TempDir files("scalelab-sweep-precision");
    nlohmann::json j = selectOnlyPlan(s);
    j.update({{"clients", {1, 2}},
              {"threads", 1},
              {"repetitions", 2},
              {"seed", 5},
              {"precision", {{"target", 0.0001}, {"max_repetitions", 4}, {"compare", {"A", "B"}}}},
              {"data", {{"scale", 1}}}});
    auto store = ExperimentStore::create((files.path() / "tight.slab").string());
    struct Totals : Recorder {
        int lastTotal = 0;
        void onProgress(const SweepProgress& p) override { lastTotal = p.total, Recorder::onProgress(p); }
    } rec;
    SweepRunner(parsePlan(j), *store, &rec, false).run();
    auto runs = store->runs();
    ASSERT_EQ(runs.size(), 16u) << "2 series x 2 client counts x 4 rounds";
    EXPECT_EQ(rec.lastTotal, 16);
    std::map<int, int> perRound;
    for (size_t i = 0; i < runs.size(); ++i) {
        EXPECT_EQ(runs[i].status, RunStatus::Completed) << runs[i].error;
        EXPECT_EQ(*runs[i].runIndex, static_cast<int64_t>(i));
        bool extra = runs[i].flags.has(RunFlag::ExtraRound);
        EXPECT_EQ(extra, i >= 8u) << "run " << i;
        ++perRound[runs[i].repetition];
        if (i >= 8) {
            EXPECT_EQ(runs[i].repetition, i < 12 ? 3 : 4);
        }
    }
    EXPECT_EQ(perRound, (std::map<int, int>{{1, 4}, {2, 4}, {3, 4}, {4, 4}}));
    EXPECT_TRUE(rec.noted("round 3 added by the precision rule, 4 runs:"));
    EXPECT_TRUE(rec.noted("round 4 added by the precision rule, 4 runs:"));
    // The compared pair is judged on its change interval, not each point's own; on a noisy
    // machine (a sanitizer build) that interval may be too wide to bound, said in those words.
    EXPECT_TRUE(rec.noted("A at 1 client: 4 rounds, the precision rule's limit, and still change interval"))
        << ::testing::PrintToString(rec.notes);
    EXPECT_TRUE(rec.noted("B against A (Welch), as `scalelab report --compare` says it"));
    // Resumed, a sweep at its limit runs nothing more.
    SweepRunner(parsePlan(j), *store, nullptr, true).run();
    EXPECT_EQ(store->runs().size(), 16u);

    // A limit of the planned rounds adds none, whatever the runs measured (whether a target is
    // met depends on the machine's noise: tests/unit/AdaptiveRoundsTest.cpp decides that on
    // fixed numbers); the points still short are named at the end.
    j["precision"] = {{"target", 0.0001}, {"max_repetitions", 2}};
    auto limited = ExperimentStore::create((files.path() / "limited.slab").string());
    Recorder none;
    SweepRunner(parsePlan(j), *limited, &none, false).run();
    EXPECT_EQ(limited->runs().size(), 8u) << "the planned rounds only";
    EXPECT_TRUE(none.noted("A at 2 clients: 2 rounds, the precision rule's limit, and still interval +/-"));
    EXPECT_FALSE(none.noted("added by the precision rule"));
}

// A misspelt server setting is refused before the file is written or a server started, for
// the window as for the command line (SweepRunner checks), with the JSON path of the setting;
// for a server of the user's, against that server's own list.
TEST(Sweep, AMisspeltServerSettingIsRefusedBeforeAnythingIsWritten) {
    SCALELAB_REQUIRE_SERVER();
    test::ThrowawayServer s;
    TempDir files("scalelab-sweep-preflight");
    nlohmann::json embedded = selectOnlyPlan(s);
    embedded["series"][1]["settings"] = {{"wrok_mem", "1MB"}};
    nlohmann::json remote = selectOnlyPlan(s);
    remote["target"] = {{"conninfo", s.server.connectionString()}, {"settings", {{"shared_bufers", "1GB"}}}};
    for (const auto& [j, path] : {std::pair{embedded, std::string("$.series[1].settings.wrok_mem")},
                                  std::pair{remote, std::string("$.target.settings.shared_bufers")}}) {
        std::string file = (files.path() / (path.substr(2, 6) + ".slab")).string();
        auto store = ExperimentStore::create(file);
        Recorder rec;
        std::string error;
        try {
            SweepRunner(parsePlan(j), *store, &rec, false).run();
        } catch (const std::exception& e) {
            error = e.what();
        }
        EXPECT_EQ(error.rfind(path + ": unknown server setting", 0), 0u) << error;
        EXPECT_FALSE(store->plan().has_value()) << path;
        EXPECT_TRUE(store->runs().empty()) << path;
        EXPECT_EQ(rec.finished, 0);
    }
}

// pg_stat_statements per run: the embedded server preloads it, each run keeps what its counted
// window ran (the load's statement as often as the load ran it, ScaleLab's own counter and
// statement reads left out), the text once in the experiment; a server of the user's whose
// database lacks the extension is only read, and each run says why it has none.
TEST(Sweep, EachRunKeepsTheStatementsItsWindowRanAndAServerWithoutThemSaysWhy) {
    SCALELAB_REQUIRE_SERVER();
    test::ThrowawayServer s;
    TempDir files("scalelab-sweep-statements");
    nlohmann::json j = selectOnlyPlan(s);
    j["repetitions"] = 2;
    j["data"] = {{"scale", 1}};
    auto store = ExperimentStore::create((files.path() / "e.slab").string());
    Recorder rec;
    SweepRunner(parsePlan(j), *store, &rec, false).run();
    EXPECT_TRUE(rec.noted("statements: pg_stat_statements 1."));
    StatementTexts texts = statementTexts(*store);
    std::string select;
    for (const auto& [id, text] : texts) {
        EXPECT_EQ(text.find("pg_stat_database"), std::string::npos) << text;    // the counters' read
        EXPECT_EQ(text.find("pg_stat_statements"), std::string::npos) << text;  // its own
        if (text == "SELECT abalance FROM pgbench_accounts WHERE aid = $1") select = id;
    }
    ASSERT_FALSE(select.empty()) << nlohmann::json(texts).dump();
    auto runs = store->runs();
    ASSERT_EQ(runs.size(), 4u);
    for (const auto& r : runs) {
        ASSERT_EQ(r.status, RunStatus::Completed) << r.error;
        const auto& st = r.detail.at("system").at("statements");
        ASSERT_TRUE(st.contains("rows")) << st.dump();
        bool found = false;
        for (const auto& row : st["rows"]) {
            EXPECT_FALSE(row.contains("query"));  // the text is the experiment's
            if (row["queryid"] != select) continue;
            found = true;
            // Counted transactions end by the deadline; one in flight then (1 client) ends after.
            uint64_t calls = row["calls"].get<uint64_t>();
            EXPECT_GE(calls, static_cast<uint64_t>(r.transactions));
            EXPECT_LE(calls, static_cast<uint64_t>(r.transactions) + 1);
            EXPECT_GT(row["total_ms"].get<double>(), 0);
        }
        EXPECT_TRUE(found) << st.dump();
    }
    EXPECT_EQ(store->provenance().at(0).at("statements"), "pg_stat_statements, preloaded by ScaleLab's embedded server");
    auto overview = experimentOverview(*store);
    EXPECT_TRUE(std::any_of(overview.begin(), overview.end(), [](const OverviewItem& i) {
        return i.section == "PostgreSQL" && i.name == "Statements" && i.value.find("preloaded") != std::string::npos;
    }));

    // A server of the user's: a database without the extension is read, never changed.
    {
        pqxx::connection c(s.server.connectionString("postgres"));
        pqxx::nontransaction tx(c);
        tx.exec("CREATE DATABASE plain");
    }
    nlohmann::json remote = selectOnlyPlan(s);
    remote["target"] = {{"conninfo", s.server.connectionString("plain")}};
    remote["series"] = {{{"label", "A"}}};
    remote["data"] = {{"scale", 1}, {"init", "reinit"}};
    auto other = ExperimentStore::create((files.path() / "remote.slab").string());
    Recorder remoteRec;
    SweepRunner(parsePlan(remote), *other, &remoteRec, false).run();
    const std::string why = "pg_stat_statements is loaded but not installed in database plain (CREATE EXTENSION pg_stat_statements)";
    EXPECT_TRUE(remoteRec.noted("statements: none recorded: " + why)) << nlohmann::json(remoteRec.notes).dump(1);
    auto remoteRuns = other->runs();
    ASSERT_EQ(remoteRuns.size(), 1u);
    EXPECT_EQ(remoteRuns[0].detail.at("system").at("statements"), nlohmann::json({{"unavailable", why}}));
    pqxx::connection c(s.server.connectionString("plain"));
    pqxx::nontransaction tx(c);
    EXPECT_TRUE(tx.exec("SELECT 1 FROM pg_extension WHERE extname = 'pg_stat_statements'").empty());
}

// A rate the server cannot serve: the run is kept, flagged below-rate, and the sweep says what
// was offered and what was achieved.
TEST(Sweep, ARunFarBelowItsOfferedRateIsFlaggedAndSaid) {
    SCALELAB_REQUIRE_SERVER();
    test::ThrowawayServer s;
    TempDir files("scalelab-sweep-rate");
    nlohmann::json j = selectOnlyPlan(s);
    j["series"] = {{{"label", "A"}}};
    j["workload"]["rate"] = 100000000;
    j["data"] = {{"scale", 1}};
    auto store = ExperimentStore::create((files.path() / "e.slab").string());
    Recorder rec;
    SweepRunner(parsePlan(j), *store, &rec, false).run();
    auto runs = store->runs();
    ASSERT_EQ(runs.size(), 1u);
    ASSERT_EQ(runs[0].status, RunStatus::Completed) << runs[0].error;
    EXPECT_TRUE(runs[0].flags.has(RunFlag::BelowRate)) << runs[0].flags.joined();
    EXPECT_DOUBLE_EQ(runs[0].detail.at("rate").get<double>(), 1e8);
    EXPECT_TRUE(rec.noted("A at 1 client, round 1: below the offered rate: offered 100000000 tps, achieved "))
        << nlohmann::json(rec.notes).dump(1);
}
