// A server host (target.host, docs/hosts.md): the plan's forms and refusals, the address the
// clients connect to, pg_hba.conf's line for clients elsewhere, and the agent's cluster
// questions that are not its protocol (the server itself runs in tests/db/server_host_test.sh).
#include "server/ClusterAgent.h"
#include "server/TcpAuth.h"
#include "sweep/RemoteCluster.h"
#include "sweep/SweepPlan.h"
#include "util/Error.h"

#include <gtest/gtest.h>

using namespace scalelab;

namespace {

nlohmann::json planWith(const nlohmann::json& target, const nlohmann::json& series = {{{"label", "A"}}}) {
    return {{"version", 1}, {"target", target}, {"workload", {{"builtin", {"select-only"}}}},
            {"series", series}, {"clients", {1}}, {"duration", 1}};
}

std::string planError(const nlohmann::json& plan) {
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
    EXPECT_NE(planError(planWith({{"host", "db1"}, {"conninfo", "host=db1"}})).find("$.target.host: runs ScaleLab's embedded server"),
              std::string::npos);
    EXPECT_NE(planError(planWith({{"host", "db1"}}, {{{"label", "A"}, {"placement", "smt-off"}}}))
                  .find("$.series[0].placement: placing the server on a server host (target.host) is not built yet"),
              std::string::npos);
    nlohmann::json withHosts = planWith({{"host", "db1"}});
    withHosts["load_hosts"] = {"local"};
    EXPECT_NE(planError(withHosts).find("$.load_hosts: load hosts with a server host"), std::string::npos);
    EXPECT_EQ(planError(planWith({{"host", {{"host", "db1"}, {"address", "a b"}}}})),
              "$.target.host.address: expected the host name or IP address this machine's clients connect to, e.g. \"10.0.0.5\"");
    EXPECT_EQ(planError(planWith({{"host", {{"host", "db1"}, {"port", 22}}}})),
              "$.target.host.port: unknown member (host, ssh_command, scalelab, address)");
    // A metrics host takes no address: its server is the user's, reached by the user's conninfo.
    EXPECT_EQ(planError(planWith({{"conninfo", "host=db1"}, {"metrics_host", {{"host", "db1"}, {"address", "x"}}}})),
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
