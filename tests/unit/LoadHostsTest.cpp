// A run over several load hosts, without hosts: the share of clients, the job a host gets,
// what it sends back (JSON, histograms) and the merge, which must equal one process's figures.
#include "load/hosts/LoadHosts.h"
#include "load/hosts/LoadJob.h"
#include "load/hosts/LoadResultJson.h"
#include "util/Error.h"
#include "util/HostCommand.h"
#include "util/Format.h"

#include "ErrorOf.h"

#include <gtest/gtest.h>

#include <random>

using namespace scalelab;

namespace {
LatencyHistogram histogramOf(const std::vector<uint64_t>& values) {
    LatencyHistogram h;
    for (uint64_t v : values) h.record(v);
    return h;
}

std::vector<uint64_t> latencies(unsigned seed, size_t n, double meanUs) {
    std::mt19937_64 rng(seed);
    std::exponential_distribution<double> d(1.0 / meanUs);
    std::vector<uint64_t> out;
    for (size_t i = 0; i < n; ++i) out.push_back(static_cast<uint64_t>(d(rng) * 1000) + 50'000);
    return out;
}

LoadResult hostResult(const std::vector<uint64_t>& values, double measuredS, int clients) {
    LoadResult r;
    r.clients = clients;
    r.threads = 1;
    r.workload = "<builtin: select only>";
    r.measuredSeconds = measuredS;
    r.transactions = values.size();
    r.tps = static_cast<double>(values.size()) / measuredS;
    LatencyHistogram h = histogramOf(values);
    r.latency = h.summary();
    r.histogram = h.data();
    return r;
}
} // namespace

TEST(LoadHosts, ClientsAndThreadsAreSharedInContiguousBlocksTheLargerFirst) {
    auto s = shareClients({"a", "b", "c"}, 10, 4);
    ASSERT_EQ(s.size(), 3u);
    EXPECT_EQ(s[0].clients, 4);
    EXPECT_EQ(s[1].clients, 3);
    EXPECT_EQ(s[2].clients, 3);
    EXPECT_EQ(s[0].clientIdOffset, 0);
    EXPECT_EQ(s[1].clientIdOffset, 4);
    EXPECT_EQ(s[2].clientIdOffset, 7);
    EXPECT_EQ(s[0].threads, 2);
    EXPECT_EQ(s[1].threads, 1);
    EXPECT_EQ(s[2].threads, 1);
    // Fewer threads than hosts: each host still has one.
    for (const auto& h : shareClients({"a", "b"}, 4, 1)) EXPECT_EQ(h.threads, 1);
    EXPECT_NE(test::errorOf([] { shareClients({"a", "b", "c"}, 2, 2); }).find("2 clients cannot be shared over 3 load hosts"),
              std::string::npos);
}

TEST(LoadHosts, AHistogramTravelsAsJsonWithoutLoss) {
    LatencyHistogram h = histogramOf(latencies(1, 5000, 800));
    HistogramData back = histogramFromJson(nlohmann::json::parse(toJson(h.data()).dump()));
    LatencyHistogram r = LatencyHistogram::fromData(back);
    EXPECT_EQ(r.count(), h.count());
    EXPECT_EQ(r.minNs(), h.minNs());
    EXPECT_EQ(r.maxNs(), h.maxNs());
    EXPECT_DOUBLE_EQ(r.meanNs(), h.meanNs());
    EXPECT_DOUBLE_EQ(r.stddevNs(), h.stddevNs());
    for (double q : {0.5, 0.9, 0.95, 0.99, 0.999}) EXPECT_EQ(r.percentileNs(q), h.percentileNs(q)) << q;
    for (size_t i = 0; i < histogram::kBuckets; ++i) ASSERT_EQ(r.bucketCount(i), h.bucketCount(i)) << i;
}

TEST(LoadHosts, AHistogramThatDoesNotAddUpIsRefused) {
    HistogramData d = histogramOf({1000, 2000}).data();
    d.count = 3;
    EXPECT_NE(test::errorOf([&] { LatencyHistogram::fromData(d); }).find("hold 2 values, its count says 3"), std::string::npos);
    d.count = 2;
    d.buckets.back().first = static_cast<uint32_t>(histogram::kBuckets);
    EXPECT_NE(test::errorOf([&] { LatencyHistogram::fromData(d); }).find("out of range"), std::string::npos);
}

// The whole point: percentiles of the merge are those of one histogram of every transaction,
// not an average of the hosts' percentiles (the two hosts here differ a lot).
TEST(LoadHosts, MergedPercentilesAreThoseOfAllTransactionsTogether) {
    auto fast = latencies(2, 20000, 300), slow = latencies(3, 5000, 3000);
    LoadResult merged = mergeHostResults({hostResult(fast, 10.0, 4), hostResult(slow, 10.2, 4)});
    std::vector<uint64_t> all = fast;
    all.insert(all.end(), slow.begin(), slow.end());
    LatencySummary whole = histogramOf(all).summary();
    EXPECT_EQ(merged.transactions, all.size());
    EXPECT_EQ(merged.clients, 8);
    EXPECT_DOUBLE_EQ(merged.measuredSeconds, 10.2);  // the window: from the common start to the last end
    EXPECT_DOUBLE_EQ(merged.tps, static_cast<double>(all.size()) / 10.2);
    EXPECT_DOUBLE_EQ(merged.latency.p50Ms, whole.p50Ms);
    // The engine: one word when the hosts agree, both when they do not.
    LoadResult wire = hostResult(fast, 10.0, 4), libpq = hostResult(slow, 10.2, 4);
    wire.engine = "wire";
    libpq.engine = "libpq";
    libpq.engineWhy = "the connection uses TLS";
    EXPECT_EQ(mergeHostResults({wire, wire}).engine, "wire");
    LoadResult mixed = mergeHostResults({wire, libpq});
    EXPECT_EQ(mixed.engine, "wire+libpq");
    EXPECT_EQ(mixed.engineWhy, "the connection uses TLS");
    EXPECT_DOUBLE_EQ(merged.latency.p95Ms, whole.p95Ms);
    EXPECT_DOUBLE_EQ(merged.latency.p99Ms, whole.p99Ms);
    EXPECT_DOUBLE_EQ(merged.latency.maxMs, whole.maxMs);
    EXPECT_NEAR(merged.latency.meanMs, whole.meanMs, 1e-9);
    EXPECT_NEAR(merged.latency.stddevMs, whole.stddevMs, 1e-9);
    // An average of the two p95s would be far off.
    double averaged = (hostResult(fast, 10, 4).latency.p95Ms + hostResult(slow, 10, 4).latency.p95Ms) / 2;
    EXPECT_GT(std::abs(averaged - whole.p95Ms), 0.2 * whole.p95Ms);
}

TEST(LoadHosts, CountsAddAndAFailedHostFailsTheRun) {
    LoadResult a = hostResult({1000, 2000, 3000}, 5, 2), b = hostResult({4000}, 5, 2);
    a.failures.serialization = 2;
    b.failures.other = 1;
    a.retries = 3;
    b.retries = 4;
    a.lagMeanMs = 1.0;  // 3 transactions
    b.lagMeanMs = 5.0;  // 1 transaction
    a.lagMaxMs = 2;
    b.lagMaxMs = 9;
    b.status = RunStatus::Failed;
    b.error = "server closed the connection";
    b.abortedClients = 1;
    LoadResult m = mergeHostResults({a, b});
    EXPECT_EQ(m.failures.total(), 3u);
    EXPECT_EQ(m.retries, 7u);
    EXPECT_DOUBLE_EQ(m.lagMeanMs, 2.0);  // (3 x 1 + 1 x 5) / 4
    EXPECT_DOUBLE_EQ(m.lagMaxMs, 9);
    EXPECT_EQ(m.status, RunStatus::Failed);
    EXPECT_EQ(m.error, "server closed the connection");
    EXPECT_EQ(m.abortedClients, 1);
}

TEST(LoadHosts, ResultsWithoutHistogramsCannotBeMergedExactly) {
    LoadResult a = hostResult({1000}, 1, 1);
    a.histogram.reset();
    EXPECT_NE(test::errorOf([&] { mergeHostResults({a, a}); }).find("no latency histogram"), std::string::npos);
}

TEST(LoadHosts, SamplesLineUpByInterval) {
    auto sample = [](double start, double end, std::vector<uint64_t> values) {
        LoadSample s;
        s.startS = start;
        s.endS = end;
        s.transactions = values.size();
        LatencyHistogram h = histogramOf(values);
        s.latency = h.summary();
        s.histogram = h.data();
        return s;
    };
    LoadSample a = sample(0, 1.0, {1000, 2000}), b = sample(0.001, 1.002, {3000, 4000, 5000});
    a.scriptTransactions = {1, 1};
    b.scriptTransactions = {2, 1};
    LoadSample m = mergeHostSamples({&a, &b, nullptr});  // a third host had finished
    EXPECT_EQ(m.transactions, 5u);
    EXPECT_EQ(m.scriptTransactions, (std::vector<uint64_t>{3, 2})) << "per script, as the hosts' transactions add up";
    LoadSample back = loadSampleFromJson(nlohmann::json::parse(toJson(b).dump()));
    EXPECT_EQ(back.scriptTransactions, b.scriptTransactions);
    nlohmann::json lying = toJson(b);
    lying["script_transactions"][1] = -1;
    EXPECT_NE(test::errorOf([&] { loadSampleFromJson(lying); }).find("script_transactions holds -1"), std::string::npos);
    EXPECT_DOUBLE_EQ(m.startS, 0);
    EXPECT_DOUBLE_EQ(m.endS, 1.002);
    EXPECT_DOUBLE_EQ(m.tps, 5 / 1.002);
    EXPECT_EQ(m.latency.count, 5u);
}

TEST(LoadHosts, AResultTravelsAsJson) {
    LoadResult r = hostResult(latencies(4, 1000, 500), 3.5, 3);
    r.failures.deadlock = 2;
    r.retriedTransactions = 1;
    r.firstErrorMessage = "deadlock detected";
    r.samples.push_back([] {
        LoadSample s;
        s.startS = 0;
        s.endS = 1;
        s.transactions = 1;
        LatencyHistogram h = histogramOf({7000});
        s.latency = h.summary();
        s.histogram = h.data();
        return s;
    }());
    CommandReport c;
    c.text = "SELECT 1";
    c.count = 10;
    c.meanMs = 0.5;
    r.commands.push_back(c);
    LoadResult back = loadResultFromJson(nlohmann::json::parse(toJson(r).dump()));
    EXPECT_EQ(back.transactions, r.transactions);
    EXPECT_EQ(back.clients, 3);
    EXPECT_DOUBLE_EQ(back.measuredSeconds, 3.5);
    EXPECT_EQ(back.failures.deadlock, 2u);
    EXPECT_EQ(back.retriedTransactions, 1u);
    EXPECT_EQ(back.firstErrorMessage, "deadlock detected");
    EXPECT_DOUBLE_EQ(back.latency.p99Ms, r.latency.p99Ms);
    ASSERT_EQ(back.samples.size(), 1u);
    EXPECT_EQ(back.samples[0].latency.count, 1u);
    ASSERT_EQ(back.commands.size(), 1u);
    EXPECT_DOUBLE_EQ(back.commands[0].meanMs, 0.5);
    nlohmann::json broken = toJson(r);
    broken.erase("transactions");
    EXPECT_NE(test::errorOf([&] { loadResultFromJson(broken); }).find("no \"transactions\""), std::string::npos);
}

namespace {
ScriptReport scriptReport(const std::string& name, int weight, const std::vector<uint64_t>& values) {
    ScriptReport s;
    s.name = name;
    s.weight = weight;
    LatencyHistogram h = histogramOf(values);
    s.transactions = h.count();
    s.latency = h.summary();
    s.histogram = h.data();
    return s;
}
} // namespace

// A run of several scripts: each script's counts and latencies travel and merge as the run's do
// (TPROC-C's NOPM is one script's count).
TEST(LoadHosts, PerScriptReportsTravelAndMergeExactly) {
    std::vector<uint64_t> a1 = latencies(11, 300, 400), a2 = latencies(12, 50, 900), b1 = latencies(13, 200, 400);
    LoadResult a = hostResult(a1, 4, 2), b = hostResult(b1, 4, 2);
    a.scripts = {scriptReport("new_order", 45, a1), scriptReport("payment", 43, a2)};
    a.scripts[1].failures.deadlock = 2;
    a.scripts[1].retries = 3;
    a.scriptSet = "tprocc";
    b.scripts = {scriptReport("new_order", 45, b1), scriptReport("payment", 43, {})};
    b.scripts[0].skipped = 4;
    b.scriptSet = "tprocc";
    LoadResult backA = loadResultFromJson(nlohmann::json::parse(toJson(a).dump()));
    ASSERT_EQ(backA.scripts.size(), 2u);
    EXPECT_EQ(backA.scriptSet, "tprocc");
    EXPECT_EQ(backA.scripts[1].name, "payment");
    EXPECT_EQ(backA.scripts[1].weight, 43);
    EXPECT_EQ(backA.scripts[1].transactions, 50u);
    EXPECT_EQ(backA.scripts[1].failures.deadlock, 2u);
    EXPECT_EQ(backA.scripts[1].retries, 3u);
    EXPECT_DOUBLE_EQ(backA.scripts[1].latency.p95Ms, a.scripts[1].latency.p95Ms);

    LoadResult m = mergeHostResults({a, b});
    ASSERT_EQ(m.scripts.size(), 2u);
    EXPECT_EQ(m.scriptSet, "tprocc");
    std::vector<uint64_t> both = a1;
    both.insert(both.end(), b1.begin(), b1.end());
    LatencySummary whole = histogramOf(both).summary();
    EXPECT_EQ(m.scripts[0].transactions, 500u);
    EXPECT_DOUBLE_EQ(m.scripts[0].latency.p99Ms, whole.p99Ms);
    EXPECT_EQ(m.scripts[0].skipped, 4u);
    EXPECT_EQ(m.scripts[1].transactions, 50u);
    EXPECT_EQ(m.scripts[1].failures.deadlock, 2u);
    EXPECT_EQ(m.scripts[0].ended(), 504u);

    LoadResult other = b;
    other.scripts[1].name = "delivery";
    EXPECT_NE(test::errorOf([&] { mergeHostResults({a, other}); }).find("different scripts"), std::string::npos);
    nlohmann::json lying = toJson(a);
    lying["scripts"][0]["transactions"] = 299;
    lying["scripts"][0].erase("histogram");
    EXPECT_NE(test::errorOf([&] { loadResultFromJson(lying); }).find("299 transactions but 300 latencies"), std::string::npos);
}

TEST(LoadHosts, AHostGetsTheScriptsByTheirTextAndTheRunsSettings) {
    LoadSpec s;
    s.conninfo = "host=/tmp dbname=bench";
    s.workload.addBuiltin("select-only@3");
    s.workload.addScriptText("\\set x random(1, 10)\nSELECT :x, :who;\n", "mine.sql", 2);
    s.workload.define("who=42");
    s.mode = QueryMode::Prepared;
    s.durationS = 30;
    s.warmupS = 5;
    s.rate = 1000;
    s.maxTries = 3;
    s.seed = 77;
    s.reportPerCommand = true;
    s.engine = LoadEngine::Libpq;
    LoadSpec back = loadSpecFromJob(nlohmann::json::parse(loadJobJson(s).dump()));
    EXPECT_EQ(back.engine, LoadEngine::Libpq) << "each host runs the engine asked for";
    EXPECT_EQ(back.conninfo, s.conninfo);
    ASSERT_EQ(back.workload.scripts.size(), 2u);
    EXPECT_EQ(back.workload.describe(), s.workload.describe());
    EXPECT_EQ(back.workload.scripts[0].weight, 3);
    EXPECT_EQ(back.workload.scripts[1].text, s.workload.scripts[1].text);
    ASSERT_EQ(back.workload.defines().size(), 1u);
    EXPECT_EQ(back.workload.defines()[0].value, "42");
    EXPECT_EQ(back.mode, QueryMode::Prepared);
    EXPECT_DOUBLE_EQ(back.durationS, 30);
    EXPECT_DOUBLE_EQ(back.warmupS, 5);
    EXPECT_DOUBLE_EQ(back.rate, 1000);
    EXPECT_EQ(back.maxTries, 3);
    EXPECT_EQ(back.seed, std::optional<uint64_t>(77));
    EXPECT_TRUE(back.reportPerCommand);
    EXPECT_EQ(back.workload.scriptSet, "");
    s.workload.scriptSet = "tprocc";
    s.workload.keyingThinking = 0.5;
    s.workload.scripts[0].keyingS = 9;
    s.workload.scripts[0].thinkMeanS = 6;
    LoadSpec timed = loadSpecFromJob(nlohmann::json::parse(loadJobJson(s).dump()));
    EXPECT_EQ(timed.workload.scripts[0].keyingS, 9.0) << "a host's clients wait the same keying times";
    EXPECT_EQ(timed.workload.scripts[0].thinkMeanS, 6.0);
    EXPECT_EQ(timed.workload.scripts[1].keyingS, 0.0);
    EXPECT_EQ(timed.workload.keyingThinking, 0.5);
    EXPECT_EQ(loadSpecFromJob(nlohmann::json::parse(loadJobJson(s).dump())).workload.scriptSet, "tprocc")
        << "a host's result must say it is TPROC-C's, or the merged run has no NOPM";
    nlohmann::json replay = loadJobJson([] {
        LoadSpec r;
        r.workload = Workload::replayText("SELECT 1;\nSELECT 2;\n", "log.sql", true);
        r.transactionsPerClient = 1;
        return r;
    }());
    LoadSpec replayBack = loadSpecFromJob(replay);
    EXPECT_TRUE(replayBack.workload.replay);
    EXPECT_TRUE(replayBack.workload.shuffle);
    EXPECT_EQ(replayBack.workload.scripts.size(), 2u);
}

// `run --load-hosts` prints each host's clock offset signed; a local host's is about 0 either
// way and must not read "-0.0 ms".
TEST(LoadHosts, AClockOffsetThatRoundsToZeroIsPrintedAsPlusZero) {
    EXPECT_EQ(formatSigned(-0.04, 1), "+0.0");
    EXPECT_EQ(formatSigned(-0.0, 1), "+0.0");
    EXPECT_EQ(formatSigned(0.04, 1), "+0.0");
    EXPECT_EQ(formatSigned(-0.05001, 1), "-0.1");
    EXPECT_EQ(formatSigned(-12.34, 1), "-12.3");
    EXPECT_EQ(formatSigned(2.5, 2), "+2.50");
}

// NTP's rule: the exchange with the shortest round trip counts, the host's reading halfway.
TEST(LoadHosts, AHostsClockOffsetComesFromTheShortestRoundTrip) {
    // A host 2 s ahead; the answers took 40 ms, 4 ms and 10 ms there and back.
    std::vector<ClockReading> readings = {{1'000'000'000, 3'020'000'000, 1'040'000'000},
                                          {2'000'000'000, 4'003'000'000, 2'004'000'000},
                                          {3'000'000'000, 5'001'000'000, 3'010'000'000}};
    ClockOffset c = clockOffset(readings);
    EXPECT_EQ(c.offsetNs, 2'001'000'000);  // 4'003 - (2'000 + 2)
    EXPECT_EQ(c.uncertaintyNs, 2'000'000);
    // Behind is negative; one reading is enough.
    EXPECT_EQ(clockOffset({{10'000, 4'000, 10'000}}).offsetNs, -6'000);
    EXPECT_THROW(clockOffset({}), Error);
}

// Issue 60.8: a host named "-oProxyCommand=..." ran a command here through ssh, and so did a
// remote program of that name (OpenSSH parses options again after the destination). Every
// host command is built by agentArgv, which refuses both, whoever checked them before.
TEST(LoadHosts, NoHostNameOrRemoteProgramIsReadAsAnSshOption) {
    HostCommand command;
    EXPECT_EQ(test::errorOf([&] { command.agentArgv("-oProxyCommand=touch /tmp/x"); }),
              "host -oProxyCommand=touch /tmp/x: '-oProxyCommand=touch /tmp/x' starts with '-': ssh would read it as an "
              "option, not a destination");
    EXPECT_NE(test::errorOf([&] { command.agentArgv("db1\nx"); }).find("no spaces or control characters"), std::string::npos);
    command.remoteProgram = "-oProxyCommand=touch /tmp/x";
    EXPECT_NE(test::errorOf([&] { command.agentArgv("db1"); }).find("ssh would read it as an option, not the program to run"),
              std::string::npos);
    command.remoteProgram = "/opt/scalelab/bin/scalelab";
    EXPECT_EQ(command.agentArgv("bench@db1"),
              (std::vector<std::string>{"ssh", "-o", "BatchMode=yes", "bench@db1", "/opt/scalelab/bin/scalelab", "agent"}));
    EXPECT_EQ(sshDestinationProblem("local"), "");
    EXPECT_EQ(remoteProgramProblem("scalelab"), "");
}
