// Which machine a run's CPU figures are of (docs/hosts.md): a server's backend found in a /proc
// (a made-up one here), the metrics host's agent answering on a captured machine, readings as
// JSON both ways, the words each role is said in, and a plan's target.metrics_host.
#include "metrics/MachineAgent.h"
#include "metrics/MachineReading.h"
#include "metrics/MetricsMachine.h"
#include "metrics/ProcessCpu.h"
#include "sweep/SweepPlan.h"
#include "util/Error.h"
#include "util/TempDir.h"

#include "ErrorOf.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace scalelab;
namespace fs = std::filesystem;

namespace {

// A /proc/PID/stat line: pid (comm) state ppid, then the fields up to cstime.
void process(const fs::path& root, int pid, const std::string& comm, int ppid, int utime = 10) {
    fs::create_directories(root / "proc" / std::to_string(pid));
    std::ofstream(root / "proc" / std::to_string(pid) / "stat")
        << pid << " (" << comm << ") S " << ppid << " 1 1 0 -1 4194304 100 0 0 0 " << utime << " 5 0 0 20 0 1 0 100\n";
}

void copyData(const fs::path& root, const std::string& from, const std::string& to) {
    fs::create_directories((root / to).parent_path());
    fs::copy_file(fs::path(SCALELAB_TEST_DATA) / "proc" / from, root / to, fs::copy_options::overwrite_existing);
}

std::string planError(const nlohmann::json& target) {
    nlohmann::json plan = {{"version", 1}, {"target", target}, {"workload", {{"builtin", {"select-only"}}}},
                           {"series", {{{"label", "A"}}}}, {"clients", {1}}, {"duration", 1}};
    std::string error = test::errorOf([&] { parsePlan(plan); });
    return error == "(no error)" ? "" : error;
}

} // namespace

TEST(MetricsMachine, ABackendWhoseParentIsThePostmasterIsTheServerHere) {
    TempDir dir;
    process(dir.path(), 1, "systemd", 0);
    process(dir.path(), 500, "postgres", 1);
    process(dir.path(), 612, "postgres", 500);
    process(dir.path(), 700, "bash", 1);
    process(dir.path(), 701, "postgres", 700);  // a postgres whose parent is not: a single-user backend, a copy
    std::string why;
    auto found = postmasterOfBackend(dir.path().string(), 612, why);
    ASSERT_TRUE(found);
    EXPECT_EQ(*found, 500);
    EXPECT_FALSE(postmasterOfBackend(dir.path().string(), 999, why));
    EXPECT_EQ(why, "no process 999");
    EXPECT_FALSE(postmasterOfBackend(dir.path().string(), 700, why));
    EXPECT_EQ(why, "process 700 is 'bash', not PostgreSQL");
    EXPECT_FALSE(postmasterOfBackend(dir.path().string(), 701, why));
    EXPECT_EQ(why, "the parent of process 701 is not a PostgreSQL postmaster");
}

TEST(MetricsMachine, EachRoleIsSaidInWords) {
    MetricsMachine m{"local", "vm1", true, true, ""};
    EXPECT_EQ(m.describe(), "vm1 (server and load generator)");
    m.loadGenerator = false;
    EXPECT_EQ(m.describe(), "vm1 (server)");
    m.server = false;
    EXPECT_EQ(m.describe(), "vm1 (ScaleLab only: neither the server nor the clients)");
    m.loadGenerator = true;
    EXPECT_EQ(m.describe(), "vm1 (load generator, not the server)");
    MetricsMachine host{"bench@db1", "db1.example.com", true, false, "found"};
    EXPECT_EQ(host.describe(), "bench@db1 [db1.example.com] (server)");
    host.server = false;
    EXPECT_EQ(host.describe(), "bench@db1 [db1.example.com] (neither the server nor the clients)");
    auto back = metricsMachineFromJson({{"metrics_machine", toJson(host)}});
    ASSERT_TRUE(back);
    EXPECT_EQ(back->describe(), host.describe());
    EXPECT_EQ(back->why, "found");
    EXPECT_FALSE(metricsMachineFromJson(nlohmann::json::object()));  // a run from before: not recorded, not guessed
}

TEST(MetricsMachine, AReadingSurvivesJsonAndABrokenOneIsRefused) {
    TempDir dir;
    copyData(dir.path(), "stat.1", "proc/stat");
    copyData(dir.path(), "diskstats.1", "proc/diskstats");
    copyData(dir.path(), "pressure-io.1", "proc/pressure/io");
    process(dir.path(), 500, "postgres", 1, 40);
    process(dir.path(), 612, "postgres", 500, 2);
    MachineReading r = readMachine(dir.path().string(), 500);
    ASSERT_FALSE(r.cpu.perPu.empty());
    ASSERT_FALSE(r.disks.empty());
    EXPECT_EQ(r.serverTicks, 40u + 5 + 2 + 5);  // both processes' utime + stime
    EXPECT_TRUE(r.ioPressure);
    EXPECT_FALSE(r.cpuPressure);  // no file: missing, not 0
    MachineReading back = machineReadingFromJson(nlohmann::json::parse(toJson(r).dump()));
    EXPECT_EQ(back.seconds, r.seconds);
    EXPECT_EQ(back.cpu.total.user, r.cpu.total.user);
    EXPECT_EQ(back.cpu.total.steal, r.cpu.total.steal);
    ASSERT_EQ(back.cpu.perPu.size(), r.cpu.perPu.size());
    EXPECT_EQ(back.cpu.perPu.back().first, r.cpu.perPu.back().first);
    EXPECT_EQ(back.cpu.perPu.back().second.idle, r.cpu.perPu.back().second.idle);
    ASSERT_EQ(back.disks.size(), r.disks.size());
    EXPECT_EQ(back.disks[0].name, r.disks[0].name);
    EXPECT_EQ(back.disks[0].msDoingIo, r.disks[0].msDoingIo);
    EXPECT_EQ(back.serverTicks, r.serverTicks);
    EXPECT_EQ(back.ioPressure->someUs, r.ioPressure->someUs);
    EXPECT_FALSE(back.cpuPressure);
    nlohmann::json broken = toJson(r);
    broken.erase("cpu");
    EXPECT_THROW(machineReadingFromJson(broken), Error);
}

TEST(MetricsMachine, TheAgentAnswersItsQuestionsAndRefusesAnythingElse) {
    TempDir dir;
    copyData(dir.path(), "stat.1", "proc/stat");
    copyData(dir.path(), "diskstats.1", "proc/diskstats");
    fs::create_directories(dir.path() / "sys/block/sda");
    process(dir.path(), 500, "postgres", 1);
    process(dir.path(), 612, "postgres", 500);
    std::istringstream in(R"({"server":{"backend_pid":612}})"
                          "\n"
                          R"({"read":true})"
                          "\n"
                          R"({"server":{"backend_pid":13}})"
                          "\n"
                          R"({"stop":true})"
                          "\n"
                          R"({"read":true})"
                          "\n");
    std::vector<nlohmann::json> sent;
    int status = serveMachineAgent(in, [&](const nlohmann::json& m) { sent.push_back(m); },
                                   [] { return nlohmann::json{{"cpu_model", "test"}}; }, dir.path().string());
    EXPECT_EQ(status, 0);
    ASSERT_EQ(sent.size(), 4u);  // machine, server, reading, server; nothing after stop
    EXPECT_EQ(sent[0]["machine"]["whole_disks"], nlohmann::json::array({"sda"}));
    EXPECT_EQ(sent[0]["machine"]["provenance"]["cpu_model"], "test");
    EXPECT_EQ(sent[1]["server"]["postmaster"], 500);
    EXPECT_GT(machineReadingFromJson(sent[2]["reading"]).serverTicks, 0u);
    EXPECT_EQ(sent[3]["server"]["why"], "no process 13");

    std::istringstream junk("{\"job\":{}}\n");
    sent.clear();
    EXPECT_EQ(serveMachineAgent(junk, [&](const nlohmann::json& m) { sent.push_back(m); }, {}, dir.path().string()), 1);
    ASSERT_EQ(sent.size(), 2u);
    EXPECT_NE(sent[1]["error"].get<std::string>().find("does not understand"), std::string::npos);
}

TEST(MetricsMachine, APlansMetricsHostIsAServerOfTheUsersMachine) {
    EXPECT_EQ(planError({{"conninfo", "host=db1"}, {"metrics_host", "bench@db1"}}), "");
    EXPECT_EQ(planError({{"conninfo", "host=db1"},
                         {"metrics_host", {{"host", "db1"}, {"ssh_command", "ssh -F cfg"}, {"scalelab", "/opt/scalelab"}}}}),
              "");
    nlohmann::json plan = {{"version", 1}, {"target", {{"conninfo", "host=db1"}, {"metrics_host", {{"host", "db1"}, {"ssh_command", "ssh -p 2222"}}}}},
                           {"workload", {{"builtin", {"select-only"}}}}, {"series", {{{"label", "A"}}}}, {"clients", {1}}, {"duration", 1}};
    SweepPlan p = parsePlan(plan);
    ASSERT_TRUE(p.metricsHost);
    EXPECT_EQ(p.metricsHost->host, "db1");
    EXPECT_EQ(p.metricsHost->sshCommand, (std::vector<std::string>{"ssh", "-p", "2222"}));
    EXPECT_NE(planError({{"metrics_host", "db1"}}).find("$.target.metrics_host: is for a server of yours on another machine"),
              std::string::npos);
    EXPECT_EQ(planError({{"conninfo", "host=db1"}, {"metrics_host", "-oProxyCommand=x"}}),
              "$.target.metrics_host: '-oProxyCommand=x' is not an ssh destination (user@host, host) or \"local\"");
    EXPECT_EQ(planError({{"conninfo", "host=db1"}, {"metrics_host", {{"hosts", {"db1"}}}}}),
              "$.target.metrics_host.hosts: unknown member (host, ssh_command, scalelab)");
    EXPECT_EQ(planError({{"conninfo", "host=db1"}, {"metrics_host", {{"ssh_command", "ssh"}}}}), "$.target.metrics_host.host: missing: the host");
    EXPECT_EQ(planError({{"conninfo", "host=db1"}, {"metrics_host", 3}}),
              "$.target.metrics_host: expected a host (\"db1\", \"bench@db1\"), or {\"host\": ..., \"ssh_command\": ..., \"scalelab\": ...}");
}
