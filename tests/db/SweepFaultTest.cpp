// A server that goes away during a sweep, at each moment of a run: the run in progress fails
// (kept, with the server's words), the server comes back (the embedded one is started again,
// one of the user's is waited for), and the sweep completes every point; a server of the
// user's that stays away stops the sweep with a resume hint and every finished run kept.
#include "ServerRequirement.h"
#include "ThrowawayServer.h"

#include "server/DataDirectory.h"
#include "store/ExperimentStore.h"
#include "sweep/SweepRunner.h"
#include "sweep/SweepServers.h"
#include "util/TempDir.h"

#include <gtest/gtest.h>

#include <csignal>
#include <fstream>
#include <functional>
#include <pqxx/pqxx>
#include <thread>

using namespace scalelab;
using namespace std::chrono_literals;

namespace {

enum class Moment { BetweenRuns, Settling, Connecting, Measuring, LastSample, AfterLastRun };

std::string nameOf(Moment m) {
    switch (m) {
    case Moment::BetweenRuns: return "BetweenRuns";
    case Moment::Settling: return "Settling";
    case Moment::Connecting: return "Connecting";
    case Moment::Measuring: return "Measuring";
    case Moment::LastSample: return "LastSample";
    case Moment::AfterLastRun: return "AfterLastRun";
    }
    return "?";
}

// Calls `fault` once, at `moment` of the second run in plan order (run index 1, the last);
// LastSample: at the sample that ends at the deadline, when the clients are done or nearly, so
// the run may complete on a dead server; AfterLastRun: as it is reported finished, so the
// sweep's end finds the server dead.
struct FaultAt : SweepObserver {
    FaultAt(Moment m, std::function<void()> f) : moment(m), fault(std::move(f)) {}
    ~FaultAt() override {
        if (delayed.joinable()) delayed.join();
    }
    Moment moment;
    std::function<void()> fault;
    bool fired = false;
    std::thread delayed;
    std::vector<std::string> notes;
    std::vector<RunRecord> finished;
    std::string run2Seen;  // for a fault that never fired: the second run's samples and outcome

    std::string whyNotFired() const {
        std::string why = "run 2's samples (end s): [" + run2Seen + "]; runs finished:";
        for (const auto& r : finished)
            why += " " + std::to_string(r.runIndex.value_or(-1)) + " " + runStatusName(r.status) +
                   (r.error.empty() ? "" : " (" + r.error + ")");
        return why + "; notes: " + ::testing::PrintToString(notes);
    }

    void fire() {
        if (fired) return;
        fired = true;
        fault();
    }
    void onProgress(const SweepProgress& p) override {
        if (p.run != 2) return;
        if (moment == Moment::Settling && p.state == SweepState::Settling && !fired) {
            fired = true;  // in the middle of the pause, from another thread
            delayed = std::thread([this] {
                std::this_thread::sleep_for(300ms);
                fault();
            });
        }
        if (moment == Moment::Connecting && p.state == SweepState::Running) fire();
    }
    void onSample(const SweepProgress& p, const LoadSample& s) override {
        if (p.run == 2) run2Seen += (run2Seen.empty() ? "" : " ") + std::to_string(s.endS);
        if (moment == Moment::Measuring && p.run == 2) fire();
        if (moment == Moment::LastSample && p.run == 2 && s.endS >= 1.0) fire();  // the plan's duration
    }
    void onRunFinished(const RunRecord& r) override {
        finished.push_back(r);
        if (moment == Moment::BetweenRuns && r.runIndex == 0) fire();
        if (moment == Moment::AfterLastRun && r.runIndex == 1) fire();
    }
    void onNote(const std::string& s) override { notes.push_back(s); }
    bool noted(const std::string& part) const {
        for (const auto& n : notes)
            if (n.find(part) != std::string::npos) return true;
        return false;
    }
};

void killAndWait(pid_t pid) {
    ASSERT_GT(pid, 0);
    ASSERT_EQ(kill(pid, SIGKILL), 0);
    for (int i = 0; i < 100 && processAlive(pid); ++i) std::this_thread::sleep_for(50ms);
}

// A throwaway server, a two-run plan against it (one script, `SELECT 1`) and a fresh file.
struct FaultSweep {
    test::ThrowawayServer s;
    TempDir files{"scalelab-fault"};
    nlohmann::json plan;
    std::unique_ptr<ExperimentStore> store = ExperimentStore::create((files.path() / "e.slab").string());

    FaultSweep() {
        std::string script = (files.path() / "one.sql").string();
        std::ofstream(script) << "SELECT 1;\n";
        plan = {{"version", 1},
                {"target", {{"data_dir", s.dir.path().string()}}},
                {"workload", {{"files", script}, {"vacuum", "none"}}},
                {"series", {{{"label", "A"}}}},
                {"clients", {1, 2}},
                {"threads", 1},
                {"duration", 1},
                {"sample_interval", 0.2},
                {"settle", {{"pause", 0.8}}},
                {"seed", 5}};
    }
    void run(FaultAt& observer) {
        SweepRunner(parsePlan(plan), *store, &observer, false).run();
        if (std::getenv("SCALELAB_TEST_SHOW"))
            for (const auto& n : observer.notes) std::cerr << "note: " << n << "\n";
    }
    std::vector<RunRecord> failedRuns() {
        std::vector<RunRecord> failed;
        for (const auto& r : store->runs())
            if (r.status == RunStatus::Failed) failed.push_back(r);
        return failed;
    }
};

} // namespace

class EmbeddedServerDies : public ::testing::TestWithParam<Moment> {};

// kill -9 of the postmaster: nothing of the server is left; the sweep starts it again.
TEST_P(EmbeddedServerDies, TheRunInProgressFailsTheServerIsStartedAgainAndEveryPointCompletes) {
    SCALELAB_REQUIRE_SERVER();
    FaultSweep f;
    FaultAt observer(GetParam(), [&] { killAndWait(f.s.server.status().pid); });
    f.run(observer);

    ASSERT_TRUE(observer.fired) << observer.whyNotFired();
    EXPECT_EQ(f.store->finishedRunIndexes(), (std::set<int64_t>{0, 1})) << ::testing::PrintToString(observer.notes);
    EXPECT_TRUE(observer.noted("died (its postmaster, pid")) << ::testing::PrintToString(observer.notes);
    EXPECT_TRUE(observer.noted("starting it again; PostgreSQL recovers from the crash"));
    EXPECT_TRUE(f.s.server.status().running) << "the server the user had running is running again";
    std::vector<RunRecord> failed = f.failedRuns();
    if (GetParam() == Moment::BetweenRuns || GetParam() == Moment::AfterLastRun) {
        EXPECT_TRUE(failed.empty()) << "no run was in progress: " << failed.front().error;
        return;
    }
    ASSERT_EQ(failed.size(), 1u) << "the run in progress, once";
    EXPECT_EQ(failed[0].runIndex, 1);
    EXPECT_NE(failed[0].error.find("the embedded server died: its postmaster (pid"), std::string::npos) << failed[0].error;
    EXPECT_TRUE(failed[0].detail.contains("server_log") && failed[0].detail["server_log"].is_array());
    EXPECT_TRUE(observer.noted("run 2 failed: ")) << ::testing::PrintToString(observer.notes);
    EXPECT_TRUE(observer.noted("it runs again at the end of the sweep"));
}

INSTANTIATE_TEST_SUITE_P(AtEachMoment, EmbeddedServerDies,
                         ::testing::Values(Moment::BetweenRuns, Moment::Settling, Moment::Connecting, Moment::Measuring,
                                           Moment::LastSample, Moment::AfterLastRun),
                         [](const auto& test) { return nameOf(test.param); });

// kill -9 of one backend: the postmaster ends every session and recovers by itself; the run
// fails with the postmaster's own words from the log.
TEST(SweepFault, ABackendCrashFailsTheRunWithTheServersWordsAndTheSweepGoesOn) {
    SCALELAB_REQUIRE_SERVER();
    FaultSweep f;
    FaultAt observer(Moment::Measuring, [&] {
        pqxx::connection c(f.s.server.connectionString());
        pqxx::nontransaction tx(c);
        auto r = tx.exec("SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() "
                         "AND application_name = 'scalelab-load' LIMIT 1");
        ASSERT_EQ(r.size(), 1u);
        killAndWait(r[0][0].as<pid_t>());
    });
    f.run(observer);

    ASSERT_TRUE(observer.fired) << observer.whyNotFired();
    EXPECT_EQ(f.store->finishedRunIndexes(), (std::set<int64_t>{0, 1})) << ::testing::PrintToString(observer.notes);
    std::vector<RunRecord> failed = f.failedRuns();
    ASSERT_EQ(failed.size(), 1u);
    EXPECT_NE(failed[0].error.find("the embedded server crashed and restarted itself (server process (PID"),
              std::string::npos) << failed[0].error;
    EXPECT_NE(failed[0].error.find("was terminated by signal 9"), std::string::npos) << failed[0].error;
    EXPECT_NE(failed[0].detail["server_log"].dump().find("terminated by signal 9"), std::string::npos);
}

// A postmaster that gives no answer for a few seconds as a run ends (stopped here with
// SIGSTOP, as on a machine too busy to start a session) is asked again before the run is
// failed for it: the run that completed stays completed and nothing runs again.
TEST(SweepFault, AServerSilentForAFewSecondsAsARunEndsIsAskedAgainNotCondemned) {
    SCALELAB_REQUIRE_SERVER();
    FaultSweep f;
    pid_t postmaster = f.s.server.status().pid;
    std::thread resume;
    FaultAt observer(Moment::LastSample, [&] {
        ASSERT_EQ(kill(postmaster, SIGSTOP), 0);
        resume = std::thread([postmaster] {
            std::this_thread::sleep_for(8s);
            kill(postmaster, SIGCONT);
        });
    });
    f.run(observer);
    if (resume.joinable()) resume.join();

    ASSERT_TRUE(observer.fired) << observer.whyNotFired();
    EXPECT_EQ(f.store->finishedRunIndexes(), (std::set<int64_t>{0, 1})) << ::testing::PrintToString(observer.notes);
    auto failed = f.failedRuns();
    EXPECT_TRUE(failed.empty()) << failed.front().error;
    EXPECT_EQ(f.store->runs().size(), 2u);
}

// A server of the user's (a conninfo target) that goes away and comes back within
// target.reconnect: asked again with backoff, then the sweep goes on.
TEST(SweepFault, ATargetServerThatComesBackIsWaitedFor) {
    SCALELAB_REQUIRE_SERVER();
    FaultSweep f;
    int port = f.s.server.status().port;
    f.plan["target"] = {{"conninfo", f.s.server.connectionString()}, {"reconnect", 60}};
    std::thread back;
    FaultAt observer(Moment::Measuring, [&] {
        killAndWait(f.s.server.status().pid);
        back = std::thread([&] {
            std::this_thread::sleep_for(3s);
            ServerOptions o = test::throwawayOptions(f.s.dir.path());
            o.port = port;  // the same address as before
            EmbeddedServer again(o);
            again.start();
            again.keepRunning();
        });
    });
    f.run(observer);
    if (back.joinable()) back.join();

    ASSERT_TRUE(observer.fired) << observer.whyNotFired();
    EXPECT_EQ(f.store->finishedRunIndexes(), (std::set<int64_t>{0, 1})) << ::testing::PrintToString(observer.notes);
    EXPECT_TRUE(observer.noted("the target server does not answer; asking again for up to 60 s (target.reconnect)"))
        << ::testing::PrintToString(observer.notes);
    EXPECT_TRUE(observer.noted("the target server takes connections again after"));
    auto failed = f.failedRuns();
    ASSERT_EQ(failed.size(), 1u);
    EXPECT_NE(failed[0].error.find("; the target server does not answer"), std::string::npos) << failed[0].error;
}

// One that stays away: the sweep stops after target.reconnect seconds, says how to resume,
// and keeps what it finished.
TEST(SweepFault, ATargetServerThatStaysAwayStopsTheSweepWithAResumeHint) {
    SCALELAB_REQUIRE_SERVER();
    FaultSweep f;
    f.plan["target"] = {{"conninfo", f.s.server.connectionString()}, {"reconnect", 3}};
    FaultAt observer(Moment::BetweenRuns, [&] { f.s.server.stop(); });
    auto started = std::chrono::steady_clock::now();
    try {
        f.run(observer);
        FAIL() << "expected the sweep to stop";
    } catch (const TargetGone& e) {
        std::string what = e.what();
        EXPECT_NE(what.find("the target server does not answer after"), std::string::npos) << what;
        EXPECT_NE(what.find("(target.reconnect = 3 s)"), std::string::npos) << what;
        EXPECT_NE(what.find("--resume` runs the rest"), std::string::npos) << what;
    }
    EXPECT_LT(std::chrono::steady_clock::now() - started, 60s);
    EXPECT_EQ(f.store->finishedRunIndexes(), (std::set<int64_t>{0}));
}
