#include "load/LoadRun.h"

#include <gtest/gtest.h>

using namespace scalelab;

namespace {

LoadSpec valid() {
    LoadSpec s;
    s.conninfo = "dbname=x";
    s.workload.addBuiltin("select-only");
    s.durationS = 10;
    return s;
}

std::string problem(LoadSpec s) {
    try {
        validate(s);
    } catch (const Error& e) {
        return e.what();
    }
    return "(valid)";
}

} // namespace

TEST(LoadSpec, AcceptsAPlainTimedRun) { EXPECT_EQ(problem(valid()), "(valid)"); }

TEST(LoadSpec, SaysWhatIsWrong) {
    LoadSpec s = valid();
    s.clients = 0;
    EXPECT_EQ(problem(s), "clients must be at least 1 (got 0)");
    s = valid();
    s.transactionsPerClient = 5;
    EXPECT_EQ(problem(s), "give either a duration (-T) or a number of transactions per client (-t), not both or neither");
    s = valid();
    s.warmupS = 10;
    EXPECT_EQ(problem(s), "warm-up (10.000000 s) must be shorter than the duration");
    s = valid();
    s.durationS = 0;
    s.transactionsPerClient = 5;
    s.warmupS = 1;
    EXPECT_EQ(problem(s), "a warm-up needs a timed run (-T): with -t every transaction counts");
    s = valid();
    s.workload = Workload::replayText("SELECT 1;", "log.sql", false);
    s.mode = QueryMode::Prepared;
    EXPECT_EQ(problem(s), "a replay file runs in simple or extended query mode: its statements carry their own values");
    s = valid();
    s.workload = Workload();
    EXPECT_EQ(problem(s), "no workload: choose a built-in script (-b), a script file (-f) or a replay file");
    // Issue 31.10: -T 1e12 overflowed the nanosecond deadline and "completed" with 0 tps.
    s = valid();
    s.durationS = 1e12;
    EXPECT_EQ(problem(s), "duration must be at most 2147483647 s, pgbench's -T limit (got 1e+12)");
    s = valid();
    s.durationS = 0;
    s.transactionsPerClient = int64_t(1) << 40;
    EXPECT_EQ(problem(s), "transactions must be at most 2147483647 per client, pgbench's -t limit (got 1099511627776)");
}

// pgbench: "-D NAME=VALUE", neither empty (issue 31.15).
TEST(LoadSpec, AVariableDefinitionNeedsANameAndAValue) {
    Workload w;
    for (const char* bad : {"v=", "=5", "v"}) {
        try {
            w.define(bad);
            ADD_FAILURE() << bad;
        } catch (const Error& e) {
            EXPECT_EQ(e.what(), "invalid variable definition: \"" + std::string(bad) + "\"");
        }
    }
    w.define("v=0");
    EXPECT_EQ(w.defines().size(), 1u);
}

TEST(LoadSpec, UnlimitedTriesNeedADurationOrALatencyLimitAsInPgbench) {
    LoadSpec s = valid();
    s.maxTries = 0;
    EXPECT_EQ(problem(s), "(valid)") << "-T bounds the retries";
    s.durationS = 0;
    s.transactionsPerClient = 10;
    EXPECT_EQ(problem(s), "an unlimited number of transaction tries can only be used with --latency-limit or a duration (-T)");
    s.latencyLimitMs = 50;
    EXPECT_EQ(problem(s), "(valid)") << "-L bounds the retries";
    s.maxTries = -1;
    EXPECT_EQ(problem(s), "max tries must be 0 (no limit) or more (got -1)");
}

TEST(LoadSpec, QueryModesHaveNames) {
    EXPECT_EQ(parseQueryMode("prepared"), QueryMode::Prepared);
    EXPECT_STREQ(queryModeName(QueryMode::Extended), "extended");
    EXPECT_THROW(parseQueryMode("binary"), Error);
}

// -l's rules, in pgbench's words.
TEST(LoadSpec, TransactionLogOptionsFollowPgbenchsRules) {
    LoadSpec s = valid();
    s.log = LoadSpec::TransactionLog{};
    EXPECT_EQ(problem(s), "(valid)");
    s.log->samplingRate = 0.5;
    s.log->aggregateIntervalS = 2;
    EXPECT_EQ(problem(s), "log sampling (--sampling-rate) and aggregation (--aggregate-interval) cannot be used at the same time");
    s.log->samplingRate = 0;
    s.log->aggregateIntervalS = 20;
    EXPECT_EQ(problem(s), "number of seconds for aggregation (20) must not be higher than test duration (10)");
    s.log->aggregateIntervalS = 3;
    EXPECT_EQ(problem(s), "duration (10) must be a multiple of aggregation interval (3)");
    s.log->aggregateIntervalS = 5;
    EXPECT_EQ(problem(s), "(valid)");
    s.log->samplingRate = 1.5;
    s.log->aggregateIntervalS = 0;
    EXPECT_EQ(problem(s), "invalid sampling rate: 1.500000");
}
