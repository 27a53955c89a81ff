// Where the server's CPU goes (issue 62): perf script's text folded into stacks rooted at each
// process's kind, stored compressed and read back (and damage said), a point's rounds per 1,000
// transactions, two series compared function by function, the flame graphs' layout, colours and
// SVG, and the folded files.
#include "RunRecords.h"

#include "metrics/CpuProfile.h"
#include "report/FlameGraph.h"
#include "report/HtmlReport.h"
#include "report/ProfileExport.h"
#include "report/ProfileText.h"
#include "report/ReportText.h"
#include "stats/Report.h"
#include "stats/ProfileReport.h"
#include "util/Error.h"
#include "util/TempDir.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

using namespace scalelab;

namespace {

// Two samples of `perf script -F pid,ip,sym,dso` as perf prints them (pid line with a trailing
// space, frames innermost first, a blank line after each).
const char* kPerfScript =
    "27722 \n"
    "\tffffffff81e74330 sock_recvmsg ([kernel.kallsyms])\n"
    "\t          10a929 __libc_recv (/usr/lib/x86_64-linux-gnu/libc.so.6)\n"
    "\t          34b407 [unknown] (/usr/lib/postgresql/15/bin/postgres)\n"
    "\t          472fd1 PostgresMain (/usr/lib/postgresql/15/bin/postgres)\n"
    "\n"
    "27690 \n"
    "\t          45e772 pthread_rwlock_unlock@@GLIBC_2.34 (/usr/lib/x86_64-linux-gnu/libc.so.6)\n"
    "\t          45c950 llvm::foo(int, char) (/usr/lib/libLLVM.so)\n"
    "\t               0 [unknown] ([unknown])\n"
    "\n"
    "  722 \n"  // pids under 10000 are padded to five places
    "\tffffffff81e74330 sock_recvmsg ([kernel.kallsyms])\n"
    "\t          10a929 __libc_recv (/usr/lib/x86_64-linux-gnu/libc.so.6)\n"
    "\t          34b407 [unknown] (/usr/lib/postgresql/15/bin/postgres)\n"
    "\t          472fd1 PostgresMain (/usr/lib/postgresql/15/bin/postgres)\n";

RunRecord runWithProfile(const std::string& series, int repetition, uint64_t transactions,
                         const std::map<std::string, uint64_t>& stacks, int clients = 8) {
    return test::profiledRun(series, repetition, transactions, stacks, clients);
}

} // namespace

TEST(CpuProfile, PerfScriptFoldsIntoStacksRootedAtTheProcessKind) {
    auto folded = foldPerfScript(kPerfScript, {{27722, "client backend"}, {722, "client backend"}});
    ASSERT_EQ(folded.size(), 2u) << foldedText(folded);
    // Outermost first; kernel frames marked; a frame without a symbol is its file; the symbol's
    // version dropped; spaces inside a C++ name do not end the stack.
    EXPECT_EQ(folded["client backend;PostgresMain;[postgres];__libc_recv;sock_recvmsg_[k]"], 2u);
    EXPECT_EQ(folded["postgres;[unknown];llvm::foo(int,_char);pthread_rwlock_unlock"], 1u) << foldedText(folded);
}

TEST(CpuProfile, TextThatIsNotPerfScriptIsRefusedWithItsLine) {
    try {
        foldPerfScript("27722 \n\tnot a frame\n", {});
        FAIL() << "accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
    }
    EXPECT_THROW(foldPerfScript("\tffff sym (dso)\n", {}), Error);  // a frame before its pid
    EXPECT_THROW(foldPerfScript("postgres 27722 123.4: cpu-clock:\n", {}), Error);
}

TEST(CpuProfile, ProcessTitlesNameTheKind) {
    EXPECT_EQ(postgresProcessKind(std::string("/usr/lib/postgresql/15/bin/postgres\0-D\0/tmp/d", 44)), "postmaster");
    EXPECT_EQ(postgresProcessKind("postgres: walwriter "), "walwriter");
    EXPECT_EQ(postgresProcessKind("postgres: main: checkpointer "), "checkpointer");
    EXPECT_EQ(postgresProcessKind("postgres: autovacuum worker bench"), "autovacuum worker");
    EXPECT_EQ(postgresProcessKind("postgres: bench bench [local] idle"), "client backend");
    EXPECT_EQ(postgresProcessKind("postgres: parallel worker for PID 4242"), "parallel worker");
    // A user named like a process kind is still a client.
    EXPECT_EQ(postgresProcessKind("postgres: walwriter bench [local] SELECT"), "client backend");
    EXPECT_EQ(postgresProcessKind("postgres: main: bench bench [local] idle"), "client backend");
}

TEST(CpuProfile, StoredCompressedAndReadBackWhole) {
    CpuProfile p;
    p.source = "perf record -F 99 -e cpu-clock -g";
    p.hz = 99;
    p.seconds = 4.5;
    for (int i = 0; i < 500; ++i) p.folded["client backend;main;PostgresMain;f" + std::to_string(i)] = 1 + i % 7;
    for (const auto& [s, n] : p.folded) p.samples += n;
    nlohmann::json j = toJson(p);
    EXPECT_LT(j["folded_zlib"].get<std::string>().size(), foldedText(p.folded).size() / 4);  // compressed
    CpuProfile back = cpuProfileFromJson(nlohmann::json::parse(j.dump()));
    EXPECT_EQ(back.folded, p.folded);
    EXPECT_EQ(back.samples, p.samples);
    EXPECT_EQ(back.source, p.source);
    EXPECT_DOUBLE_EQ(back.hz, 99);

    CpuProfile missing;
    missing.unavailable = "perf is not installed";
    EXPECT_EQ(cpuProfileFromJson(toJson(missing)).unavailable, "perf is not installed");
}

TEST(CpuProfile, DamagedStoredProfilesSayWhat) {
    CpuProfile p;
    p.source = "perf";
    p.folded = {{"a;b", 3}};
    p.samples = 3;
    auto damaged = [&](const std::function<void(nlohmann::json&)>& change, const std::string& said) {
        nlohmann::json j = toJson(p);
        change(j);
        try {
            cpuProfileFromJson(j);
            ADD_FAILURE() << "accepted " << j.dump();
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find(said), std::string::npos) << e.what();
        }
    };
    damaged([](nlohmann::json& j) { j["samples"] = 4; }, "the stacks hold 3");
    damaged([](nlohmann::json& j) { j["folded_zlib"] = "!!!"; }, "not base64");
    damaged([](nlohmann::json& j) { j["folded_zlib"] = "AAAA"; }, "damaged");
    damaged([](nlohmann::json& j) { j["folded_bytes"] = 1e12; }, "larger than any profile");
    damaged([](nlohmann::json& j) { j.erase("source"); }, "cpu_profile.source");
    EXPECT_THROW(parseFoldedText("a;b 0\n"), Error);
    EXPECT_THROW(parseFoldedText("a;b\n"), Error);
    EXPECT_EQ(parseFoldedText("a;b 2\na;c 1\na;b 1\n").at("a;b"), 3u);
}

TEST(ProfileReport, SelfTimePerThousandTransactionsRoundsMerged) {
    // Round 1: 100 samples over 10,000 transactions; round 2: 300 over 10,000. Merged: 400 over
    // 20,000, 20 per 1,000 transactions, of which "hash" ends 3 of 4.
    auto points = pointProfiles({runWithProfile("A", 1, 10000, {{"client backend;main;exec;hash", 75}, {"client backend;main;exec", 25}}),
                                 runWithProfile("A", 2, 10000, {{"client backend;main;exec;hash", 225}, {"client backend;main;exec", 75}})},
                                {"A"});
    ASSERT_EQ(points.size(), 1u);
    ASSERT_EQ(points[0].runs.size(), 2u);
    EXPECT_EQ(points[0].samples(), 400u);
    auto top = topFunctions(points[0]);
    ASSERT_EQ(top.size(), 2u);
    EXPECT_EQ(top[0].function, "hash");
    EXPECT_DOUBLE_EQ(top[0].selfPerKTx, 15.0);
    EXPECT_DOUBLE_EQ(top[0].selfSharePct, 75.0);
    EXPECT_EQ(top[1].function, "exec");
    EXPECT_DOUBLE_EQ(top[1].selfPerKTx, 5.0);
    EXPECT_DOUBLE_EQ(top[1].totalPerKTx, 20.0);
}

TEST(ProfileReport, ComparisonNamesTheFunctionThatGrewPerTransaction) {
    // B does the same work per transaction and more "md5" on top, at half the throughput: per
    // transaction, only md5 changed (per second, everything would look cheaper in B).
    std::vector<RunRecord> runs;
    for (int round = 1; round <= 4; ++round) {
        uint64_t jitter = static_cast<uint64_t>(round % 2);
        runs.push_back(runWithProfile("A", round, 10000, {{"client backend;exec;scan", 100 + jitter}, {"client backend;exec;md5", 2}}));
        runs.push_back(runWithProfile("B", round, 5000, {{"client backend;exec;scan", 50 + jitter}, {"client backend;exec;md5", 200 + 3 * jitter}}));
    }
    auto points = pointProfiles(runs, {"A", "B"});
    ASSERT_EQ(points.size(), 2u);
    ProfileComparison c = compareProfiles(points[0], points[1], 0.95, false);
    EXPECT_EQ(c.judged, 2);
    EXPECT_NEAR(c.confidence, 0.975, 1e-12);  // Bonferroni over the two judged
    ASSERT_EQ(c.changes.size(), 2u);
    EXPECT_EQ(c.changes[0].function, "md5");
    EXPECT_EQ(c.changes[0].comparison.verdict, "distinguishable");
    EXPECT_GT(c.changes[0].bPerKTx, 30 * c.changes[0].aPerKTx);
    EXPECT_EQ(c.changes[1].function, "scan");
    EXPECT_NE(c.changes[1].comparison.verdict, "distinguishable");
    std::string sentence = profileChangeSentence(c, c.changes[0], "at 8 clients");
    EXPECT_EQ(sentence.rfind("B spends ", 0), 0u) << sentence;
    EXPECT_NE(sentence.find("more CPU samples per 1,000 transactions in md5 than A at 8 clients"), std::string::npos) << sentence;

    ProfileTextOptions o;
    o.baseline = "A";
    o.candidate = "B";
    std::string text = profileText(points, o);
    EXPECT_NE(text.find("Bonferroni over the 2 functions"), std::string::npos) << text;
    EXPECT_NE(text.find(sentence), std::string::npos) << text;
}

TEST(ProfileReport, RunsWithoutAProfileAreMissingWithWhy) {
    RunRecord off = test::completedRun("A", 8, 1, 100);
    RunRecord failed = test::completedRun("A", 8, 2, 100);
    CpuProfile why;
    why.unavailable = "perf record failed (exit 1): permission denied";
    failed.detail["system"]["cpu_profile"] = toJson(why);
    auto points = pointProfiles({off, failed}, {"A"});
    ASSERT_EQ(points.size(), 1u);
    EXPECT_TRUE(points[0].runs.empty());
    EXPECT_EQ(points[0].runsWithout, 2);
    ASSERT_EQ(points[0].why.size(), 2u);
    EXPECT_NE(points[0].why[0].find("cpu_profile was off"), std::string::npos);
    EXPECT_EQ(points[0].why[1], why.unavailable);
    std::string text = profileText(points, {});
    EXPECT_NE(text.find("0 runs with a CPU profile, 2 without (no CPU profile recorded"), std::string::npos) << text;
    EXPECT_THROW(compareProfiles(points[0], points[0], 0.95, false), Error);
    EXPECT_THROW(pointFlameSvg(points, PointAxis::Clients, "A", 8), Error);
    TempDir dir;
    try {
        writeFoldedFiles(points, PointAxis::Clients, (dir.path() / "f").string());
        FAIL() << "wrote files of no profile";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("permission denied"), std::string::npos) << e.what();
    }
}

TEST(FlameGraph, WidthsAreSharesAndChildrenSitOnTheirParent) {
    FlameLayout l = layoutFlame({{"k;main;a", 30}, {"k;main;b", 10}, {"k;main", 60}, {"k;tiny", 0.01}}, 0.001);
    ASSERT_EQ(l.frames.size(), 5u);  // all, k, main, a, b: tiny is under 0.1%
    EXPECT_DOUBLE_EQ(l.total, 100.01);
    EXPECT_EQ(l.depth, 3);
    const FlameFrame& a = l.frames[3];
    const FlameFrame& b = l.frames[4];
    EXPECT_EQ(a.name, "a");
    EXPECT_EQ(a.depth, 3);
    EXPECT_NEAR(a.width, 30 / 100.01, 1e-12);
    EXPECT_NEAR(b.x, a.x + a.width, 1e-12);  // siblings side by side, in name order
    EXPECT_NEAR(l.frames[2].self, 60, 1e-12);
}

TEST(FlameGraph, DifferentialIsBsShapeRedWhereMoreBlueWhereLess) {
    FlameLayout l = layoutFlameDiff({{"k;main;grew", 10}, {"k;main;shrank", 50}, {"k;main;gone", 5}},
                                    {{"k;main;grew", 60}, {"k;main;shrank", 10}});
    ASSERT_TRUE(l.differential);
    std::map<std::string, FlameFrame> byName;
    for (const auto& f : l.frames) byName[f.name] = f;
    EXPECT_FALSE(byName.count("gone"));  // no width in B
    EXPECT_DOUBLE_EQ(*byName["grew"].delta, 50);
    EXPECT_DOUBLE_EQ(*byName["shrank"].delta, -40);
    EXPECT_DOUBLE_EQ(l.maxAbsDelta, 50);  // of the functions, not the root's -5
    EXPECT_EQ(flameColour(byName["grew"], l), "rgb(255,0,0)");
    std::string blue = flameColour(byName["shrank"], l);
    EXPECT_EQ(blue.substr(blue.size() - 5), ",255)") << blue;
    EXPECT_EQ(blue.rfind("rgb(", 0), 0u);
}

TEST(FlameGraph, SvgCarriesEachFrameItsTooltipAndTheScript) {
    FlameLayout l = layoutFlame({{"client backend;main;a<b>", 30}, {"client backend;main;c", 10}});
    FlameSvgOptions o;
    o.title = "CPU profile: HEAD & co";
    o.samplesPerValue = 2;
    std::string svg = flameSvg(l, o);
    EXPECT_NE(svg.find("HEAD &amp; co"), std::string::npos);
    EXPECT_NE(svg.find("data-n=\"a&lt;b&gt;\""), std::string::npos);  // names escaped
    EXPECT_NE(svg.find("<title>a&lt;b&gt; (30 samples per 1,000 transactions, 60 samples, 75.00%)</title>"),
              std::string::npos)
        << svg.substr(0, 3000);
    EXPECT_NE(svg.find("scalelabFlame"), std::string::npos);
    EXPECT_EQ(svg.find("no samples"), std::string::npos);
    EXPECT_NE(flameSvg(layoutFlame({}), o).find("no samples"), std::string::npos);
}

TEST(ProfileExport, OneFoldedFilePerPointWithTheRoundsAdded) {
    auto points = pointProfiles({runWithProfile("HEAD/patch 1", 1, 1000, {{"k;a", 3}}),
                                 runWithProfile("HEAD/patch 1", 2, 1000, {{"k;a", 4}, {"k;b", 1}})},
                                {"HEAD/patch 1"});
    TempDir dir;
    auto files = writeFoldedFiles(points, PointAxis::Clients, (dir.path() / "folded").string());
    ASSERT_EQ(files.size(), 1u);
    EXPECT_EQ(std::filesystem::path(files[0]).filename(), "HEAD_patch-1-8-clients.folded");
    std::ifstream in(files[0]);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str(), "k;a 7\nk;b 1\n");
}

TEST(ProfileReport, TheVerdictSaysWhichFunctionsGrewAndWhereTheKneeSpendsItsCpu) {
    std::vector<RunRecord> runs;
    for (int round = 1; round <= 4; ++round) {
        uint64_t jitter = static_cast<uint64_t>(round);
        runs.push_back(runWithProfile("A", round, 10000 + 10 * jitter, {{"client backend;exec;scan", 100}}, 1));
        runs.push_back(runWithProfile("B", round, 10000 + 10 * jitter, {{"client backend;exec;scan", 100}}, 1));
        runs.push_back(runWithProfile("A", round, 20000 + 10 * jitter, {{"client backend;exec;scan", 200 + jitter}, {"client backend;exec;md5", 5}}));
        runs.push_back(runWithProfile("B", round, 14000 + 10 * jitter, {{"client backend;exec;scan", 140 + jitter}, {"client backend;exec;md5", 300 + 2 * jitter}}));
    }
    ReportOptions o;
    o.baseline = "A";
    o.candidate = "B";
    StatsReport r = buildStatsReport(runs, {"A", "B"}, o, "e.slab");
    std::string all;
    for (const auto& line : r.why) all += line + "\n";
    EXPECT_NE(all.find("B spends "), std::string::npos) << all;
    EXPECT_NE(all.find("more CPU samples per 1,000 transactions in md5 than A at 8 clients"), std::string::npos) << all;
    // 1 client: 1,000 tps per client; 8 clients: 250 (A) per client, below half.
    EXPECT_NE(all.find("A at 8 clients: its server's CPU goes most to scan 10.1 CPU samples per 1,000 transactions (98%), md5 0.25 (2%)"),
              std::string::npos)
        << all;
    EXPECT_NE(reportText(r).find("report --waits and --profile show each point"), std::string::npos);
}

TEST(ProfileReport, TheKneeIsNearestTheUslPeakWhenTheFitHasOne) {
    // X(N) = N / (1 + 0.3 (N - 1) + 0.001 N (N - 1)): the peak is at N* = sqrt(0.7 / 0.001) = 26.5,
    // nearest 32 of the counts measured; per client the curve is below half of 1 client's from 8.
    std::vector<RunRecord> runs;
    for (int n : {1, 2, 4, 8, 16, 32})
        for (int round = 1; round <= 3; ++round) {
            double x = 1000.0 * n / (1 + 0.3 * (n - 1) + 0.001 * n * (n - 1)) * (1 + 0.001 * round);
            runs.push_back(runWithProfile("A", round, static_cast<uint64_t>(x * 10), {{"client backend;exec;scan", 100}}, n));
        }
    ReportOptions o;
    StatsReport fallback = buildStatsReport(runs, {"A"}, o, "e.slab");
    ASSERT_FALSE(fallback.why.empty());
    EXPECT_EQ(fallback.why[0].rfind("A stops scaling at 8 clients (tps per client below half of that at 1 client)", 0), 0u)
        << fallback.why[0];
    o.usl = true;
    StatsReport usl = buildStatsReport(runs, {"A"}, o, "e.slab");
    ASSERT_FALSE(usl.why.empty());
    EXPECT_EQ(usl.why[0].rfind("A stops scaling at 32 clients (the USL peak, N* = 26.5, is nearest 32 clients)", 0), 0u)
        << usl.why[0];
}

TEST(ProfileReport, TheHtmlReportShowsTheChangesTheFlameGraphsAndWhatIsMissing) {
    std::vector<RunRecord> runs;
    for (int round = 1; round <= 3; ++round) {
        uint64_t jitter = static_cast<uint64_t>(round);
        runs.push_back(runWithProfile("A", round, 10000, {{"client backend;exec;scan", 100 + jitter}}));
        runs.push_back(runWithProfile("B", round, 10000, {{"client backend;exec;scan", 100 + jitter}, {"client backend;exec;md5", 90 + jitter}}));
    }
    runs.push_back(test::completedRun("A", 8, 4, 1000));  // a round without a profile
    HtmlReportInput in;
    in.report.options.baseline = "A";
    in.report.options.candidate = "B";
    addProfiles(in, runs, {"A", "B"});
    ASSERT_EQ(in.profileComparisons.size(), 1u);
    std::string html = htmlReport(in);
    size_t section = html.find("<h2>CPU profile</h2>");
    ASSERT_NE(section, std::string::npos);
    size_t table = html.find("<td data-label=\"Function\">md5</td>", section);
    size_t graph = html.find("<div class=\"flame-frame\">", section);
    ASSERT_NE(table, std::string::npos) << html.substr(section, 3000);
    ASSERT_NE(graph, std::string::npos);
    EXPECT_LT(table, graph);  // the table, then the graph: never the graph inside the table
    EXPECT_LT(html.rfind("</table>", graph), graph);
    EXPECT_GT(html.rfind("</table>", graph), table);
    EXPECT_NE(html.find("B spends ", section), std::string::npos);
    EXPECT_NE(html.find("A at 8 clients: 1 run without a CPU profile (no CPU profile recorded", section), std::string::npos);

    HtmlReportInput one;
    addProfiles(one, runs, {"A", "B"});
    ASSERT_EQ(one.topProfiles.size(), 2u);
    EXPECT_EQ(one.topProfiles[1].top.front().function, "scan");
    EXPECT_NE(htmlReport(one).find("class=\"flame\""), std::string::npos);

    HtmlReportInput none;
    addProfiles(none, {test::completedRun("A", 8, 1, 1000)}, {"A"});
    EXPECT_TRUE(none.profilesMissing.empty());  // nothing profiled: one line, not one per point
    EXPECT_NE(htmlReport(none).find("No run recorded where its server&#39;s CPU went ($.diagnostics.cpu_profile)."),
              std::string::npos);
}

TEST(ProfileReport, TheMarkdownReportSaysWhereEachSeriesSpentItsTime) {
    std::vector<RunRecord> runs;
    for (int round = 1; round <= 2; ++round) {
        runs.push_back(runWithProfile("A", round, 10000, {{"client backend;exec;scan", 100}}, 1));
        runs.push_back(runWithProfile("A", round, 10000, {{"client backend;exec;md5", 100}}, 8));
        runs.push_back(test::completedRun("B", 8, round, 1000));
    }
    StatsReport r = buildStatsReport(runs, {"A", "B"}, {}, "e.slab");
    ASSERT_EQ(r.diagnoses.size(), 1u);  // B recorded neither
    std::string md = reportMarkdown(r, {});
    EXPECT_NE(md.find("## Where the time went"), std::string::npos) << md;
    EXPECT_NE(md.find("| A | 8 clients | not sampled | md5 10 CPU samples per 1,000 transactions (100%) |"), std::string::npos)
        << md;
}
