#include "util/PipedProcess.h"
#include "util/Subprocess.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <string>
#include <vector>

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

// Issue 60.6: an agent's line had no length limit, and each 4 KB read scanned the whole line
// again. Lines split over reads come out whole; one past the limit ends the reading with a line
// that says so (not JSON: the host that sent it fails saying that).
TEST(PipedProcess, HandsOnWholeLinesAndCutsOneLongerThanTheLimit) {
    std::mutex m;
    std::vector<std::string> lines;
    std::atomic<bool> ended{false};
    auto collect = [&](const std::string& l) {
        std::lock_guard<std::mutex> lock(m);
        lines.push_back(l.size() > 300 ? l.substr(0, 300) : l);
    };
    {
        PipedProcess p({"/bin/sh", "-c", "printf 'a\\nbb\\n'; sleep 0.1; printf 'c'; sleep 0.1; printf 'cc\\nlast'"}, collect,
                       [&] { ended = true; }, {});
        p.wait(10s);
    }
    EXPECT_EQ(lines, (std::vector<std::string>{"a", "bb", "ccc", "last"}));
    lines.clear();
    {
        std::string bytes = std::to_string(PipedProcess::kMaxLineBytes + 100000);
        PipedProcess p({"/bin/sh", "-c", "head -c " + bytes + " /dev/zero | tr '\\0' x; echo; echo after"}, collect,
                       [&] { ended = true; }, {});
        p.wait(30s);
    }
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_EQ(lines[0].rfind("(a line of more than 16 MiB without its end, ScaleLab's limit; it began: xxxx", 0), 0u) << lines[0];
}
