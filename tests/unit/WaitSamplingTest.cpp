// Where the sessions wait, from pg_wait_sampling's profile (issue 62): the window is the
// difference of two reads, its rounds the reference session's count, a process alive through
// it on CPU in each round it was not sampled, and a reset profile refused, never read as
// negative waits.
#include "metrics/WaitSampler.h"
#include "metrics/WaitSamplingProfile.h"
#include "util/Error.h"

#include <gtest/gtest.h>

using namespace scalelab;

namespace {

constexpr int kReference = 900;

uint64_t countOf(const SamplingWindow& w, const std::string& backend, const std::string& type, const std::string& event,
                 const std::string& queryId = "") {
    auto it = w.counts.find({backend, type, event, queryId});
    return it == w.counts.end() ? 0 : it->second;
}

} // namespace

TEST(WaitSampling, TheWindowIsTheDifferenceOfTwoReadsAndTheRoundsAreTheReferencesCount) {
    // The server ran 1,000 rounds before the window and 400 in it.
    SamplingCounts start = {
        {{kReference, "Client", "ClientRead", ""}, 1000},
        {{11, "Lock", "transactionid", "42"}, 300},      // a load session
        {{11, "Client", "ClientRead", ""}, 200},
        {{20, "Activity", "WalWriterMain", ""}, 990},   // the walwriter, asleep
        {{30, "Client", "ClientRead", ""}, 1000},       // a psql left open
        {{5, "Lock", "tuple", ""}, 77},                 // a pid long gone: no change, not counted
    };
    SamplingCounts now = start;
    now[{kReference, "Client", "ClientRead", ""}] = 1400;
    now[{11, "Lock", "transactionid", "42"}] = 500;   // +200
    now[{11, "Client", "ClientRead", ""}] = 250;      // +50: on CPU the other 150 rounds
    now[{12, "Lock", "transactionid", "42"}] = 100;   // a second load session, new to the profile
    now[{20, "Activity", "WalWriterMain", ""}] = 1380;  // +390: on CPU 10 rounds
    now[{20, "IO", "WALWrite", ""}] = 0 + 0;          // an entry that never moved
    now[{30, "Client", "ClientRead", ""}] = 1400;
    now[{40, "IO", "DataFileRead", ""}] = 7;          // a process that came and went between reads
    BackendClasses classes = {{11, kLoadBackends}, {12, kLoadBackends}, {20, "walwriter"}, {30, "other clients"}};
    // Each alive at both reads: its CPU is the rounds it was not sampled in.
    auto window = [&](const BackendClasses& cls) {
        SamplingWindow w = samplingWindow(start, now, kReference, cls);
        std::map<int, AliveAt> alive;
        for (int pid : {11, 12, 20, 30}) alive[pid] = {w.rounds, w.sampledOf[pid]};
        addCpuSamples(w, cls, alive, kReference);
        return w;
    };
    SamplingWindow w = window(classes);
    ASSERT_EQ(w.error, "");
    EXPECT_EQ(w.rounds, 400u);
    EXPECT_EQ(countOf(w, kLoadBackends, "Lock", "transactionid", "42"), 300u);  // both sessions
    EXPECT_EQ(countOf(w, kLoadBackends, "Client", "ClientRead"), 50u);
    EXPECT_EQ(countOf(w, kLoadBackends, "CPU", "CPU"), 150u + 300u);  // 400 - 250 and 400 - 100
    EXPECT_EQ(countOf(w, "walwriter", "Activity", "WalWriterMain"), 0u) << "asleep is not busy";
    EXPECT_EQ(countOf(w, "walwriter", "CPU", "CPU"), 10u);
    EXPECT_EQ(countOf(w, "other clients", "Client", "ClientRead"), 0u) << "an idle psql is no load";
    EXPECT_EQ(countOf(w, "other clients", "CPU", "CPU"), 0u);
    EXPECT_EQ(countOf(w, kShortLivedBackends, "IO", "DataFileRead"), 7u);
    EXPECT_EQ(countOf(w, kShortLivedBackends, "CPU", "CPU"), 0u) << "its lifetime is unknown: no CPU figure";
    EXPECT_EQ(countOf(w, "", "Client", "ClientRead"), 0u);
    // A process ScaleLab leaves out (its own sessions, the collector) is not counted at all.
    classes[11] = "";
    w = window(classes);
    EXPECT_EQ(countOf(w, kLoadBackends, "Lock", "transactionid", "42"), 100u);
    EXPECT_EQ(countOf(w, kLoadBackends, "CPU", "CPU"), 300u);
}

// A load session that ended just before the window's last read (the run's clients disconnect
// as it stops) keeps the CPU of the rounds it was seen alive in.
TEST(WaitSampling, ASessionGoneAtTheLastReadKeepsItsCpuUpToTheReadThatFoundIt) {
    SamplingCounts start = {{{kReference, "Client", "ClientRead", ""}, 0}, {{11, "Lock", "tuple", ""}, 0}};
    SamplingCounts now = {{{kReference, "Client", "ClientRead", ""}, 400}, {{11, "Lock", "tuple", ""}, 300}};
    SamplingWindow w = samplingWindow(start, now, kReference, {{11, kLoadBackends}});
    // Last seen alive at round 350, with 280 samples then: 70 on CPU.
    addCpuSamples(w, {{11, kLoadBackends}}, {{11, AliveAt{350, 280}}}, kReference);
    EXPECT_EQ(countOf(w, kLoadBackends, "CPU", "CPU"), 70u);
    EXPECT_EQ(countOf(w, kLoadBackends, "Lock", "tuple"), 300u);
}

TEST(WaitSampling, AResetProfileOrASilentCollectorIsAnErrorNeverNegativeOrZeroWaits) {
    SamplingCounts start = {{{kReference, "Client", "ClientRead", ""}, 1000}, {{11, "Lock", "tuple", ""}, 50}};
    SamplingCounts reset = {{{kReference, "Client", "ClientRead", ""}, 30}, {{11, "Lock", "tuple", ""}, 5}};
    EXPECT_EQ(samplingWindow(start, reset, kReference, {{11, kLoadBackends}}).error,
              "the pg_wait_sampling profile was reset during the window");
    SamplingCounts gone = {{{kReference, "Client", "ClientRead", ""}, 1200}};
    EXPECT_EQ(samplingWindow(start, gone, kReference, {{11, kLoadBackends}}).error,
              "the pg_wait_sampling profile was reset during the window");
    EXPECT_EQ(samplingWindow(start, start, kReference, {{11, kLoadBackends}}).error,
              "pg_wait_sampling's collector took no samples in the window");
}

TEST(WaitSampling, TheSourceAndWhyTheExtensionWasNotUsedAreStoredWithTheRun) {
    WaitProfile p;
    p.source = kActivitySource;
    p.sourceWhy = "the server does not load it (shared_preload_libraries)";
    p.hz = 10;
    p.samples = 40;
    p.seconds = 4;
    WaitProfile back = waitProfileFromJson(toJson(p));
    EXPECT_EQ(back.sourceWhy, p.sourceWhy);
    p.source = kWaitSamplingSource;
    p.sourceWhy.clear();
    EXPECT_FALSE(toJson(p).contains("source_why"));
    nlohmann::json j = toJson(p);
    j["source_why"] = 3;
    EXPECT_THROW(waitProfileFromJson(j), Error);
}
