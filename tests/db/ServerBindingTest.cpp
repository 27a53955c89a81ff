// Binding the real embedded server and real load-generator threads on this machine.
#include "ServerRequirement.h"
#include "ThrowawayServer.h"

#include "load/LoadRun.h"
#include "topo/ServerBinding.h"
#include "topo/Topology.h"

#include <gtest/gtest.h>
#include <pqxx/pqxx>

#include <sched.h>

#include <mutex>

using namespace scalelab;

namespace {

pid_t freshBackend(const std::string& conninfo, std::unique_ptr<pqxx::connection>& keep) {
    keep = std::make_unique<pqxx::connection>(conninfo);
    pqxx::nontransaction tx(*keep);
    return tx.exec("SELECT pg_backend_pid()")[0][0].as<pid_t>();
}

} // namespace

TEST(ServerBinding, BindsTheServerSoThatNewBackendsInheritItThenRestores) {
    SCALELAB_REQUIRE_SERVER();
    test::ThrowawayServer s;
    Topology topo = Topology::live();
    CpuSet all = topo.info().allPus();
    CpuSet one{all.pus().back()};
    pid_t postmaster = s.server.status().pid;
    std::unique_ptr<pqxx::connection> before, during, after;
    pid_t existing = freshBackend(s.server.connectionString(), before);
    {
        ServerPlacement placed(topo, postmaster, one);
        EXPECT_EQ(allowedCpus(postmaster), one);
        EXPECT_EQ(allowedCpus(existing), one) << "a backend that was already there is bound too";
        EXPECT_EQ(allowedCpus(freshBackend(s.server.connectionString(), during)), one) << "a new backend inherits it";
    }
    EXPECT_EQ(allowedCpus(postmaster), all);
    EXPECT_EQ(allowedCpus(existing), all);
    EXPECT_EQ(allowedCpus(freshBackend(s.server.connectionString(), after)), all);
}

TEST(ServerBinding, BindsEachLoadGeneratorThreadThroughTheWorkerHook) {
    SCALELAB_REQUIRE_SERVER();
    test::ThrowawayServer s;
    Topology topo = Topology::live();
    CpuSet one{topo.info().allPus().pus().front()};
    std::mutex m;
    std::vector<std::string> seen;
    LoadSpec spec;
    spec.conninfo = s.server.connectionString();
    spec.workload.addScriptText("SELECT 1;\n", "one.sql");
    spec.clients = 2;
    spec.threads = 2;
    spec.transactionsPerClient = 5;
    spec.onWorkerStart = [&](int) {
        topo.bindThisThread(one);
        cpu_set_t mask;
        sched_getaffinity(0, sizeof mask, &mask);
        CpuSet got;
        for (int i = 0; i < CPU_SETSIZE; ++i)
            if (CPU_ISSET(i, &mask)) got.add(i);
        std::lock_guard<std::mutex> lock(m);
        seen.push_back(got.toList());
    };
    LoadResult r = LoadRun(spec).run();
    ASSERT_EQ(r.status, RunStatus::Completed) << r.error;
    EXPECT_EQ(seen, (std::vector<std::string>{one.toList(), one.toList()}));
}

TEST(ServerBinding, AFailingWorkerHookFailsTheRunWithItsMessage) {
    SCALELAB_REQUIRE_SERVER();
    test::ThrowawayServer s;
    Topology synthetic = Topology::synthetic("pack:1 core:2 pu:1");
    LoadSpec spec;
    spec.conninfo = s.server.connectionString();
    spec.workload.addScriptText("SELECT 1;\n", "one.sql");
    spec.transactionsPerClient = 1;
    spec.onWorkerStart = [&](int) { synthetic.bindThisThread(CpuSet{0}); };
    LoadResult r = LoadRun(spec).run();
    EXPECT_EQ(r.status, RunStatus::Failed);
    EXPECT_EQ(r.error, "cannot bind a thread with a topology of synthetic: pack:1 core:2 pu:1: only with this machine's");
}
