// A server host (target.host, docs/hosts.md): the plan's forms and refusals, the address the
// clients connect to, pg_hba.conf's line for clients elsewhere, and the agent's cluster
// questions that are not its protocol (the server itself runs in tests/db/server_host_test.sh).
#include "server/ClusterAgent.h"
#include "server/TcpAuth.h"
#include "sweep/RemoteCluster.h"
#include "sweep/SweepPlan.h"
#include "topo/SmtControl.h"
#include "util/Error.h"
#include "util/FollowFile.h"
#include "util/TempDir.h"

#include <gtest/gtest.h>

#include <fstream>

using namespace scalelab;

namespace {

nlohmann::json planWith(const nlohmann::json& target, const nlohmann::json& series = {{{"label", "A"}}}) {
    return {{"version", 1}, {"target", target}, {"workload", {{"builtin", {"select-only"}}}},
            {"series", series}, {"clients", {1}}, {"duration", 1}};
}

std::string hostPlanError(const nlohmann::json& plan) {
    try {
        parsePlan(plan);
        return "";
    } catch (const Error& e) {
        return e.what();
    }
}

} // namespace

TEST(ServerHost, APlanNamesTheHostItsSshAndTheAddressClientsUse) {
    SweepPlan p = parsePlan(planWith({{"host", {{"host", "bench@db1"}, {"ssh_command", "ssh -p 2222"}, {"address", "10.0.0.5"}}},
                                      {"data_dir", "/srv/cluster"}}));
    ASSERT_TRUE(p.serverHost);
    EXPECT_TRUE(p.embedded());
    EXPECT_EQ(p.serverHost->host, "bench@db1");
    EXPECT_EQ(p.serverHost->address, "10.0.0.5");
    EXPECT_EQ(p.serverHost->sshCommand, (std::vector<std::string>{"ssh", "-p", "2222"}));
    EXPECT_EQ(p.agentHost(), &*p.serverHost);
    EXPECT_EQ(parsePlan(planWith({{"host", "db1"}})).serverHost->address, "");
}

TEST(ServerHost, WhatItCannotBeIsRefusedByPath) {
    EXPECT_NE(hostPlanError(planWith({{"host", "db1"}, {"conninfo", "host=db1"}})).find("$.target.host: runs ScaleLab's embedded server"),
              std::string::npos);
    // A placement is the server's there; the clients here have nothing to be separate from.
    EXPECT_EQ(hostPlanError(planWith({{"host", "db1"}}, {{{"label", "A"}, {"placement", "smt-off"}, {"real_smt", true}}})), "");
    EXPECT_NE(hostPlanError(planWith({{"host", "db1"}}, {{{"label", "A"}, {"placement", "cores:1"}, {"separate", true}}}))
                  .find("$.series[0].separate: separate keeps the load generator off the server's cores; with a server host"),
              std::string::npos);
    // Clients elsewhere reach the server host's server (it listens on every address), and a
    // placement there is the server's, not this machine's load generator's.
    nlohmann::json withHosts = planWith({{"host", "db1"}}, {{{"label", "A"}, {"placement", "cores:1"}}});
    withHosts["load_hosts"] = {"bench@client1", "local"};
    withHosts["clients"] = {2};
    EXPECT_EQ(hostPlanError(withHosts), "");
    withHosts["target"] = {{"conninfo", "host=db1"}};
    EXPECT_NE(hostPlanError(withHosts).find("$.series[0].placement: places this machine's load generator"), std::string::npos);
    EXPECT_EQ(hostPlanError(planWith({{"host", {{"host", "db1"}, {"address", "a b"}}}})),
              "$.target.host.address: expected the host name or IP address this machine's clients connect to, e.g. \"10.0.0.5\"");
    EXPECT_EQ(hostPlanError(planWith({{"host", {{"host", "db1"}, {"port", 22}}}})),
              "$.target.host.port: unknown member (host, ssh_command, scalelab, address)");
    // A metrics host takes no address: its server is the user's, reached by the user's conninfo.
    EXPECT_EQ(hostPlanError(planWith({{"conninfo", "host=db1"}, {"metrics_host", {{"host", "db1"}, {"address", "x"}}}})),
              "$.target.metrics_host.address: unknown member (host, ssh_command, scalelab)");
}

TEST(ServerHost, ClientsConnectToTheDestinationsHostPart) {
    EXPECT_EQ(addressOfHost("bench@db1.example.com"), "db1.example.com");
    EXPECT_EQ(addressOfHost("db1"), "db1");
    EXPECT_EQ(addressOfHost("local"), "127.0.0.1");
}

TEST(ServerHost, PgHbaGetsOnePasswordLineForOtherMachines) {
    std::string hba = "local all all trust\nhost all all 127.0.0.1/32 scram-sha-256\n";
    std::string opened = hbaAcceptingOtherHosts(hba);
    EXPECT_EQ(opened.substr(0, hba.size()), hba);
    EXPECT_NE(opened.find("\nhost all all all scram-sha-256\n"), std::string::npos);
    EXPECT_EQ(hbaAcceptingOtherHosts(opened), "");  // once
    EXPECT_EQ(hbaAcceptingOtherHosts("host  all\tall  all   scram-sha-256\n"), "");
    EXPECT_NE(hbaAcceptingOtherHosts("host all all all trust").find("trust\n#"), std::string::npos);  // a newline first
}

TEST(ServerHost, TheAgentAnswersAServersFailureWithoutEnding) {
    ClusterAgent agent;
    nlohmann::json a = agent.answer({{"cluster", {{"op", "fly"}, {"data_dir", "/nonexistent/scalelab-test"}}}});
    ASSERT_TRUE(a["cluster"].contains("error")) << a.dump();
    a = agent.answer({{"cluster", {{"data_dir", "/nonexistent/scalelab-test"}}}});
    EXPECT_NE(a["cluster"]["error"].get<std::string>().find("a question this agent cannot read"), std::string::npos) << a.dump();
    a = agent.answer({{"cluster", {{"op", "log"}, {"data_dir", "/nonexistent/scalelab-test"}, {"offset", "x"}}}});
    EXPECT_TRUE(a["cluster"].contains("error")) << a.dump();
    ServerStatus st = serverStatusFromJson(toJson(ServerStatus{true, 42, 5432, {}, "*"}));
    EXPECT_TRUE(st.running);
    EXPECT_EQ(st.pid, 42);
    EXPECT_EQ(st.port, 5432);
    EXPECT_EQ(st.listenAddress, "*");
}

// The placement questions of a server host's agent, judged on this (real) machine.
TEST(ServerHost, TheAgentJudgesAPlacementOnItsOwnMachine) {
    ClusterAgent agent;
    auto ask = [&](nlohmann::json q) { return agent.answer({{"cluster", q}})["cluster"]; };
    nlohmann::json a = ask({{"op", "check_placement"}, {"placement", "cores:4096"}, {"method", "bind"}});
    ASSERT_TRUE(a.contains("refusal")) << a.dump();
    EXPECT_EQ(a["refusal"]["member"], "placement");
    EXPECT_NE(a["refusal"]["why"].get<std::string>().find("asks for 4096 cores"), std::string::npos) << a.dump();
    EXPECT_FALSE(ask({{"op", "check_placement"}, {"placement", "smt-on"}, {"method", "bind"}}).contains("refusal"));
    // The real switch is refused for the reason this machine gives (none where root may switch).
    std::string why = SmtControl().whyNotSwitchable();
    a = ask({{"op", "check_placement"}, {"placement", "smt-off"}, {"method", "real_smt"}});
    if (why.empty()) {
        EXPECT_FALSE(a.contains("refusal")) << a.dump();
    } else {
        ASSERT_TRUE(a.contains("refusal")) << a.dump();
        EXPECT_EQ(a["refusal"]["member"], "real_smt");
        EXPECT_EQ(a["refusal"]["why"], "cannot switch SMT for real here: " + why);
    }
    EXPECT_NE(ask({{"op", "check_placement"}, {"placement", "smt-off"}, {"method", "warp"}})["error"].get<std::string>().find(
                  "no such way of placing: warp"),
              std::string::npos);
    EXPECT_EQ(ask({{"op", "unplace"}})["unplaced"], false);  // nothing placed: nothing to undo
    a = ask({{"op", "place"}, {"placement", "smt-on"}, {"method", "bind"}, {"data_dir", "/nonexistent/scalelab-test"}});
    EXPECT_TRUE(a.contains("error")) << a.dump();
    EXPECT_FALSE(a.contains("placement")) << a.dump();
}

TEST(ServerHost, CpuMethodsHaveNamesOnTheWire) {
    for (CpuMethod m : {CpuMethod::Bind, CpuMethod::RealSmt, CpuMethod::Offline}) EXPECT_EQ(cpuMethodFromName(cpuMethodName(m)), m);
    EXPECT_THROW(cpuMethodFromName("bound"), Error);
}

namespace {
void append(const std::filesystem::path& file, const std::string& text) {
    std::ofstream out(file, std::ios::app | std::ios::binary);
    out << text;
}
} // namespace

// The live tail's reading (util/FollowFile.h): complete lines only, a burst cut to its end with
// the count left out, a file replaced by a shorter one read again from its start.
TEST(ServerHost, TheLogIsFollowedByCompleteLines) {
    TempDir dir("scalelab-follow");
    std::filesystem::path log = dir.path() / "scalelab-server.log";
    FollowedLines f = followFile(log, 0, 10);
    EXPECT_TRUE(f.lines.empty());
    EXPECT_EQ(f.offset, 0u);
    append(log, "one\ntwo\r\npart");
    f = followFile(log, 0, 10);
    EXPECT_EQ(f.lines, (std::vector<std::string>{"one", "two"}));
    EXPECT_EQ(f.offset, 9u);  // "part" waits for its newline
    append(log, "ial\n");
    f = followFile(log, f.offset, 10);
    EXPECT_EQ(f.lines, (std::vector<std::string>{"partial"}));
    EXPECT_EQ(followFile(log, f.offset, 10).lines.size(), 0u);
    for (int i = 0; i < 30; ++i) append(log, "line " + std::to_string(i) + "\n");
    FollowedLines burst = followFile(log, f.offset, 5);
    EXPECT_EQ(burst.skipped, 25u);
    EXPECT_EQ(burst.lines.front(), "line 25");
    EXPECT_EQ(burst.lines.back(), "line 29");
    EXPECT_EQ(burst.offset, std::filesystem::file_size(log));
    { std::ofstream(log, std::ios::trunc) << "fresh\n"; }  // a new cluster's log
    f = followFile(log, burst.offset, 10);
    EXPECT_EQ(f.lines, (std::vector<std::string>{"fresh"}));
    EXPECT_EQ(f.offset, 6u);

    // The agent answers the same, for its data directory's log.
    ClusterAgent agent;
    nlohmann::json a = agent.answer({{"cluster", {{"op", "follow"}, {"data_dir", dir.path().string()}, {"offset", 0}, {"max", 10}}}})["cluster"];
    ASSERT_FALSE(a.contains("error")) << a.dump();
    EXPECT_EQ(a["lines"], nlohmann::json({"fresh"}));
    EXPECT_EQ(a["offset"], 6);
    EXPECT_EQ(a["skipped"], 0);
}
