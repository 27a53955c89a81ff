#include "util/Subprocess.h"

#include <gtest/gtest.h>

using namespace scalelab;
using namespace std::chrono_literals;

TEST(Subprocess, CollectsStdoutAndStderrAndTheExitCode) {
    auto r = runProcess({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"});
    EXPECT_EQ(r.exitCode, 3);
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(r.output, "out\nerr\n");
}

TEST(Subprocess, SetsAndRemovesEnvironmentVariables) {
    setenv("SCALELAB_TEST_DROP", "x", 1);
    ProcessOptions po;
    po.env = {{"SCALELAB_TEST_SET", "hello"}, {"SCALELAB_TEST_DROP", std::nullopt}};
    auto r = runProcess({"/bin/sh", "-c", "echo \"$SCALELAB_TEST_SET/${SCALELAB_TEST_DROP-unset}\""}, po);
    EXPECT_EQ(r.output, "hello/unset\n");
}

TEST(Subprocess, KillsAProgramThatOutlivesItsTimeout) {
    ProcessOptions po;
    po.timeout = 200ms;
    auto r = runProcess({"/bin/sleep", "30"}, po);
    EXPECT_TRUE(r.timedOut);
    EXPECT_EQ(r.signal, SIGKILL);
}

TEST(Subprocess, ReportsAProgramThatCannotBeExecuted) {
    auto r = runProcess({"/nonexistent/program"});
    EXPECT_EQ(r.exitCode, 127);
    EXPECT_NE(r.output.find("/nonexistent/program"), std::string::npos) << r.output;
}

TEST(Subprocess, RefusesARelativeProgramPath) {
    EXPECT_THROW(runProcess({"sh", "-c", "true"}), std::exception);
}

TEST(Subprocess, ShellQuoteLeavesPlainWordsAndQuotesTheRest) {
    EXPECT_EQ(shellQuote(std::vector<std::string>{"pg_ctl", "-D", "/tmp/a b", "-o", "", "it's"}),
              "pg_ctl -D '/tmp/a b' -o '' 'it'\\''s'");
}
