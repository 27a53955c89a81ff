#include "server/Conninfo.h"

#include <gtest/gtest.h>

using scalelab::makeConninfo;

TEST(Conninfo, QuotesValuesWithSpacesQuotesAndBackslashes) {
    EXPECT_EQ(makeConninfo({{"host", "/tmp/a b"}, {"user", "o'neil"}, {"password", "a\\b"}, {"dbname", ""}}),
              R"(host='/tmp/a b' user='o\'neil' password='a\\b' dbname='')");
}

TEST(Conninfo, LeavesPlainValuesBare) {
    EXPECT_EQ(makeConninfo({{"host", "/tmp/scalelab-0-1a2b"}, {"port", "5433"}}), "host=/tmp/scalelab-0-1a2b port=5433");
}
