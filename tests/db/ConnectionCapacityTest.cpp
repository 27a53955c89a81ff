// Enough connections before a run: the embedded server raised once for the clients asked for,
// a server of the user's refused with the numbers, and a run of more clients than
// PostgreSQL's default allows that completes with no set-up.
#include "ServerRequirement.h"
#include "ThrowawayServer.h"

#include "load/LoadRun.h"
#include "server/ConnectionCapacity.h"

#include "ErrorOf.h"

#include <gtest/gtest.h>

using namespace scalelab;

namespace {

class ConnectionCapacityTest : public ::testing::Test {
protected:
    void SetUp() override { SCALELAB_REQUIRE_SERVER(); }
};

} // namespace

TEST_F(ConnectionCapacityTest, TheEmbeddedServerIsRaisedOnceForTheClientsAndNeverLowered) {
    test::ThrowawayServer t;
    ConnectionCapacity before = readConnectionCapacity(t.server.connectionString());
    ASSERT_LT(before.maxConnections, 150) << "the test needs a server with fewer connections than it asks for";
    std::vector<std::string> notes;
    auto note = [&](const std::string& s) { notes.push_back(s); };
    EXPECT_TRUE(sizeEmbeddedServerFor(t.server, 150, note));
    ConnectionCapacity after = readConnectionCapacity(t.server.connectionString());
    EXPECT_EQ(after.maxConnections, maxConnectionsFor(150, before.reserved));
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("raising the embedded server's max_connections from " + std::to_string(before.maxConnections)),
              std::string::npos) << notes[0];
    // Enough already: nothing happens, and a smaller run does not lower it.
    EXPECT_FALSE(sizeEmbeddedServerFor(t.server, 150, note));
    EXPECT_FALSE(sizeEmbeddedServerFor(t.server, 10, note));
    EXPECT_EQ(notes.size(), 1u);
    EXPECT_EQ(readConnectionCapacity(t.server.connectionString()).maxConnections, after.maxConnections);

    LoadSpec s;
    s.conninfo = t.server.connectionString();
    s.workload.addScriptText("SELECT 1;\n", "one.sql");
    s.clients = 150;
    s.threads = 2;
    s.transactionsPerClient = 2;
    s.vacuum = RunVacuum::None;
    LoadResult r = LoadRun(s).run();
    EXPECT_EQ(r.status, RunStatus::Completed) << r.error;
    EXPECT_EQ(r.transactions, 300u);
}

TEST_F(ConnectionCapacityTest, AServerOfTheUsersWithTooFewFreeConnectionsIsRefusedWithTheNumbers) {
    test::ThrowawayServer t;
    std::string conninfo = t.server.connectionString();
    ConnectionCapacity c = readConnectionCapacity(conninfo);
    EXPECT_NO_THROW(checkConnectionCapacity(conninfo, 10));
    std::string message = test::errorOf([&] { checkConnectionCapacity(conninfo, 500); });
    EXPECT_NE(message.find("max_connections = " + std::to_string(c.maxConnections)), std::string::npos) << message;
    EXPECT_NE(message.find("this run needs " + std::to_string(500 + kOwnConnections)), std::string::npos) << message;
    EXPECT_NE(message.find("Raise max_connections to at least"), std::string::npos) << message;
}
