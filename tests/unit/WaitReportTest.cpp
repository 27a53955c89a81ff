// Where the sessions wait (issue 62): a run's stored wait samples as average active sessions and
// wait time per transaction, a point's rounds merged, two series compared event by event with
// Bonferroni's correction, and what is missing said as missing.
#include "RunRecords.h"

#include "metrics/WaitSampler.h"
#include "report/HtmlReport.h"
#include "report/ReportText.h"
#include "stats/Report.h"
#include "report/WaitText.h"
#include "stats/WaitReport.h"
#include "util/Error.h"

#include <gtest/gtest.h>

using namespace scalelab;

namespace {

// A run of `transactions` in 10 s whose 100 samples found the load's sessions waiting so.
RunRecord runWithWaits(const std::string& series, int repetition, uint64_t transactions,
                       const std::vector<std::pair<std::string, uint64_t>>& loadEvents, int clients = 8) {
    RunRecord r = test::completedRun(series, clients, repetition, static_cast<double>(transactions) / 10);
    r.transactions = transactions;
    r.measuredSeconds = 10;
    test::addWaits(r, loadEvents);
    return r;
}

} // namespace

TEST(WaitReport, ARunsSamplesAreSessionsAndTimePerTransaction) {
    // 400 samples of transactionid in 100: 4 sessions on average; over 10 s, 40 session-seconds
    // shared by 20,000 transactions: 2 ms each.
    auto points = pointWaits({runWithWaits("A", 1, 20000, {{"Lock:transactionid", 400}, {"CPU", 100}})}, {"A"});
    ASSERT_EQ(points.size(), 1u);
    ASSERT_EQ(points[0].runs.size(), 1u);
    auto events = pointWaitSummaries(points[0], 0.95);
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events[0].event, "Lock:transactionid");
    EXPECT_DOUBLE_EQ(events[0].sessions, 4.0);
    EXPECT_DOUBLE_EQ(events[0].sharePct, 80.0);
    EXPECT_DOUBLE_EQ(events[0].msPerTx.mean, 2.0);
    EXPECT_EQ(events[1].event, "CPU");
    EXPECT_DOUBLE_EQ(events[1].msPerTx.mean, 0.5);
    auto others = otherBackendWaits(points[0]);
    ASSERT_EQ(others.size(), 1u);
    EXPECT_EQ(others[0].first, "walwriter IO:WALWrite");
    EXPECT_DOUBLE_EQ(others[0].second, 0.3);
}

TEST(WaitReport, ARunWithoutWaitsIsMissingWithWhyNeverZero) {
    RunRecord none = test::completedRun("A", 8, 1, 100);
    none.transactions = 1000;
    none.measuredSeconds = 10;
    RunRecord failed = none;
    failed.repetition = 2;
    WaitProfile p;
    p.unavailable = "a read of pg_stat_activity failed: server closed the connection";
    failed.detail["system"]["waits"] = toJson(p);
    RunRecord damaged = none;
    damaged.repetition = 3;
    damaged.detail["system"]["waits"] = {{"source", "pg_stat_activity"}, {"hz", 10}, {"samples", 10}, {"seconds", 1},
                                         {"counts", {{{"backend", "load"}, {"type", "CPU"}, {"event", "CPU"}, {"count", -3}}}}};
    auto points = pointWaits({none, failed, damaged, runWithWaits("A", 4, 1000, {{"CPU", 100}})}, {"A"});
    ASSERT_EQ(points.size(), 1u);
    EXPECT_EQ(points[0].runs.size(), 1u);
    EXPECT_EQ(points[0].runsWithout, 3);
    ASSERT_EQ(points[0].why.size(), 3u);
    EXPECT_NE(points[0].why[0].find("no waits recorded"), std::string::npos);
    EXPECT_EQ(points[0].why[1], p.unavailable);
    EXPECT_EQ(points[0].why[2], "stored waits are damaged: waits.counts[0].count: missing or not a count");
    // Only the run with waits counts: its CPU is 1 session, not a quarter of one.
    EXPECT_DOUBLE_EQ(pointWaitSummaries(points[0], 0.95)[0].sessions, 1.0);
    std::string text = waitsText(points, {});
    EXPECT_NE(text.find("A, 8 clients: 1 run with waits (pg_stat_activity at 10 Hz, 100 samples), 3 without (no waits"),
              std::string::npos)
        << text;
}

TEST(WaitReport, AnEventARunNeverSawIsZeroThereAndEveryEventIsJudgedWithBonferroni) {
    // B waits about 1 ms more per transaction on LWLock:WALInsert (which A never waits on) and
    // the same on CPU.
    std::vector<RunRecord> runs;
    for (int rep = 1; rep <= 4; ++rep) {
        uint64_t wiggle = static_cast<uint64_t>(rep), odd = rep % 2 ? 6 : 0;  // CPU: the same values each side
        runs.push_back(runWithWaits("A", rep, 10000, {{"CPU", 297 + odd}}));
        runs.push_back(runWithWaits("B", rep, 10000, {{"CPU", 303 - odd}, {"LWLock:WALInsert", 100 + 2 * wiggle}}));
    }
    auto points = pointWaits(runs, {"A", "B"});
    ASSERT_EQ(points.size(), 2u);
    WaitComparison c = compareWaits(points[0], points[1], 0.95, false);
    ASSERT_EQ(c.changes.size(), 2u);
    EXPECT_DOUBLE_EQ(c.confidence, 0.975);  // two events judged
    EXPECT_EQ(c.changes[0].event, "LWLock:WALInsert");  // the larger change first
    EXPECT_DOUBLE_EQ(c.changes[0].a.msPerTx.mean, 0.0);
    EXPECT_NEAR(c.changes[0].comparison.difference, 1.05, 1e-9);  // 105 samples: 10.5 s over 10,000 tx
    EXPECT_EQ(c.changes[0].comparison.verdict, "distinguishable");
    std::string sentence = waitChangeSentence(c, c.changes[0], "at 8 clients");
    EXPECT_EQ(sentence.rfind("B waits 1.05 ms (", 0), 0u) << sentence;
    EXPECT_NE(sentence.find(") more per transaction on LWLock:WALInsert than A at 8 clients"), std::string::npos) << sentence;
    EXPECT_EQ(waitChangeSentence(c, c.changes[1], "at 8 clients"), "") << "CPU did not change distinguishably";
    WaitTextOptions o;
    o.baseline = "A";
    o.candidate = "B";
    std::string text = waitsText(points, o);
    EXPECT_NE(text.find("Bonferroni over 2 events"), std::string::npos) << text;
    EXPECT_NE(text.find("  " + sentence + ".\n"), std::string::npos) << text;
    // A side without waits is said, not compared.
    EXPECT_THROW(compareWaits(points[0], pointWaits({test::completedRun("C", 8, 1, 1)}, {"C"})[0], 0.95, false), Error);
    o.candidate = "C";
    EXPECT_THROW(waitsText(points, o), Error);
}

// pg_wait_sampling counts a session's Client:ClientRead between transactions as well; against
// pg_stat_activity's that is no change of the server's: left out, and the output says so.
TEST(WaitReport, SidesFromDifferentSourcesLeaveClientReadOutAndSaySo) {
    std::vector<RunRecord> runs;
    for (int round = 1; round <= 3; ++round) {
        runs.push_back(runWithWaits("A", round, 1000, {{"Client:ClientRead", 100}, {"CPU", 200 + round}}));
        RunRecord b = test::completedRun("B", 8, round, 100);
        b.transactions = 1000;
        b.measuredSeconds = 10;
        test::addWaits(b, {{"Client:ClientRead", 400}, {"CPU", 205 - round}}, kWaitSamplingSource);
        runs.push_back(b);
    }
    auto points = pointWaits(runs, {"A", "B"});
    ASSERT_EQ(points.size(), 2u);
    WaitComparison c = compareWaits(points[0], points[1], 0.95, false);
    ASSERT_EQ(c.changes.size(), 1u);
    EXPECT_EQ(c.changes[0].event, "CPU");
    EXPECT_NE(c.note.find("A: pg_stat_activity; B: pg_wait_sampling"), std::string::npos) << c.note;
    WaitTextOptions o;
    o.baseline = "A";
    o.candidate = "B";
    std::string text = waitsText(points, o);
    EXPECT_NE(text.find("Note: the two sides' waits come from different sources"), std::string::npos) << text;
    // The same source on both sides: no note, ClientRead judged.
    for (auto& r : runs) test::addWaits(r, {{"Client:ClientRead", 100}, {"CPU", 200}});
    points = pointWaits(runs, {"A", "B"});
    c = compareWaits(points[0], points[1], 0.95, false);
    EXPECT_EQ(c.note, "");
    EXPECT_EQ(c.changes.size(), 2u);
}

TEST(WaitProfile, StoredProfilesReadBackAndDamageIsNamed) {
    WaitProfile p;
    p.source = "pg_stat_activity";
    p.hz = 10;
    p.samples = 12;
    p.seconds = 1.1;
    p.counts = {{kLoadBackends, "Lock", "transactionid", "-7", 5}, {"checkpointer", "IO", "DataFileSync", "", 2}};
    WaitProfile back = waitProfileFromJson(toJson(p));
    EXPECT_EQ(back.samples, 12u);
    ASSERT_EQ(back.counts.size(), 2u);
    EXPECT_EQ(back.counts[0].queryId, "-7");
    EXPECT_EQ(back.counts[1].queryId, "");
    EXPECT_EQ(back.byEvent().at("Lock:transactionid"), 5u);
    EXPECT_EQ(back.byEvent("checkpointer").at("IO:DataFileSync"), 2u);
    EXPECT_EQ(waitEventName("CPU", "CPU"), "CPU");
    auto refused = [](nlohmann::json j) {
        try {
            waitProfileFromJson(j);
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    nlohmann::json j = toJson(p);
    j.erase("samples");
    EXPECT_EQ(refused(j), "waits.samples: missing or not a number of at least 0");
    j = toJson(p);
    j["counts"][1].erase("event");
    EXPECT_EQ(refused(j), "waits.counts[1].event: missing or not a string");
    EXPECT_EQ(refused(nlohmann::json::array()), "waits: not an object");
    EXPECT_EQ(waitProfileFromJson({{"unavailable", "no connection"}}).unavailable, "no connection");
}

// The HTML report carries the same: with a comparison, each x's changes (a card per row on a
// phone) and the sentence; without, each series' events at its highest x; and why runs have none.
TEST(WaitReport, TheHtmlReportShowsTheChangesTheEventsAndWhatIsMissing) {
    std::vector<RunRecord> runs;
    for (int rep = 1; rep <= 4; ++rep) {
        uint64_t wiggle = static_cast<uint64_t>(rep);
        runs.push_back(runWithWaits("A", rep, 10000, {{"CPU", 300}}));
        runs.push_back(runWithWaits("B", rep, 10000, {{"CPU", 300}, {"LWLock:WALInsert", 100 + 2 * wiggle}}));
    }
    RunRecord without = test::completedRun("B", 8, 5, 1000);
    without.transactions = 10000;
    without.measuredSeconds = 10;
    runs.push_back(without);
    HtmlReportInput in;
    in.title = "e.slab";
    in.report.options.baseline = "A";
    in.report.options.candidate = "B";
    addWaits(in, runs, {"A", "B"});
    std::string html = htmlReport(in);
    EXPECT_NE(html.find("<h2>Waits</h2>"), std::string::npos);
    EXPECT_NE(html.find("<h3>B against A at 8 clients</h3>"), std::string::npos) << html;
    EXPECT_NE(html.find("<li>B waits 1.05 ms ("), std::string::npos) << html;
    EXPECT_NE(html.find("<td data-label=\"Wait event\">LWLock:WALInsert</td><td data-label=\"A ms/tx\">0.0000</td>"),
              std::string::npos)
        << html;
    EXPECT_NE(html.find("<li>B at 8 clients: 1 run without waits (no waits recorded"), std::string::npos) << html;

    HtmlReportInput one;
    one.title = "e.slab";
    addWaits(one, runs, {"A"});
    html = htmlReport(one);
    EXPECT_NE(html.find("<h3>A at 8 clients, 4 runs</h3>"), std::string::npos) << html;
    EXPECT_NE(html.find("<td>CPU</td><td>3.00</td><td>100.0%</td><td>3.0000</td>"), std::string::npos) << html;

    HtmlReportInput none;
    none.title = "e.slab";
    addWaits(none, {without}, {"B"});
    html = htmlReport(none);
    EXPECT_NE(html.find("<p>No run recorded where its sessions waited:</p>\n<ul>\n<li>B at 8 clients: 1 run without waits"),
              std::string::npos)
        << html;
}

// The verdict's "why": at a client count judged different, the wait changes that tell it; at the
// knee (throughput per client below half the first count's), where the sessions waited.
TEST(WaitReport, TheVerdictSaysWhyAtADifferenceAndAtTheKnee) {
    std::vector<RunRecord> runs;
    for (int rep = 1; rep <= 4; ++rep) {
        uint64_t w = static_cast<uint64_t>(rep);
        runs.push_back(runWithWaits("A", rep, 10000 + 10 * w, {{"CPU", 100}}, 1));
        runs.push_back(runWithWaits("B", rep, 10000 + 10 * w, {{"CPU", 100}}, 1));
        runs.push_back(runWithWaits("A", rep, 20000 + 10 * w, {{"CPU", 300 + w}, {"Lock:transactionid", 400}}));
        runs.push_back(runWithWaits("B", rep, 14000 + 10 * w, {{"CPU", 300 + w}, {"Lock:transactionid", 400}, {"LWLock:WALInsert", 100 + 2 * w}}));
    }
    ReportOptions o;
    o.baseline = "A";
    o.candidate = "B";
    StatsReport r = buildStatsReport(runs, {"A", "B"}, o, "e.slab");
    ASSERT_TRUE(r.verdict);
    std::string all;
    for (const auto& line : r.why) all += line + "\n";
    EXPECT_NE(all.find("B waits "), std::string::npos) << all;
    EXPECT_NE(all.find("more per transaction on LWLock:WALInsert than A at 8 clients"), std::string::npos) << all;
    // 1 client: 1,000 tps per client; 8 clients: 250 (A) and 175 (B) per client.
    EXPECT_NE(all.find("A stops scaling at 8 clients (tps per client below half of that at 1 client): its sessions wait "
                       "most on Lock:transactionid 4.00 sessions (57%)"),
              std::string::npos)
        << all;
    EXPECT_NE(reportText(r).find("Why (where the sessions waited and, where profiled, where the server's CPU went; report --waits and --profile show each point):"), std::string::npos);

    // Without waits, said as missing.
    std::vector<RunRecord> bare;
    for (auto run : runs) {
        run.detail = nlohmann::json::object();
        bare.push_back(run);
    }
    StatsReport none = buildStatsReport(bare, {"A", "B"}, o, "e.slab");
    all.clear();
    for (const auto& line : none.why) all += line + "\n";
    EXPECT_NE(all.find("at 8 clients: no waits recorded on both sides to say why"), std::string::npos) << all;
    EXPECT_NE(all.find("A stops scaling at 8 clients (tps per client below half of that at 1 client): no waits recorded there"),
              std::string::npos)
        << all;
}
