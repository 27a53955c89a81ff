#include "server/Conninfo.h"
#include "sweep/SweepPlan.h"
#include "util/Error.h"

#include <gtest/gtest.h>
#include <libpq-fe.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using scalelab::makeConninfo;

TEST(Conninfo, QuotesValuesWithSpacesQuotesAndBackslashes) {
    EXPECT_EQ(makeConninfo({{"host", "/tmp/a b"}, {"user", "o'neil"}, {"password", "a\\b"}, {"dbname", ""}}),
              R"(host='/tmp/a b' user='o\'neil' password='a\\b' dbname='')");
}

TEST(Conninfo, LeavesPlainValuesBare) {
    EXPECT_EQ(makeConninfo({{"host", "/tmp/scalelab-0-1a2b"}, {"port", "5433"}}), "host=/tmp/scalelab-0-1a2b port=5433");
}

// The one password rule is libpq's parser: URIs count as much as key=value.
TEST(Conninfo, FindsAPasswordInKeyValueAndUriForms) {
    using scalelab::conninfoHasPassword;
    EXPECT_TRUE(conninfoHasPassword("host=db1 user=bench password=secret"));
    EXPECT_TRUE(conninfoHasPassword("postgresql://bench:secret@db1/bench"));
    EXPECT_TRUE(conninfoHasPassword("postgresql://bench@db1/bench?password=secret"));
    EXPECT_FALSE(conninfoHasPassword("postgresql://bench@db1:5433/bench"));
    EXPECT_FALSE(conninfoHasPassword("host=db1 dbname=password_tests"));  // the word alone is no password
    EXPECT_THROW(conninfoHasPassword("host=db1 nonsense"), scalelab::Error);
}

TEST(Conninfo, WhatIsWrittenCarriesNoPassword) {
    std::string clean = scalelab::conninfoWithoutPassword("postgresql://bench:secret@db1:5433/bench");
    EXPECT_EQ(clean.find("secret"), std::string::npos) << clean;
    EXPECT_NE(clean.find("host=db1"), std::string::npos) << clean;
    EXPECT_NE(clean.find("port=5433"), std::string::npos) << clean;
    EXPECT_FALSE(scalelab::conninfoHasPassword(clean));
    nlohmann::json plan = {{"version", 1}, {"target", {{"conninfo", "host=db1 password='s e'"}}}};
    EXPECT_EQ(scalelab::planWithoutSecrets(plan).dump().find("s e"), std::string::npos);
    EXPECT_EQ(scalelab::planWithoutSecrets(plan)["target"]["conninfo"], "host=db1");
}

// The server's counters and statements were read over connections with no connect_timeout: a
// host that takes the TCP connection and never answers (a hung server, a proxy in front of a
// dead one) held the sweep for ever. A listening socket that never accepts is such a host.
TEST(Conninfo, AReadingConnectionGivesUpOnAServerThatNeverAnswers) {
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    ASSERT_GE(listener, 0);
    sockaddr_in at{};
    at.sin_family = AF_INET;
    at.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(bind(listener, reinterpret_cast<sockaddr*>(&at), sizeof at), 0);
    ASSERT_EQ(listen(listener, 4), 0);
    socklen_t length = sizeof at;
    ASSERT_EQ(getsockname(listener, reinterpret_cast<sockaddr*>(&at), &length), 0);
    std::string conninfo = "host=127.0.0.1 port=" + std::to_string(ntohs(at.sin_port)) + " dbname=x sslmode=disable gssencmode=disable";
    PGconn* c = scalelab::connectForReading(conninfo, "scalelab test", 2);
    ASSERT_NE(c, nullptr);
    EXPECT_NE(PQstatus(c), CONNECTION_OK);
    EXPECT_NE(std::string(PQerrorMessage(c)).find("timeout"), std::string::npos) << PQerrorMessage(c);
    PQfinish(c);
    close(listener);
}
