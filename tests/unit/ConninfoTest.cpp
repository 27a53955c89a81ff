#include "server/Conninfo.h"
#include "sweep/SweepPlan.h"
#include "util/Error.h"

#include <gtest/gtest.h>

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
