// A run over load hosts against a real PostgreSQL, the hosts being agents started on this
// machine through the same code path as over ssh ("local", or a stand-in ssh command): two
// hosts give the totals one process gives, each client keeps its number, and a host that
// cannot start, goes away or runs another version fails the run with the host named.
#include "SharedServer.h"
#include "SignalLines.h"

#include "load/hosts/LoadCoordinator.h"
#include "load/LoadRun.h"
#include "stats/LatencyDistribution.h"
#include "store/ExperimentStore.h"
#include "sweep/SweepRunner.h"
#include "util/TempDir.h"

#include "ErrorOf.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <pqxx/pqxx>

#include <fstream>
#include <signal.h>
#include <sstream>
#include <unistd.h>
#include <thread>

using namespace scalelab;

namespace {

EmbeddedServer& server() { return test::SharedServer::get({{"autovacuum", "off"}}); }

class LoadHostsTest : public ::testing::Test {
protected:
    void SetUp() override {
        SCALELAB_REQUIRE_SERVER();
        db_ = std::make_unique<test::TestDatabase>(server(), "template0");
        exec("CREATE TABLE hits (client int NOT NULL)");
    }

    int64_t scalar(const std::string& sql) {
        pqxx::connection c(db_->conninfo());
        pqxx::nontransaction tx(c);
        return tx.exec(sql)[0][0].as<int64_t>();
    }
    void exec(const std::string& sql) {
        pqxx::connection c(db_->conninfo());
        pqxx::nontransaction tx(c);
        tx.exec(sql);
    }

    // Each transaction leaves its client's number in the table.
    LoadSpec inserting(int clients, int threads, int64_t perClient) {
        LoadSpec s;
        s.conninfo = db_->conninfo();
        s.workload.addScriptText("INSERT INTO hits VALUES (:client_id);\n", "hits.sql");
        s.clients = clients;
        s.threads = threads;
        s.transactionsPerClient = perClient;
        s.vacuum = RunVacuum::None;
        s.seed = 11;
        return s;
    }

    static LoadHostsOptions local(std::vector<std::string> hosts) {
        LoadHostsOptions o;
        o.hosts = std::move(hosts);
        o.localProgram = SCALELAB_BINARY;
        o.answerTimeoutS = 60;
        return o;
    }

    std::unique_ptr<test::TestDatabase> db_;
};

} // namespace

TEST_F(LoadHostsTest, TwoHostsGiveTheTotalsOfOneAndEveryClientKeepsItsNumber) {
    LoadResult one = LoadRun(inserting(6, 2, 25)).run();
    ASSERT_EQ(one.status, RunStatus::Completed) << one.error;
    ASSERT_EQ(scalar("SELECT count(*) FROM hits"), 150);
    exec("TRUNCATE hits");

    LoadHostsResult two = LoadCoordinator(local({"local", "local"}), inserting(6, 2, 25)).run();
    ASSERT_EQ(two.merged.status, RunStatus::Completed) << two.merged.error;
    EXPECT_EQ(two.merged.transactions, one.transactions);
    EXPECT_EQ(two.merged.latency.count, one.latency.count);
    EXPECT_EQ(two.merged.clients, 6);
    EXPECT_EQ(scalar("SELECT count(*) FROM hits"), 150);
    // Clients 0..5 across the hosts, 25 transactions each: numbered as in one process.
    EXPECT_EQ(scalar("SELECT count(DISTINCT client) FROM hits"), 6);
    EXPECT_EQ(scalar("SELECT min(client) FROM hits"), 0);
    EXPECT_EQ(scalar("SELECT max(client) FROM hits"), 5);
    EXPECT_EQ(scalar("SELECT count(*) FROM (SELECT client FROM hits GROUP BY client HAVING count(*) = 25) c"), 6);
    ASSERT_EQ(two.hosts.size(), 2u);
    for (const auto& h : two.hosts) {
        EXPECT_EQ(h.share.clients, 3);
        EXPECT_EQ(h.result.transactions, 75u);
        EXPECT_FALSE(h.version.empty());
        EXPECT_TRUE(h.cpuBusyPct.has_value()) << "each host's CPU is measured";
        // A local host's clock is this one: the estimate is within its own uncertainty of 0.
        EXPECT_LE(std::llabs(h.clock.offsetNs), h.clock.uncertaintyNs) << h.clock.offsetNs;
        EXPECT_LT(h.clock.uncertaintyNs, 1'000'000'000);
        EXPECT_TRUE(toJson(h).contains("clock_offset_ms"));
    }
    EXPECT_EQ(two.hosts[1].share.clientIdOffset, 3);
}

TEST_F(LoadHostsTest, ATimedRunStartsTogetherAndItsSamplesAreMerged) {
    LoadSpec s = inserting(4, 2, 0);
    s.transactionsPerClient = 0;
    s.durationS = 2;
    int samples = 0;
    LoadHostsResult r = LoadCoordinator(local({"local", "local"}), s).run([&](const LoadSample& m) {
        ++samples;
        EXPECT_EQ(m.latency.count, m.transactions);  // merged from both hosts' histograms
    });
    ASSERT_EQ(r.merged.status, RunStatus::Completed) << r.merged.error;
    EXPECT_GE(samples, 1);
    EXPECT_EQ(static_cast<size_t>(samples), r.merged.samples.size());
    EXPECT_GT(r.merged.transactions, 0u);
    // Counted: what ended inside the window; the table also has what was in flight at its end
    // (at most one transaction per client), as in one process.
    int64_t rows = scalar("SELECT count(*) FROM hits");
    EXPECT_GE(rows, static_cast<int64_t>(r.merged.transactions));
    EXPECT_LE(rows, static_cast<int64_t>(r.merged.transactions) + 4);
    EXPECT_NEAR(r.merged.measuredSeconds, 2.0, 0.5);
}

// A rate is the run's, shared by the hosts as their clients are: two hosts offer it once
// between them, not once each. The count is bounded by the schedule (Poisson, mean 200 over
// 2 s at 100 tps), whatever the machine's speed.
TEST_F(LoadHostsTest, ARateIsSharedByTheHostsNotOfferedByEach) {
    LoadSpec s = inserting(4, 2, 0);
    s.transactionsPerClient = 0;
    s.durationS = 2;
    s.rate = 100;
    LoadHostsResult r = LoadCoordinator(local({"local", "local"}), s).run();
    ASSERT_EQ(r.merged.status, RunStatus::Completed) << r.merged.error;
    EXPECT_DOUBLE_EQ(r.merged.rate, 100);
    ASSERT_EQ(r.hosts.size(), 2u);
    for (const auto& h : r.hosts) EXPECT_DOUBLE_EQ(h.result.rate, 50);
    EXPECT_LT(r.merged.transactions, 300u) << "each host offered the whole rate";
}

// Ctrl-C: every host finishes its transactions in flight and reports; the run is stopped, with
// what was measured.
TEST_F(LoadHostsTest, AStopReachesEveryHostAndKeepsWhatWasMeasured) {
    LoadSpec s = inserting(4, 2, 0);
    s.transactionsPerClient = 0;
    s.durationS = 60;
    LoadCoordinator coordinator(local({"local", "local"}), s);
    std::thread stopper;
    int samples = 0;
    LoadHostsResult r = coordinator.run([&](const LoadSample&) {
        if (++samples == 1) stopper = std::thread([&] { coordinator.requestStop(); });
    });
    stopper.join();
    EXPECT_EQ(r.merged.status, RunStatus::Stopped) << r.merged.error;
    EXPECT_GT(r.merged.transactions, 0u);
    EXPECT_LT(r.merged.measuredSeconds, 30);
    EXPECT_EQ(r.hosts.size(), 2u);
}

// Issue 31.7: \shell and \setshell flushed every stdio stream, stdin's included, whose lock
// the agent's stop watcher holds while it waits for a line: the run hung until the 60 s limit.
TEST_F(LoadHostsTest, ShellCommandsRunOnALoadHost) {
    LoadSpec s = inserting(2, 1, 3);
    s.workload = Workload();
    s.workload.addScriptText("\\setshell v echo 5\n\\shell true\nINSERT INTO hits VALUES (:v);\n", "shell.sql");
    LoadHostsOptions o = local({"local"});
    o.answerTimeoutS = 20;
    LoadHostsResult r = LoadCoordinator(o, s).run();
    ASSERT_EQ(r.merged.status, RunStatus::Completed) << r.merged.error;
    EXPECT_EQ(scalar("SELECT count(*) FROM hits WHERE client = 5"), 6);
}

// Issue 31.8: a host command that reads its input to the end after the agent exited (an ssh
// wrapper) hung the run for ever: the coordinator never closed its input and waited without a
// limit, and the wrapper inherited SIGINT and SIGTERM blocked. The alarm fails a hang.
TEST_F(LoadHostsTest, AWrapperThatReadsItsInputToTheEndEndsWithTheRunAndStartsWithDefaultSignals) {
    TempDir dir("scalelab-wrapper-");
    std::string status = (dir.path() / "status").string();
    LoadHostsOptions o = local({"wrapped"});
    o.ssh = {"sh", "-c", "grep -E '^Sig(Blk|Ign)' /proc/self/status > " + status + "; shift; \"$@\"; cat > /dev/null", "sh"};
    o.remoteProgram = SCALELAB_BINARY;
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &block, &old);  // as app/Interrupts.h does during a run
    alarm(90);
    LoadHostsResult r = LoadCoordinator(o, inserting(2, 1, 3)).run();
    alarm(0);
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    ASSERT_EQ(r.merged.status, RunStatus::Completed) << r.merged.error;
    EXPECT_EQ(scalar("SELECT count(*) FROM hits"), 6);
    test::SignalLines child = test::readSignalLines(status);
    EXPECT_EQ(child.blocked, 0u) << std::hex << child.blocked;  // not SIGINT, SIGTERM, SIGUSR1
    EXPECT_EQ(child.ignored & ~test::kGlibcInternalSignals, 0u) << std::hex << child.ignored;
}

TEST_F(LoadHostsTest, AHostWhoseClientsCannotConnectIsNamedWithTheServersWords) {
    LoadSpec s = inserting(2, 2, 1);
    s.conninfo = server().connectionString("no_such_database");
    std::string error = test::errorOf([&] { LoadCoordinator(local({"local", "local"}), s).run(); });
    EXPECT_NE(error.find("its run ended before the start: "), std::string::npos) << error;
    EXPECT_NE(error.find("\"no_such_database\" does not exist"), std::string::npos) << error;
}

TEST_F(LoadHostsTest, AHostThatCannotBeStartedIsNamed) {
    LoadHostsOptions o = local({"local", "bench@client9"});
    o.ssh = {"/nonexistent/ssh"};
    std::string error = test::errorOf([&] { LoadCoordinator(o, inserting(2, 2, 1)).run(); });
    EXPECT_NE(error.find("load host bench@client9: cannot start /nonexistent/ssh"), std::string::npos) << error;
}

TEST_F(LoadHostsTest, AHostThatGoesAwayIsNamedWithWhatSshSaid) {
    LoadHostsOptions o = local({"local", "gone"});
    // What ssh does when the host does not answer: a line on stderr, exit status 255.
    o.ssh = {"sh", "-c", "echo 'ssh: connect to host gone port 22: Connection refused' >&2; exit 255", "sh"};
    std::string error = test::errorOf([&] { LoadCoordinator(o, inserting(2, 2, 1)).run(); });
    EXPECT_NE(error.find("load host gone: disconnected (exit status 255): ssh: connect to host gone port 22: Connection refused"),
              std::string::npos)
        << error;
}

TEST_F(LoadHostsTest, AHostRunningAnotherVersionIsRefused) {
    LoadHostsOptions o = local({"old"});
    o.ssh = {"sh", "-c", R"(read job; echo '{"hello":{"version":"0.0.1","host":"old"}}'; sleep 2)", "sh"};
    std::string error = test::errorOf([&] { LoadCoordinator(o, inserting(1, 1, 1)).run(); });
    EXPECT_NE(error.find("load host old: runs ScaleLab 0.0.1, this is "), std::string::npos) << error;
    EXPECT_NE(error.find("install the same version on every host"), std::string::npos) << error;
}

// A sweep whose plan names load hosts: every run's clients come from them, each run records
// each host's share, and the totals are those of the plan.
TEST_F(LoadHostsTest, ASweepRunsItsClientsFromTheLoadHosts) {
    TempDir files("scalelab-load-hosts");
    std::string script = (files.path() / "hits.sql").string();
    std::ofstream(script) << "INSERT INTO hits VALUES (:client_id);\n";
    nlohmann::json plan = {{"version", 1},
                           {"target", {{"conninfo", db_->conninfo()}}},
                           {"workload", {{"files", {script}}, {"vacuum", "none"}}},
                           {"series", {{{"label", "A"}}}},
                           {"clients", {2, 4}},
                           {"threads", 2},
                           {"transactions", 10},
                           {"repetitions", 1},
                           {"seed", 5},
                           {"load_hosts", {{"hosts", {"local", "local"}}, {"scalelab", SCALELAB_BINARY}}}};
    auto store = ExperimentStore::create((files.path() / "e.slab").string());
    SweepRunner(parsePlan(plan), *store, nullptr, false).run();
    auto runs = store->runs();
    ASSERT_EQ(runs.size(), 2u);
    uint64_t total = 0;
    for (const auto& r : runs) {
        EXPECT_EQ(r.status, RunStatus::Completed) << r.error;
        EXPECT_EQ(r.transactions, static_cast<uint64_t>(10 * r.clients));
        total += r.transactions;
        ASSERT_TRUE(r.detail.contains("load_hosts")) << r.detail.dump();
        ASSERT_EQ(r.detail["load_hosts"].size(), 2u);
        EXPECT_EQ(r.detail["load_hosts"][0]["clients"].get<int>() + r.detail["load_hosts"][1]["clients"].get<int>(), r.clients);
        // The hosts' histograms merged exactly: the run's distribution counts every transaction.
        auto h = runHistogram(r);
        ASSERT_TRUE(h);
        EXPECT_EQ(h->count(), r.transactions);
    }
    EXPECT_EQ(scalar("SELECT count(*) FROM hits"), static_cast<int64_t>(total));
    EXPECT_EQ(total, 60u);
}

// A timed sweep with load hosts: each interval carries this machine's system sample (here: the
// server's CPU and counters), live and stored, as a sweep without load hosts does.
TEST_F(LoadHostsTest, ASweepWithLoadHostsSamplesThisMachineEachInterval) {
    struct Samples : SweepObserver {
        std::vector<LoadSample> live;
        void onSample(const SweepProgress&, const LoadSample& s) override { live.push_back(s); }
    } observer;
    TempDir files("scalelab-load-hosts");
    std::string script = (files.path() / "one.sql").string();
    std::ofstream(script) << "SELECT :client_id;\n";
    nlohmann::json plan = {{"version", 1},
                           {"target", {{"conninfo", db_->conninfo()}}},
                           {"workload", {{"files", {script}}, {"vacuum", "none"}}},
                           {"series", {{{"label", "A"}}}},
                           {"clients", {2}},
                           {"threads", 2},
                           {"duration", 2.5},
                           {"repetitions", 1},
                           {"load_hosts", {{"hosts", {"local", "local"}}, {"scalelab", SCALELAB_BINARY}}}};
    auto store = ExperimentStore::create((files.path() / "e.slab").string());
    SweepRunner(parsePlan(plan), *store, &observer, false).run();
    auto runs = store->runs();
    ASSERT_EQ(runs.size(), 1u);
    ASSERT_EQ(runs[0].status, RunStatus::Completed) << runs[0].error;
    auto samples = store->samples(runs[0].id);
    ASSERT_GE(samples.size(), 2u);
    ASSERT_EQ(observer.live.size(), samples.size());
    for (size_t i = 0; i < samples.size(); ++i) {
        EXPECT_TRUE(observer.live[i].system.has_value()) << "live sample " << i;
        ASSERT_TRUE(samples[i].system.is_object()) << "stored sample " << i << ": " << samples[i].system.dump();
        EXPECT_TRUE(samples[i].system.contains("cpu")) << samples[i].system.dump();
    }
}
