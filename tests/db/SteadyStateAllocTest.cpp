// The hot path allocates nothing: over a steady-state stretch of a run, the worker threads call
// malloc (the C++ allocations go through it, libpq's too) not once with the wire engine, in
// each query mode, on select-only and tpcb-like. The same count through libpq, which makes a
// PGresult per query, shows that the counter sees what it should. Built without sanitizers
// only: they replace malloc themselves.
#include "SharedServer.h"
#include "load/LoadRun.h"
#include "load/data/PgbenchData.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <string>

extern "C" {
void* __libc_malloc(size_t size);
void* __libc_calloc(size_t count, size_t size);
void* __libc_realloc(void* p, size_t size);
}

namespace {
__thread bool tWorker = false;          // this thread is one of the load generator's workers
std::atomic<bool> gCounting{false};     // inside the counted stretch
std::atomic<long> gWorkerAllocations{0};

inline void counted() {
    if (tWorker && gCounting.load(std::memory_order_relaxed)) gWorkerAllocations.fetch_add(1, std::memory_order_relaxed);
}
} // namespace

// Every allocation of the process passes here first (the executable's definitions come before
// libc's in symbol lookup).
extern "C" void* malloc(size_t size) {
    counted();
    return __libc_malloc(size);
}
extern "C" void* calloc(size_t count, size_t size) {
    counted();
    return __libc_calloc(count, size);
}
extern "C" void* realloc(void* p, size_t size) {
    counted();
    return __libc_realloc(p, size);
}

using namespace scalelab;

namespace {

EmbeddedServer& server() { return test::SharedServer::get({{"max_connections", "100"}}); }

struct Counted {
    long allocations = 0;
    uint64_t transactions = 0;  // ended in the counted stretch
    std::string error;
};

// Samples every 0.5 s; the stretch from the end of the second to the end of the fifth.
Counted countOver(const std::string& builtin, QueryMode mode, LoadEngine engine) {
    LoadSpec s;
    s.conninfo = server().connectionString();
    s.workload.addBuiltin(builtin);
    s.mode = mode;
    s.engine = engine;
    s.clients = 8;
    s.threads = 2;
    s.durationS = 3.5;
    s.sampleIntervalS = 0.5;
    s.vacuum = RunVacuum::None;
    s.onWorkerStart = [](int) { tWorker = true; };
    Counted c;
    int samples = 0;
    gWorkerAllocations = 0;
    LoadResult r = LoadRun(s, [&](const LoadSample& sample) {
        ++samples;
        if (samples >= 3 && samples <= 5) c.transactions += sample.transactions;
        if (samples == 2) gCounting = true;
        if (samples == 5) gCounting = false;
    }).run();
    gCounting = false;
    c.allocations = gWorkerAllocations.load();
    if (r.status != RunStatus::Completed) c.error = r.error;
    return c;
}

class SteadyStateAllocTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        if (!test::missingServerPrograms().empty()) return;
        PgbenchInitOptions o;
        o.scale = 1;
        initPgbenchData(server().connectionString(), o);
    }
    void SetUp() override { SCALELAB_REQUIRE_SERVER(); }
};

} // namespace

TEST_F(SteadyStateAllocTest, TheWireEngineAllocatesNothingPerTransaction) {
    for (const char* builtin : {"select-only", "tpcb-like"}) {
        for (QueryMode mode : {QueryMode::Simple, QueryMode::Extended, QueryMode::Prepared}) {
            Counted c = countOver(builtin, mode, LoadEngine::Wire);
            ASSERT_TRUE(c.error.empty()) << c.error;
            ASSERT_GT(c.transactions, 100u) << builtin << " " << queryModeName(mode) << ": too few transactions to tell";
            EXPECT_EQ(c.allocations, 0) << builtin << " " << queryModeName(mode) << ": " << c.transactions << " transactions";
        }
    }
}

TEST_F(SteadyStateAllocTest, TheCounterSeesLibpqsResults) {
    Counted c = countOver("select-only", QueryMode::Prepared, LoadEngine::Libpq);
    ASSERT_TRUE(c.error.empty()) << c.error;
    ASSERT_GT(c.transactions, 100u);
    EXPECT_GE(static_cast<uint64_t>(c.allocations), c.transactions) << "libpq allocates a result per query";
}
