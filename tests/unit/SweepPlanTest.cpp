// Sweep plans: validation messages with JSON paths, client ranges, and the order of runs.
#include "sweep/PlanCommands.h"
#include "sweep/SweepEstimate.h"
#include "sweep/SweepPlan.h"
#include "sweep/SweepPreflight.h"
#include "util/Error.h"
#include "util/TempDir.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>

using namespace scalelab;
using json = nlohmann::json;

namespace {

json base() {
    return json::parse(R"({"version": 1, "series": [{"label": "SMT on", "placement": "smt-on"},
                                                    {"label": "SMT off", "placement": "smt-off"}],
                           "clients": [1, 2, 4], "duration": 10, "repetitions": 2, "seed": 7})");
}

std::string problem(const json& j) {
    try {
        parsePlan(j);
    } catch (const Error& e) {
        return e.what();
    }
    return "(valid)";
}

} // namespace

TEST(SweepPlan, AcceptsAMinimalPlanWithDefaults) {
    SweepPlan p = parsePlan(base());
    EXPECT_EQ(p.series.size(), 2u);
    EXPECT_EQ(p.builtins, std::vector<std::string>{"tpcb-like"});
    EXPECT_TRUE(p.embedded());
    EXPECT_TRUE(p.interleaved);
    EXPECT_EQ(p.threads.kind, ThreadsRule::Kind::PerPu);
    EXPECT_EQ(*p.seed, 7u);
}

// workload.kind "tprocc": TPROC-C's six scripts on its nine tables, sized by data.warehouses;
// pgbench's members of the other workload are refused, each at its path.
TEST(SweepPlan, TproccIsAWorkloadKindWithWarehouses) {
    json j = base();
    j["workload"] = {{"kind", "tprocc"}, {"mode", "prepared"}};
    j["data"] = {{"warehouses", 4}, {"init", "reinit"}};
    SweepPlan p = parsePlan(j);
    EXPECT_TRUE(p.tprocc());
    EXPECT_TRUE(p.builtins.empty()) << "no tpcb-like by default for TPROC-C";
    EXPECT_EQ(p.warehouses, std::optional<int>(4));
    EXPECT_TRUE(p.reinit);
    Workload w = p.workload();
    EXPECT_EQ(w.scriptSet, "tprocc");
    EXPECT_EQ(w.scripts.size(), 6u);
    EXPECT_EQ(w.totalWeight(), 10000);
    j["data"] = json::object();
    EXPECT_FALSE(parsePlan(j).warehouses) << "none given: the data's own, or 1";

    j["workload"]["keying_thinking"] = 0.5;
    EXPECT_EQ(parsePlan(j).workload().scripts[0].keyingS, 9.0) << "New-Order's 18 s keying, halved";
    EXPECT_EQ(parsePlan(j).workload().scripts[2].thinkMeanS, 6.0) << "Payment's 12 s mean thinking, halved";
    j["workload"]["rate"] = 100;
    EXPECT_EQ(problem(j), "$.workload.keying_thinking: keying and thinking times pace each client themselves: drop "
                          "workload.rate, or the times");
    j["workload"].erase("rate");
    j["workload"]["keying_thinking"] = 101;
    EXPECT_EQ(problem(j), "$.workload.keying_thinking: must be from 0 (none) to 100 times the specification's times");
    j["workload"].erase("keying_thinking");
    j["workload"]["kind"] = "tpcc";
    EXPECT_EQ(problem(j), "$.workload.kind: expected \"pgbench\" (pgbench's scripts or yours) or \"tprocc\" (TPROC-C's), found \"tpcc\"");
    j["workload"] = {{"kind", "tprocc"}, {"builtin", "select-only"}};
    EXPECT_EQ(problem(j), "$.workload.builtin: TPROC-C (workload.kind \"tprocc\") runs its own scripts on its own tables: drop "
                          "builtin, files, replay and scale");
    j["workload"] = {{"kind", "tprocc"}};
    j["data"] = {{"scale", 10}};
    EXPECT_EQ(problem(j), "$.data.scale: is pgbench's data size; TPROC-C's is data.warehouses");
    j["data"] = {{"warehouses", 0}};
    EXPECT_EQ(problem(j), "$.data.warehouses: expected a whole number of warehouses from 1 to 100000, found 0");
    j["data"] = {{"warehouses", 2.5}};
    EXPECT_EQ(problem(j), "$.data.warehouses: expected a whole number of warehouses from 1 to 100000, found 2.5");
    j["workload"] = {{"kind", "pgbench"}, {"keying_thinking", 1}};
    EXPECT_EQ(problem(j), "$.workload.keying_thinking: gives TPROC-C's transactions their terminal times: it goes with "
                          "workload.kind \"tprocc\"");
    j["workload"] = {{"kind", "pgbench"}};
    j["data"] = {{"warehouses", 2}};
    EXPECT_EQ(problem(j), "$.data.warehouses: is TPROC-C's data size (workload.kind \"tprocc\"); pgbench's is data.scale");
}

TEST(SweepPlan, NamesTheJsonPathOfEachProblem) {
    json j = base();
    j["clients"] = json::array();
    EXPECT_EQ(problem(j), "$.clients: the list of client counts is empty");
    j["clients"] = "1,,x";
    EXPECT_EQ(problem(j), "$.clients: '1,,x': expected a list like [1, 2, 4], \"1,2,4\", a doubling range \"1-64 x2\" "
                          "or a stepped range \"4-32 +4\"");
    j["clients"] = "1,,4";
    EXPECT_EQ(problem(j), "$.clients: '1,,4' has an empty item at position 2");
    j = base();
    j["duration"] = -5;
    EXPECT_EQ(problem(j), "$.duration: must be a positive number of seconds (got -5)");
    // Issue 31.10 and 31.14: values that passed and then ran as 0 transactions or failed.
    j["duration"] = 1e10;
    EXPECT_EQ(problem(j), "$.duration: must be at most 2147483647 s, pgbench's -T limit (got 1e+10)");
    j = base();
    j["threads"] = int64_t(1) << 40;
    EXPECT_EQ(problem(j), "$.threads: at most 100000 threads, found 1099511627776");
    j = base();
    j.erase("duration");
    j["transactions"] = int64_t(1) << 40;
    EXPECT_EQ(problem(j), "$.transactions: must be at most 2147483647 per client, pgbench's -t limit (got 1099511627776)");
    j = base();
    j["series"][1]["placement"] = "smt-halfway";
    EXPECT_EQ(problem(j), "$.series[1].placement: unknown placement 'smt-halfway': expected smt-on, smt-off, cores:N, "
                          "cores:N+smt, or pus:LIST[/LIST] (e.g. pus:0-3/4-7)");
    j = base();
    j["series"][0]["settings"] = {{"autovacum", "off"}};
    SweepPlan p = parsePlan(j);
    try {
        checkSettingNames(p, {"autovacuum", "work_mem"});
        FAIL();
    } catch (const Error& e) {
        EXPECT_STREQ(e.what(), "$.series[0].settings.autovacum: unknown server setting (PostgreSQL has no parameter "
                               "'autovacum'; did you mean autovacuum?)");
    }
    // Issue 61.2: the nearest name when it is near enough to be a typo, none otherwise.
    auto said = [&](const char* name) {
        json k = base();
        k["series"][0]["settings"] = {{name, "1"}};
        try {
            checkSettingNames(parsePlan(k), {"shared_buffers", "work_mem", "maintenance_work_mem", "fsync"});
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("(known)");
    };
    EXPECT_NE(said("shared_bufers").find("did you mean shared_buffers?"), std::string::npos);
    EXPECT_NE(said("Work_Mem2").find("did you mean work_mem?"), std::string::npos);
    EXPECT_NE(said("fsycn").find("did you mean fsync?"), std::string::npos) << "two letters swapped: one edit";
    EXPECT_EQ(said("checkpoint_timeout").find("did you mean"), std::string::npos) << said("checkpoint_timeout");
    j = base();
    j["seriess"] = 1;
    EXPECT_EQ(problem(j), "$.seriess: unknown member (see docs/sweeps.md for the plan's members)");
    j = base();
    j["series"][1]["label"] = "SMT on";
    EXPECT_EQ(problem(j), "$.series[1].label: 'SMT on' is the label of an earlier series too");
    j = base();
    j["transactions"] = 100;
    EXPECT_EQ(problem(j), "$: give either duration (seconds) or transactions (per client), not both or neither");
    j = base();
    j["version"] = 2;
    EXPECT_EQ(problem(j), "$.version: this ScaleLab reads plans of version 1, found 2");
    j = base();
    j["target"] = {{"conninfo", "host=db password=hunter2"}};
    EXPECT_EQ(problem(j), "$.target.conninfo: holds a password; ScaleLab never stores one: use ~/.pgpass, PGPASSFILE or PGPASSWORD");
    j["target"] = {{"conninfo", "postgresql://bench:secret@db1/bench"}};  // a URI's password too
    EXPECT_EQ(problem(j), "$.target.conninfo: holds a password; ScaleLab never stores one: use ~/.pgpass, PGPASSFILE or PGPASSWORD");
    for (const char* blank : {"", "  "}) {  // a remote target left blank is not the embedded server
        j["target"] = {{"conninfo", blank}};
        EXPECT_EQ(problem(j), "$.target.conninfo: is empty: give a connection string, or leave conninfo out for the embedded server");
    }
    j = base();
    j["duration"] = 0;
    EXPECT_EQ(problem(j), "$.duration: must be a positive number of seconds (got 0)");
    j = base();
    j["target"] = {{"conninfo", "host=db"}, {"reconnect", -1}};
    EXPECT_EQ(problem(j), "$.target.reconnect: must be at least 0 (got -1)");
    j["target"] = {{"conninfo", "host=db"}, {"reconnect", 30}};
    EXPECT_EQ(parsePlan(j).reconnectS, 30);
    EXPECT_EQ(parsePlan(base()).reconnectS, 120);
    j["target"] = {{"data_dir", "/tmp/x"}, {"reconnect", 30}};
    EXPECT_EQ(problem(j), "$.target.reconnect: applies to a server of yours (target.conninfo); the embedded server is restarted at once");
    j = base();
    j["workload"] = {{"builtin", "tpcc"}};
    EXPECT_EQ(problem(j), "$.workload.builtin[0]: no builtin script found for name \"tpcc\" (built-in scripts: tpcb-like, simple-update, select-only)");
    j = base();
    j["threads"] = "many";
    EXPECT_EQ(problem(j), "$.threads: expected a positive number of threads, \"clients\" (one per client) or \"pus\" "
                          "(one per load-generator PU), found \"many\"");
}

TEST(SweepPlan, PgbenchRunProtocolMembers) {
    SweepPlan p = parsePlan(base());
    EXPECT_EQ(p.vacuum, RunVacuum::Pgbench);  // as pgbench without -n
    EXPECT_EQ(p.scriptScale, 0);               // not given: custom scripts get 1
    EXPECT_LT(p.maxFailedPct, 0);              // any share, as pgbench
    json j = base();
    j["workload"] = {{"vacuum", "none"}, {"scale", 7}, {"latency_limit", 50}, {"max_failed_pct", 1.5}};
    p = parsePlan(j);
    EXPECT_EQ(p.vacuum, RunVacuum::None);
    EXPECT_EQ(p.scriptScale, 7);
    EXPECT_EQ(p.latencyLimitMs, 50);
    EXPECT_EQ(p.maxFailedPct, 1.5);
    EXPECT_EQ(p.engine, LoadEngine::Auto);
    j["workload"] = {{"engine", "libpq"}};
    EXPECT_EQ(parsePlan(j).engine, LoadEngine::Libpq);
    j["workload"] = {{"engine", "fast"}};
    EXPECT_EQ(problem(j), "$.workload.engine: unknown engine 'fast' (choices: auto, wire, libpq)");
    j["workload"] = {{"vacuum", "sometimes"}};
    EXPECT_EQ(problem(j), "$.workload.vacuum: unknown vacuum choice 'sometimes' (choices: pgbench, all, none)");
    j["workload"] = {{"max_failed_pct", 120}};
    EXPECT_EQ(problem(j), "$.workload.max_failed_pct: must be a percentage from 0 to 100 (got 120)");
    // -D variables
    j["workload"] = {{"builtin", "select-only"}, {"define", {{"aid", 5}, {"name", "x y"}, {"on", true}}}};
    p = parsePlan(j);
    EXPECT_EQ(p.defines, (std::vector<std::string>{"aid=5", "name=x y", "on=true"}));
    Workload w = p.workload();
    ASSERT_EQ(w.defines().size(), 3u);
    EXPECT_EQ(w.defines()[1].value, "x y");
    j["workload"] = {{"define", {{"1x", 5}}}};
    EXPECT_EQ(problem(j), "$.workload.define.1x: invalid variable name");
    j["workload"] = {{"define", {{"x", json::array()}}}};
    EXPECT_EQ(problem(j), "$.workload.define.x: expected a string, number or boolean value");
}

TEST(SweepPlan, ClientCountsFromListsAndRanges) {
    EXPECT_EQ(parseClientCounts(json("1-64 x2"), "$.c"), (std::vector<int>{1, 2, 4, 8, 16, 32, 64}));
    EXPECT_EQ(parseClientCounts(json("4-32 +4"), "$.c"), (std::vector<int>{4, 8, 12, 16, 20, 24, 28, 32}));
    EXPECT_EQ(parseClientCounts(json("1-10 x3"), "$.c"), (std::vector<int>{1, 3, 9}));
    EXPECT_EQ(parseClientCounts(json(" 8, 2,4 "), "$.c"), (std::vector<int>{8, 2, 4}));
    EXPECT_EQ(parseClientCounts(json::parse("[1, 2]"), "$.c"), (std::vector<int>{1, 2}));
    EXPECT_THROW(parseClientCounts(json("64-1 x2"), "$.c"), Error);
    // Issue 31.9: std::regex crashed on 40,000 spaces; now a loop reads any length.
    EXPECT_EQ(parseClientCounts(json("1-2 x2" + std::string(40000, ' ')), "$.c"), (std::vector<int>{1, 2}));
    EXPECT_EQ(parseClientCounts(json(std::string(40000, ' ') + "1 - 4 +1 "), "$.c"), (std::vector<int>{1, 2, 3, 4}));
    EXPECT_THROW(parseClientCounts(json("1-2 x2" + std::string(40000, 'y')), "$.c"), Error);
    EXPECT_THROW(parseClientCounts(json("1-2 x"), "$.c"), Error);
    EXPECT_THROW(parseClientCounts(json("1-2 2"), "$.c"), Error);
    EXPECT_THROW(parseClientCounts(json::parse("[1, 0]"), "$.c"), Error);
    EXPECT_THROW(parseClientCounts(json::parse("[2, 2]"), "$.c"), Error);
}

TEST(SweepPlan, InterleavedOrderRunsEverySeriesOncePerClientCountInEachRound) {
    SweepPlan p = parsePlan(base());
    auto runs = expandPlan(p, 7);
    ASSERT_EQ(runs.size(), 12u);
    std::map<std::tuple<int, int, int>, int> seen;
    for (size_t i = 0; i < runs.size(); ++i) {
        EXPECT_EQ(runs[i].index, static_cast<int>(i));
        ++seen[{runs[i].repetition, runs[i].clients, runs[i].series}];
        // Rounds do not overlap, and client counts ascend within a round.
        if (i == 0) continue;
        EXPECT_GE(runs[i].repetition, runs[i - 1].repetition);
        if (runs[i].repetition == runs[i - 1].repetition) {
            EXPECT_GE(runs[i].clients, runs[i - 1].clients);
        }
    }
    EXPECT_EQ(seen.size(), 12u);  // each (round, clients, series) exactly once
    auto again = expandPlan(p, 7);
    for (size_t i = 0; i < runs.size(); ++i) EXPECT_EQ(again[i].series, runs[i].series) << "the seed decides the order";
    bool shuffled = false;
    for (uint64_t seed = 1; seed < 20 && !shuffled; ++seed)
        for (const auto& r : expandPlan(p, seed)) shuffled = shuffled || (r.index % 2 == 0 && r.series == 1);
    EXPECT_TRUE(shuffled) << "series order within a client count varies with the seed";
}

TEST(SweepPlan, SequentialOrderRunsSeriesBySeries) {
    json j = base();
    j["order"] = "sequential";
    auto runs = expandPlan(parsePlan(j), 7);
    ASSERT_EQ(runs.size(), 12u);
    for (size_t i = 0; i < 6; ++i) EXPECT_EQ(runs[i].series, 0);
    EXPECT_EQ(runs[0].clients, 1);
    EXPECT_EQ(runs[3].repetition, 2);
}

TEST(SweepPlan, ASyntaxErrorNamesFileLineAndColumn) {
    std::string path = testing::TempDir() + "broken-plan.json";
    std::ofstream(path) << "{\n  \"version\": 1,\n  \"clients\": [1, 2,, 4]\n}\n";
    try {
        loadPlanFile(path);
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()).rfind(path + ":3:", 0), 0u) << e.what();
        EXPECT_NE(std::string(e.what()).find("not valid JSON"), std::string::npos) << e.what();
    }
}

TEST(ThreadsRule, CapsThreadsAtClients) {
    ThreadsRule fixed{ThreadsRule::Kind::Fixed, 4};
    EXPECT_EQ(fixed.threadsFor(2, 8), 2);
    EXPECT_EQ(fixed.threadsFor(16, 8), 4);
    EXPECT_EQ((ThreadsRule{ThreadsRule::Kind::PerPu, 0}.threadsFor(16, 6)), 6);
    EXPECT_EQ((ThreadsRule{ThreadsRule::Kind::PerClient, 0}.threadsFor(16, 6)), 16);
}

TEST(SweepPlan, TheExamplePlansInResourcesParse) {
    for (const char* name : {"smt-on-off.json", "cores-half.json", "head-vs-patched.json"}) {
        SCOPED_TRACE(name);
        SweepPlan p = loadPlanFile(std::string(SCALELAB_SOURCE_DIR) + "/resources/plans/" + name);
        EXPECT_EQ(p.series.size(), 2u);
    }
}

// Found by fuzz_plan: "repetitions": 222222222222222 was cut to an int and planned billions of
// runs. A plan that could never finish is refused with its numbers.
TEST(SweepPlan, RefusesMoreRunsThanOneSweepCanPlan) {
    json j = base();
    j["repetitions"] = 222222222222222;
    EXPECT_EQ(problem(j), "$.repetitions: 222222222222222 rounds of 6 runs are more than the 1000000 runs one sweep may plan");
    j["repetitions"] = 166667;  // 1,000,002 runs
    EXPECT_EQ(problem(j), "$.repetitions: 166667 rounds of 6 runs are more than the 1000000 runs one sweep may plan");
    j["repetitions"] = 166666;  // 999,996 runs
    EXPECT_EQ(problem(j), "(valid)");
}

// One estimate for the Setup page and the runner's first ETA: runs x (duration + pause +
// overhead); a precision rule's limit bounds it above; runs of a transaction count have none.
TEST(SweepEstimateTest, RunsAndSecondsWithAndWithoutAPrecisionRule) {
    json j = base();  // 2 series x 3 client counts x 2 rounds of 10 s
    j["settle"] = {{"pause", 2}};
    SweepEstimate e = estimateSweep(parsePlan(j));
    EXPECT_EQ(e.runs, 12);
    EXPECT_EQ(e.maxRuns, 12);
    EXPECT_DOUBLE_EQ(*e.seconds, 12 * (10 + 2 + kRunOverheadS));
    EXPECT_DOUBLE_EQ(*e.maxSeconds, *e.seconds);

    j["precision"] = {{"target", 5}, {"max_repetitions", 5}};
    e = estimateSweep(parsePlan(j));
    EXPECT_EQ(e.runs, 12);
    EXPECT_EQ(e.maxRuns, 30);
    EXPECT_DOUBLE_EQ(*e.maxSeconds, 30 * (10 + 2 + kRunOverheadS));

    j.erase("duration");
    j["transactions"] = 100;
    e = estimateSweep(parsePlan(j));
    EXPECT_EQ(e.runs, 12);
    EXPECT_FALSE(e.seconds.has_value());
    EXPECT_FALSE(secondsPerRun(parsePlan(j)).has_value());
}

TEST(SweepPlan, LoadHostsAsAListOrWithTheirSshCommand) {
    json j = json::parse(R"({"version": 1, "target": {"conninfo": "host=db1 dbname=bench"},
                             "series": [{"label": "HEAD"}], "clients": [2, 4], "duration": 10,
                             "load_hosts": ["bench@client1", "local"]})");
    SweepPlan p = parsePlan(j);
    ASSERT_TRUE(p.loadHosts);
    EXPECT_EQ(p.loadHosts->hosts, (std::vector<std::string>{"bench@client1", "local"}));
    EXPECT_TRUE(p.loadHosts->sshCommand.empty());
    j["load_hosts"] = json::parse(R"({"hosts": ["c1", "c2"], "ssh_command": "ssh -F /etc/bench/ssh_config", "scalelab": "/opt/scalelab"})");
    p = parsePlan(j);
    EXPECT_EQ(p.loadHosts->sshCommand, (std::vector<std::string>{"ssh", "-F", "/etc/bench/ssh_config"}));
    EXPECT_EQ(p.loadHosts->scalelab, "/opt/scalelab");
    EXPECT_FALSE(parsePlan(base()).loadHosts);
}

TEST(SweepPlan, LoadHostsProblemsNameTheirPath) {
    json j = json::parse(R"({"version": 1, "target": {"conninfo": "host=db1 dbname=bench"},
                             "series": [{"label": "HEAD"}], "clients": [2, 4], "duration": 10})");
    auto with = [&](const char* hosts) {
        json k = j;
        k["load_hosts"] = json::parse(hosts);
        return problem(k);
    };
    EXPECT_EQ(with("[]"), "$.load_hosts: expected a non-empty list of hosts, e.g. [\"bench@client1\", \"bench@client2\"]");
    EXPECT_EQ(with(R"(["c1", 3])"), "$.load_hosts[1]: expected an ssh destination (user@host, host) or \"local\"");
    EXPECT_EQ(with(R"(["-oProxyCommand=x"])"), "$.load_hosts[0]: '-oProxyCommand=x' is not an ssh destination (user@host, host) or \"local\"");
    EXPECT_EQ(with(R"({"hosts": ["c1"], "scalelab": "-oProxyCommand=x"})"),
              "$.load_hosts.scalelab: '-oProxyCommand=x' starts with '-': ssh would read it as an option, not the program to run");
    EXPECT_EQ(with(R"({"hosts": ["c1"], "user": "x"})"), "$.load_hosts.user: unknown member (hosts, ssh_command, scalelab)");
    EXPECT_EQ(with(R"(["c1", "c2", "c3"])"), "$.clients: 2 clients cannot be shared over 3 load hosts: each needs at least one");
    // The embedded server is reachable from this machine only.
    json embedded = base();
    embedded["series"] = json::parse(R"([{"label": "A"}])");
    embedded["load_hosts"] = json::parse(R"(["local", "c1"])");
    EXPECT_EQ(problem(embedded), "$.load_hosts: the embedded server listens on this machine only: give target.conninfo, a server c1 can reach");
    embedded["load_hosts"] = json::parse(R"(["local"])");
    EXPECT_EQ(problem(embedded), "(valid)");
    // Placement binds this machine's load generator.
    json placed = base();
    placed["load_hosts"] = json::parse(R"(["local"])");
    EXPECT_EQ(problem(placed), "$.series[0].placement: places this machine's load generator: with load_hosts the clients run elsewhere");
}

TEST(SweepPlan, UnlimitedTriesNeedADurationOrALatencyLimit) {
    json j = base();
    j["workload"] = {{"max_tries", 0}};
    EXPECT_EQ(problem(j), "(valid)");
    EXPECT_EQ(parsePlan(j).maxTries, 0);
    j.erase("duration");
    j["transactions"] = 100;
    EXPECT_EQ(problem(j), "$.workload.max_tries: 0 (no limit) needs a duration or $.workload.latency_limit, as "
                          "pgbench's --max-tries 0 needs -T or -L");
    j["workload"]["latency_limit"] = 20;
    EXPECT_EQ(problem(j), "(valid)");
}

// A series that changes the machine is checked before the sweep: real_smt and offline_cpus
// together are refused by the plan; one the machine cannot do, by the preflight, against a
// fake sysfs CPU directory (SMT not supported, CPU 1 not writable).
TEST(SweepPlan, MachineSwitchesAreCheckedBeforeTheSweep) {
    json j = base();
    j["series"][0]["real_smt"] = true;
    j["series"][0]["offline_cpus"] = true;
    EXPECT_EQ(problem(j), "$.series[0].offline_cpus: real_smt and offline_cpus are two ways of doing one thing: choose one");
    j = base();
    j["series"][1] = {{"label", "x"}, {"offline_cpus", true}};
    EXPECT_EQ(problem(j), "$.series[1]: separate, real_smt and offline_cpus need a placement");

    TempDir fake("scalelab-sysfs");
    std::filesystem::create_directories(fake.path() / "smt");
    std::ofstream(fake.path() / "smt" / "control") << "notsupported\n";
    setenv("SCALELAB_SYSFS_CPU", fake.path().c_str(), 1);
    j = base();
    j["series"][1]["real_smt"] = true;
    std::string refused;
    try {
        preflightSweep(parsePlan(j));
    } catch (const Error& e) {
        refused = e.what();
    }
    unsetenv("SCALELAB_SYSFS_CPU");
    EXPECT_EQ(refused, "$.series[1].real_smt: cannot switch SMT for real here: SMT is 'notsupported' here and cannot be switched");
}

// Issue 35: workload.rate as a list is the grid's offered-load axis.
TEST(SweepPlan, ARateListIsAnAxisOfTheGrid) {
    json j = base();
    j["workload"] = {{"rate", "500-2000 x2"}};
    SweepPlan p = parsePlan(j);
    EXPECT_EQ(p.rates, (std::vector<double>{500, 1000, 2000}));
    EXPECT_EQ(estimateSweep(p).runs, 2 * 3 * 3 * 2);
    auto runs = expandPlan(p, 7);
    ASSERT_EQ(runs.size(), 36u);
    std::map<std::tuple<int, int, double, int>, int> seen;
    for (size_t i = 0; i < runs.size(); ++i) {
        ++seen[{runs[i].repetition, runs[i].clients, runs[i].rate, runs[i].series}];
        if (i == 0 || runs[i].repetition != runs[i - 1].repetition || runs[i].clients != runs[i - 1].clients) continue;
        EXPECT_GE(runs[i].rate, runs[i - 1].rate) << "rates ascend at each client count of a round";
    }
    EXPECT_EQ(seen.size(), 36u);  // each (round, clients, rate, series) once
    // One rate: the order (and so a resumed sweep's indexes) is the order of a plan without the axis.
    json one = base();
    one["workload"] = {{"rate", 800}};
    auto withRate = expandPlan(parsePlan(one), 7), without = expandPlan(parsePlan(base()), 7);
    ASSERT_EQ(withRate.size(), without.size());
    for (size_t i = 0; i < without.size(); ++i) {
        EXPECT_EQ(withRate[i].series, without[i].series);
        EXPECT_EQ(withRate[i].clients, without[i].clients);
        EXPECT_EQ(withRate[i].rate, 800);
    }
    EXPECT_EQ(expandPlan(parsePlan(base()), 7)[0].rate, 0) << "no rate: unthrottled";
}

TEST(SweepPlan, ARateListSaysWhatIsWrongAndWhere) {
    json j = base();
    j["workload"] = {{"rate", json::array({1000, 0})}};
    EXPECT_EQ(problem(j), "$.workload.rate[1]: expected a positive whole number of transactions per second (at most "
                          "100000000), found 0");
    j["workload"] = {{"rate", json::array({1000, 1000})}};
    EXPECT_EQ(problem(j), "$.workload.rate: a rate appears twice");
    j["workload"] = {{"rate", json::array({1000.5})}};
    EXPECT_EQ(problem(j).rfind("$.workload.rate[0]: expected a positive whole number", 0), 0u) << problem(j);
    j["workload"] = {{"rate", json::array()}};
    EXPECT_EQ(problem(j), "$.workload.rate: the list of rates is empty");
    j["workload"] = {{"rate", "1-100000000 +1"}};
    EXPECT_EQ(problem(j), "$.workload.rate: '1-100000000 +1' makes more than 10000 points: a sweep that never ends");
    j["workload"] = {{"rate", -5}};
    EXPECT_NE(problem(j).find("$.workload.rate"), std::string::npos) << problem(j);
    // Adaptive rounds work over the grid; their limit counts every point of it.
    j["workload"] = {{"rate", json::array({100, 200})}};
    j["precision"] = {{"target", 5}, {"max_repetitions", 4}};
    EXPECT_EQ(problem(j), "(valid)");
    j["workload"] = {{"rate", "1-5000 +1"}};
    j["precision"]["max_repetitions"] = 100;
    EXPECT_EQ(problem(j).rfind("$.precision.max_repetitions: 100 rounds of ", 0), 0u) << problem(j);
}

// Issue 35: data.scale as a list is the grid's data-size axis, run scale by scale.
TEST(SweepPlan, AScaleListIsAnAxisRunScaleByScale) {
    json j = base();
    j["data"] = {{"scale", json::array({100, 1, 10})}};
    SweepPlan p = parsePlan(j);
    EXPECT_EQ(p.scales, (std::vector<int64_t>{100, 1, 10}));
    auto runs = expandPlan(p, 7);
    ASSERT_EQ(runs.size(), 36u);
    EXPECT_EQ(estimateSweep(p).runs, 36) << "the estimate counts every scale's runs";
    int changes = 0;
    for (size_t i = 1; i < runs.size(); ++i) changes += runs[i].scale != runs[i - 1].scale;
    EXPECT_EQ(changes, 2) << "the data is rebuilt as seldom as it can be";
    EXPECT_EQ(runs.front().scale, 1);
    EXPECT_EQ(runs.back().scale, 100);
    // Within a scale, the order of a plan without the axis.
    auto plain = expandPlan(parsePlan(base()), 7);
    for (size_t i = 0; i < plain.size(); ++i) {
        EXPECT_EQ(runs[i].series, plain[i].series);
        EXPECT_EQ(runs[i].clients, plain[i].clients);
        EXPECT_EQ(runs[i].repetition, plain[i].repetition);
        EXPECT_EQ(plain[i].scale, 10) << "one scale: the plan's";
    }
}

TEST(SweepPlan, AScaleListSaysWhatItNeeds) {
    json j = base();
    j["data"] = {{"scale", "1-100 x10"}};
    j["workload"] = {{"files", json::array({"x.sql"})}};
    EXPECT_EQ(problem(j).rfind("$.data.scale: a list of scales builds pgbench's tables for the built-in scripts", 0), 0u)
        << problem(j);
    j.erase("workload");
    j["target"] = {{"conninfo", "host=db1 dbname=bench"}};
    EXPECT_EQ(problem(j).rfind("$.data.scale: a list of scales drops and rebuilds the pgbench tables", 0), 0u) << problem(j);
    j["data"]["init"] = "reinit";
    EXPECT_EQ(problem(j), "(valid)");
    j["precision"] = {{"target", 5}, {"max_repetitions", 4}};
    EXPECT_EQ(problem(j), "(valid)") << "adaptive rounds over scales too";
    j["data"]["scale"] = "1-2000 +1";
    j["precision"]["max_repetitions"] = 200;
    EXPECT_EQ(problem(j).rfind("$.precision.max_repetitions: 200 rounds of ", 0), 0u) << problem(j);
    j.erase("precision");
    j["data"]["scale"] = json::array({0});
    EXPECT_EQ(problem(j), "$.data.scale[0]: expected a positive whole scale (pgbench -s) (at most 100000000), found 0");
}

// Issue 60.1: what a plan runs besides its load, as the window shows it before resuming a
// stored plan.
TEST(SweepPlan, CommandsOfPlanListWhatItRunsBesidesTheLoad) {
    EXPECT_TRUE(commandsOfPlan(parsePlan(base())).empty()) << "pgbench's scripts on the embedded server run nothing else";
    TempDir dir("scalelab-plan-commands");
    std::string script = (dir.path() / "s.sql").string();
    std::ofstream(script) << "\\set a 1\n\\setshell x echo 1\nSELECT :a;\n\\shell rm -f /tmp/y\n";
    json j = base();
    j["series"] = json::parse(R"([{"label": "A"}, {"label": "B"}])");
    j["workload"] = {{"files", script}};
    j["target"] = {{"pg_bindir", "/opt/pg/bin"}};
    j["series"][1]["pg_bindir"] = "/opt/patched/bin";
    EXPECT_EQ(commandsOfPlan(parsePlan(j)),
              (std::vector<std::string>{"$.target.pg_bindir: runs PostgreSQL's programs from /opt/pg/bin",
                                        "$.series[1].pg_bindir: runs PostgreSQL's programs from /opt/patched/bin",
                                        "script " + script + " line 2: \\setshell x echo 1",
                                        "script " + script + " line 4: \\shell rm -f /tmp/y"}));
    json remote = json::parse(R"({"version": 1, "series": [{"label": "A"}], "clients": [2], "duration": 10,
        "target": {"conninfo": "host=db1", "metrics_host": {"host": "bench@db1", "ssh_command": "ssh -F cfg"}},
        "load_hosts": {"hosts": ["c1", "local"], "scalelab": "/opt/scalelab"}})");
    EXPECT_EQ(commandsOfPlan(parsePlan(remote)),
              (std::vector<std::string>{"$.target.metrics_host: runs scalelab on bench@db1 through `ssh -F cfg`",
                                        "$.load_hosts[0]: runs /opt/scalelab on c1 through `ssh -o BatchMode=yes`",
                                        "$.load_hosts[1]: runs /opt/scalelab here"}));
}

// Issue 60.3: a plan's data directory or program directory reaches pg_ctl's shell; the
// characters that shell reads inside double quotes are refused with the member's path.
TEST(SweepPlan, RefusesPathsThatPgCtlsShellWouldRead) {
    for (const char* bad : {"/tmp/d`id`", "/tmp/d$(id)", "/tmp/d$HOME", "/tmp/d\"x", "/tmp/d\\x", "/tmp/d\nx"}) {
        json j = base();
        j["target"] = {{"data_dir", bad}};
        EXPECT_EQ(problem(j).rfind("$.target.data_dir: the data directory /tmp/d", 0), 0u) << problem(j);
        EXPECT_NE(problem(j).find("PostgreSQL's pg_ctl passes it through /bin/sh"), std::string::npos) << problem(j);
        j = base();
        j["series"][1]["pg_bindir"] = bad;
        EXPECT_EQ(problem(j).rfind("$.series[1].pg_bindir: PostgreSQL's program directory /tmp/d", 0), 0u) << problem(j);
    }
    json j = base();
    j["target"] = {{"data_dir", "/tmp/my data (copy) #2 'quoted' & more"}};
    EXPECT_EQ(problem(j), "(valid)") << "spaces, parentheses, single quotes and & are inert inside double quotes";
}
