// Reports as data: the statistics computed once (buildStatsReport) and written by the console,
// CSV and HTML renderers; the experiment overview the window and the HTML report show.
#include "server/EmbeddedServer.h"
#include "stats/Report.h"
#include "report/ReportText.h"
#include "store/CombinedRuns.h"
#include "report/Export.h"
#include "store/ExperimentOverview.h"
#include "report/HtmlReport.h"
#include "report/ReportCsv.h"

#include "ErrorOf.h"
#include "RunRecords.h"
#include "util/TempDir.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace scalelab;
using test::errorOf;

namespace {

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// CSV records end with CRLF (RFC 4180).
std::string firstLine(const std::string& text) { return text.substr(0, text.find("\r\n")); }

using test::completedRun;
RunRecord run(const std::string& series, int clients, int rep, double tps) { return completedRun(series, clients, rep, tps); }

// A: rises to a peak at 4 clients; B: 20% below A everywhere, little noise; one run of B at 16.
std::vector<RunRecord> experimentRuns() {
    std::vector<RunRecord> runs;
    const double a[] = {1000, 1900, 3000, 2600};
    const int clients[] = {1, 2, 4, 8};
    for (int rep = 1; rep <= 3; ++rep)
        for (int i = 0; i < 4; ++i) {
            double wiggle = 1.0 + 0.01 * (rep - 2);
            runs.push_back(run("A", clients[i], rep, a[i] * wiggle));
            runs.push_back(run("B", clients[i], rep, 0.8 * a[i] * wiggle));
        }
    runs.push_back(run("B", 16, 1, 1500));
    return runs;
}

const std::vector<std::string> kOrder{"A", "B"};

ReportOptions everything() {
    ReportOptions o;
    o.baseline = "A";
    o.candidate = "B";
    o.usl = true;
    o.peak = true;
    o.peakBaseline = "A";
    return o;
}

} // namespace

TEST(StatsReport, HoldsPointsComparisonFitsAndPeaks) {
    StatsReport r = buildStatsReport(experimentRuns(), kOrder, everything(), "e.slab");
    ASSERT_EQ(r.points.size(), 9u);
    EXPECT_EQ(r.points[0].series, "A");
    EXPECT_EQ(r.points[0].clients, 1);
    EXPECT_EQ(r.points[8].series, "B");
    EXPECT_EQ(r.points[8].clients, 16);
    EXPECT_FALSE(r.points[8].summary.ciLow) << "one run has no interval";

    ASSERT_TRUE(r.verdict);
    ASSERT_EQ(r.verdict->points.size(), 4u) << "only the client counts both series have";
    for (const auto& c : r.verdict->points) {
        EXPECT_NEAR(*c.comparison.percentChange, -20.0, 1e-9);
        EXPECT_EQ(c.comparison.verdict, "distinguishable");
    }
    ASSERT_EQ(r.usl.size(), 2u);
    EXPECT_EQ(r.usl[0].series, "A");
    EXPECT_TRUE(r.usl[0].fit.has_value()) << r.usl[0].error;
    ASSERT_EQ(r.peaks.size(), 2u);
    EXPECT_EQ(r.peaks[0].clients, 4);
    EXPECT_NEAR(*r.peaks[1].percentOfBaseline, 80.0, 1e-9);
}

TEST(StatsReport, RefusesWhatItCannotReport) {
    ReportOptions o = everything();
    o.candidate = "C";
    EXPECT_EQ(errorOf([&] { buildStatsReport(experimentRuns(), kOrder, o, "e.slab"); }),
              "--compare: no series named 'C' in e.slab (it has: A, B)");
    o = everything();
    o.metric = RunMetric::LatencyP95;
    EXPECT_EQ(errorOf([&] { buildStatsReport(experimentRuns(), kOrder, o, "e.slab"); }),
              "--usl fits throughput (tps, logical_reads); latency_p95 is not one, and the law does not describe it");
    EXPECT_EQ(errorOf([&] { buildStatsReport({}, kOrder, ReportOptions{}, "e.slab"); }),
              "e.slab has no completed runs with tps");
}

TEST(StatsReport, ConsoleRendererPrintsEachPartAndMissingValuesAsDashes) {
    std::string text = reportText(buildStatsReport(experimentRuns(), kOrder, everything(), "e.slab"));
    EXPECT_NE(text.find("tps (transactions/s), mean with 95% confidence interval"), std::string::npos);
    EXPECT_NE(text.find("B vs A (Welch's t-test, tps): Bonferroni over 4 client counts"), std::string::npos);
    EXPECT_NE(text.find("Universal Scalability Law fits (tps)"), std::string::npos);
    EXPECT_NE(text.find("Peak tps per series, as % of A's peak"), std::string::npos);
    // B at 16 clients: one run, so no sd and no interval, shown as "-", never 0.
    EXPECT_NE(text.find("B                         16   1      1500.00          -            -            -\n"),
              std::string::npos)
        << text;
}

// report --format markdown (issue 37): the console's figures as GitHub tables, a series label
// that would break a table or start emphasis written as text, missing values as "-", the
// verdict's sentences as a list, the experiment's summary above.
TEST(StatsReport, MarkdownRendererWritesTablesAUserLabelCannotBreak) {
    std::vector<RunRecord> runs = experimentRuns();
    for (auto& r : runs)
        if (r.series == "B") r.series = "B|*patch*";
    ReportOptions o = everything();
    o.candidate = "B|*patch*";
    StatsReport report = buildStatsReport(runs, {"A", "B|*patch*"}, o, "e.slab");
    std::string md = reportMarkdown(report, {"Machine: db1, Xeon", "Runs: 25 counted of 25"});
    EXPECT_EQ(md.find("## Experiment\n\n- **Machine:** db1, Xeon\n- **Runs:** 25 counted of 25\n\n## tps by clients\n"), 0u) << md;
    EXPECT_NE(md.find("| series | clients | n | mean | sd | ci low | ci high |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n"),
              std::string::npos) << md;
    // B at 16 clients: one run, no sd, no interval: "-", never 0; the label's pipe and stars are text.
    EXPECT_NE(md.find("| B\\|\\*patch\\* | 16 | 1 | 1500.00 | - | - | - |\n"), std::string::npos) << md;
    EXPECT_NE(md.find("## B\\|\\*patch\\* vs A\n\nWelch's t-test, tps, Bonferroni over 4 client counts"), std::string::npos) << md;
    EXPECT_NE(md.find("| 4 | 3000.00 | 2400.00 | -20.00% |"), std::string::npos) << md;
    EXPECT_NE(md.find("**Verdict:**\n\n- "), std::string::npos) << md;
    EXPECT_NE(md.find("## Universal Scalability Law (tps)"), std::string::npos) << md;
    EXPECT_NE(md.find("## Peak tps per series, as % of A's peak"), std::string::npos) << md;
    // Every table row has as many cells as its header.
    std::istringstream lines(md);
    size_t cells = 0;
    for (std::string line; std::getline(lines, line);) {
        if (line.empty() || line[0] != '|') {
            cells = 0;
            continue;
        }
        size_t n = 0;
        for (size_t i = 0; i < line.size(); ++i) n += line[i] == '|' && (i == 0 || line[i - 1] != '\\');
        if (cells == 0) cells = n;
        EXPECT_EQ(n, cells) << line;
    }
    // Without a summary, no Experiment section; the text renderer's tables are unchanged by it.
    EXPECT_EQ(reportMarkdown(report).find("## tps by clients"), 0u);
}

TEST(ExperimentOverview, TheSummaryToPasteSaysMachineServerWorkloadAndRunsOnce) {
    nlohmann::json machine = {{"hostname", "db1"}, {"cpu_model", "Xeon"}, {"topology", "2 packages, 12 cores, 24 PUs"},
                              {"smt_available", true}, {"smt_active", false}, {"kernel", "Linux 6.1"}, {"memory_bytes", 68719476736.0}};
    nlohmann::json server = {{"version", "PostgreSQL 15.18 (Debian 15.18-0+deb12u1) on x86_64-pc-linux-gnu, compiled by gcc"},
                             {"non_default_settings", {{"shared_buffers", {{"value", "16384"}, {"unit", "8kB"}}},
                                                       {"lc_time", {{"value", "C"}, {"unit", ""}}},
                                                       {"port", {{"value", "5433"}, {"unit", ""}}}}}};
    nlohmann::json scripts = {{"scripts", {{{"name", "tpcb-like"}, {"weight", 1}}, {{"name", "select-only"}, {"weight", 9}}}}};
    nlohmann::json session = {{"machine", machine}, {"server", server}, {"scripts", scripts}};
    std::vector<RunRecord> runs = experimentRuns();
    for (auto& r : runs) r.measuredSeconds = 60;
    runs[1].measuredSeconds = 30;
    runs[0].excluded = true;
    auto summary = experimentSummary({session, session}, runs);  // a resumed sweep: said once
    ASSERT_EQ(summary.size(), 4u) << ::testing::PrintToString(summary);
    EXPECT_EQ(summary[0], "Machine: db1, Xeon, 2 packages, 12 cores, 24 PUs, SMT off, Linux 6.1, 64.0 GiB memory");
    EXPECT_EQ(summary[1], "PostgreSQL: PostgreSQL 15.18 (Debian 15.18-0+deb12u1); non-default: shared_buffers 128 MB (16384 x 8kB)");
    EXPECT_EQ(summary[2], "Workload: tpcb-like, select-only @9");
    EXPECT_EQ(summary[3], "Runs: 24 counted of 25; 60 s measured each (median, warm-up not counted); 1-3 rounds per point; "
                          "clients 1, 2, 4, 8, 16");
    EXPECT_TRUE(experimentSummary({}, {}).empty());  // nothing recorded: nothing said
}

// Issue 32.5: two runs of 100 and 9,000 tps gave a peak interval of "-7402.6 .. 13194.1"
// (negative throughput), and two runs a side a change interval of "-100.0% .. +2426713774.6%".
// The interval stops at 0 and says so; a change interval wider than tenfold is said in words.
TEST(StatsReport, IntervalsBelowZeroAreClampedAndUnboundedChangesSaidInWords) {
    std::vector<RunRecord> runs{run("A", 1, 1, 100), run("A", 1, 2, 9000), run("B", 1, 1, 5), run("B", 1, 2, 20000)};
    ReportOptions o = everything();
    o.usl = false;
    StatsReport r = buildStatsReport(runs, kOrder, o, "e.slab");
    ASSERT_EQ(r.points.size(), 2u);
    for (const auto& p : r.points) {
        EXPECT_EQ(p.summary.ciLow, std::optional<double>(0.0)) << p.series;
        EXPECT_TRUE(p.summary.ciLowClamped);
    }
    ASSERT_FALSE(r.peaks.empty());
    EXPECT_TRUE(r.peaks[0].at.ciLowClamped);
    std::string text = reportText(r);
    EXPECT_NE(text.find("0.00^"), std::string::npos) << text;
    EXPECT_NE(text.find("^: the interval reached below 0 and is clamped there"), std::string::npos) << text;
    EXPECT_EQ(text.find("-7"), std::string::npos) << text;
    EXPECT_NE(text.find("too few runs to bound"), std::string::npos) << text;
    EXPECT_NE(text.find("too few runs to bound: the interval spans more than 10x"), std::string::npos) << text;
    HtmlReportInput in;
    in.title = "e";
    in.report = r;
    in.runs = runs;
    std::string html = htmlReport(in);
    EXPECT_NE(html.find("(clamped at 0)"), std::string::npos);
    EXPECT_NE(html.find("too few runs to bound"), std::string::npos);
}

TEST(StatsReport, CsvRendererWritesOneSchemaPerFileAndEmptyFieldsForMissingValues) {
    TempDir dir("scalelab-report");
    std::string out = (dir.path() / "tables").string();
    StatsReport r = buildStatsReport(experimentRuns(), kOrder, everything(), "e.slab");
    auto written = writeReportCsv(r, out);
    ASSERT_EQ(written.size(), 5u);
    std::string points = slurp(out + "/points.csv");
    EXPECT_EQ(firstLine(points), "series,clients,metric,n,mean,sd,se,confidence,ci_low,ci_high,median,min,max,ci_low_clamped");
    EXPECT_NE(points.find("\nB,16,tps,1,1500,,,0.95,,,1500,1500,1500,0\r\n"), std::string::npos) << points;
    EXPECT_EQ(firstLine(slurp(out + "/compare.csv")),
              "clients,baseline,candidate,baseline_mean,candidate_mean,difference,diff_low,diff_high,percent_change,"
              "percent_low,percent_high,p_value,paired,verdict,judged,p_adjusted,simultaneous_low,simultaneous_high,"
              "call,why,detect_pct,power_now,runs_per_side,runs_for_curve,half_width_pct,curve_half_width_pct,"
              "single_run_side,runs_for_single_side,equivalence_margin_pct,equivalence_low,equivalence_high,equivalent");
    EXPECT_EQ(firstLine(slurp(out + "/verdict.csv")), "baseline,candidate,metric,judged,confidence,sentence");
    EXPECT_EQ(firstLine(slurp(out + "/peak.csv")), "series,clients,mean,ci_low,ci_high,percent_of_baseline,ci_low_clamped");
    std::string usl = slurp(out + "/usl.csv");
    EXPECT_EQ(std::count(usl.begin(), usl.end(), '\n'), 3) << "a header and a row per series";

    // `export --csv` writes points.csv in the same layout (every metric), tidy: with the offered
    // rate of each point (empty: unthrottled) after the client count.
    auto store = ExperimentStore::create((dir.path() / "e.slab").string());
    for (const auto& run : experimentRuns()) store->saveRun(run, {});
    exportCsv(*store, (dir.path() / "export").string());
    std::string exported = firstLine(slurp((dir.path() / "export/points.csv").string()));
    EXPECT_EQ(exported, "series,clients,rate,scale," + firstLine(points).substr(std::string("series,clients,").size()));

    // Without points: the window's export, whose points.csv exportCsv wrote.
    std::string tablesOnly = (dir.path() / "tables-only").string();
    EXPECT_EQ(writeReportCsv(r, tablesOnly, false).size(), 4u);
    EXPECT_FALSE(std::filesystem::exists(tablesOnly + "/points.csv"));
}

// A series the USL cannot be fitted to keeps its row: its name, its points and why, and every
// figure empty (missing, never 0), each in its own column.
TEST(StatsReport, UslCsvRowOfASeriesWithoutAFitNamesWhyAndLeavesEveryFigureEmpty) {
    TempDir dir("scalelab-report");
    std::vector<RunRecord> runs = experimentRuns();
    runs.push_back(run("C", 1, 1, 900));
    runs.push_back(run("C", 2, 1, 1700));
    ReportOptions o = everything();
    StatsReport r = buildStatsReport(runs, {"A", "B", "C"}, o, "e.slab");
    std::string out = (dir.path() / "tables").string();
    writeReportCsv(r, out);
    std::string usl = slurp(out + "/usl.csv");
    auto at = usl.find("\r\nC,");
    ASSERT_NE(at, std::string::npos) << usl;
    std::string row = usl.substr(at + 2, usl.find("\r\n", at + 2) - at - 2);
    std::string header = firstLine(usl);
    EXPECT_EQ(header.substr(header.size() - std::string(",points,note").size()), ",points,note") << header;
    EXPECT_EQ(std::count(header.begin(), header.end(), ','), 21) << header;
    EXPECT_EQ(row.rfind("C,,,,,,,,,,,,,,,,,,,,2,", 0), 0u) << "name, 19 empty figures, then the points: " << row;
    auto fit = std::find_if(r.usl.begin(), r.usl.end(), [](const auto& u) { return u.series == "C"; });
    ASSERT_NE(fit, r.usl.end());
    ASSERT_FALSE(fit->fit);
    EXPECT_FALSE(fit->error.empty());
    EXPECT_NE(row.find(fit->error), std::string::npos) << row;
}

TEST(HtmlReport, IsOneSelfContainedFileWithEveryPartEscaped) {
    std::vector<RunRecord> runs = experimentRuns();
    for (auto& r : runs)
        if (r.series == "B") r.series = "B <script>&";
    runs[0].note = "backup <during> this run";
    runs[1].excluded = true;
    HtmlReportInput in;
    in.title = "e.slab";
    in.generatedAt = "2026-11-30T09:00:00Z";
    in.view = "tps, log2 clients axis";
    in.note = "HEAD vs \"patch\"";
    ReportOptions o = everything();
    o.candidate = "B <script>&";
    in.report = buildStatsReport(runs, {"A", "B <script>&"}, o, "e.slab");
    in.runs = runs;
    in.overview = {{"Machine", "Topology", "1 package, 2 cores"}, {"Plan", "JSON", "{\n  \"a\": 1\n}"}};
    in.charts = {{"tps", "<?xml version=\"1.0\"?>\n<svg viewBox=\"0 0 10 10\"><defs><linearGradient id=\"gradient1\"/></defs>"
                         "<rect fill=\"url(#gradient1)\"/></svg>",
                 ""},
                 {"p95", "<svg><linearGradient id=\"gradient1\"/><rect fill=\"url(#gradient1)\"/></svg>",
                  "<svg><linearGradient id=\"gradient1\"/><rect width=\"4\" fill=\"url(#gradient1)\"/></svg>"}};
    std::string html = htmlReport(in);

    EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
    for (const char* part : {"<h2>Charts</h2>", "<h2>Points</h2>", "<h2>Comparison</h2>", "<h2>Universal Scalability Law</h2>",
                             "<h2>Peaks</h2>", "<h2>Runs</h2>", "<h2>Overview</h2>"})
        EXPECT_NE(html.find(part), std::string::npos) << part;
    EXPECT_NE(html.find("<ul class=\"verdict\">\n<li>"), std::string::npos) << "the curve's verdict in sentences";
    // Nothing from outside the file, and nothing the user typed becomes markup.
    EXPECT_EQ(html.find("<script"), std::string::npos);
    EXPECT_EQ(html.find("src="), std::string::npos);
    EXPECT_EQ(html.find("<link"), std::string::npos);
    EXPECT_EQ(html.find("<?xml"), std::string::npos);
    EXPECT_NE(html.find("B &lt;script&gt;&amp;"), std::string::npos);
    EXPECT_NE(html.find("backup &lt;during&gt; this run"), std::string::npos);
    EXPECT_NE(html.find("<div class=\"note\">HEAD vs &quot;patch&quot;</div>"), std::string::npos);
    EXPECT_NE(html.find("<tr class=\"excluded\">"), std::string::npos);
    EXPECT_NE(html.find("<pre>{\n  &quot;a&quot;: 1\n}</pre>"), std::string::npos);
    // Two charts inline, each with its own ids: the page's ids stay unique.
    EXPECT_NE(html.find("id=\"chart1-gradient1\""), std::string::npos);
    EXPECT_NE(html.find("url(#chart2-gradient1)"), std::string::npos);
    EXPECT_EQ(html.find("id=\"gradient1\""), std::string::npos);
    // A chart drawn for a phone too: both inline, each shown at its width, with ids of its own.
    EXPECT_EQ(html.find("<div class=\"narrow\"><svg viewBox"), std::string::npos) << "chart 1 has no phone drawing";
    EXPECT_NE(html.find("<div class=\"wide\"><svg><linearGradient id=\"chart2-gradient1\"/>"), std::string::npos);
    EXPECT_NE(html.find("<div class=\"narrow\"><svg><linearGradient id=\"chart2n-gradient1\"/><rect width=\"4\" "
                        "fill=\"url(#chart2n-gradient1)\"/>"),
              std::string::npos);
    EXPECT_NE(html.find("@media (max-width: 640px)"), std::string::npos);
    EXPECT_NE(html.find("<meta name=\"viewport\""), std::string::npos);
    // The comparison table becomes cards on a phone: each cell carries its column's name.
    EXPECT_NE(html.find("<table class=\"cards\">\n<thead><tr><th>Clients</th><th>A mean</th>"), std::string::npos);
    EXPECT_NE(html.find("<td data-label=\"Verdict\">"), std::string::npos);
    // B at 16 clients, one run: no interval, shown as a dash.
    EXPECT_NE(html.find("<td>16</td><td>1</td><td>1500.00</td><td>&ndash;</td><td>&ndash;</td><td>&ndash;</td>"),
              std::string::npos);
}

// Why no point has statements: one reason per line, each its own sentence (joined, they read
// "...was not read)).").
TEST(HtmlReport, SaysWhyNoRunHasStatementsOnePointPerLine) {
    HtmlReportInput in;
    in.title = "e.slab";
    in.statementsMissing = {"A at 2 clients: 1 run without statements (not read).", "B at 8 clients: 2 runs without statements (reset)."};
    std::string html = htmlReport(in);
    EXPECT_NE(html.find("<p>No run recorded what the server ran:</p>\n<ul>\n<li>A at 2 clients: 1 run without statements "
                        "(not read).</li>\n<li>B at 8 clients: 2 runs without statements (reset).</li>\n</ul>"),
              std::string::npos);
    EXPECT_EQ(html.find(").."), std::string::npos);
}

// A machine whose SMT was switched off in the kernel when the sweep began: present, not online.
TEST(ExperimentOverview, SaysSmtIsPresentWhenTheKernelHasItSwitchedOff) {
    TempDir dir("scalelab-overview");
    auto store = ExperimentStore::create((dir.path() / "e.slab").string());
    store->addProvenance({{"machine",
                           {{"topology", "1 package, 2 cores, 2 PUs online of 4 (SMT present, switched off in the kernel)"},
                            {"smt_present", true},
                            {"smt_available", false},
                            {"smt_active", false},
                            {"smt_control", "off"}}}});
    std::map<std::pair<std::string, std::string>, std::string> items;
    for (const auto& i : experimentOverview(*store)) items[{i.section, i.name}] = i.value;
    EXPECT_EQ((items[{"Machine", "SMT"}]), "present: yes, available: no, active: no, kernel control: off");
    EXPECT_EQ((items[{"Machine", "Topology"}]),
              "1 package, 2 cores, 2 PUs online of 4 (SMT present, switched off in the kernel)");
}

TEST(ExperimentOverview, DescribesTheFileTheMachineTheServerAndOnlySessionsThatDiffer) {
    TempDir dir("scalelab-overview");
    std::string path = (dir.path() / "e.slab").string();
    auto store = ExperimentStore::create(path);
    store->savePlan({{"version", 1}, {"clients", "1-8 x2"}}, 42);
    nlohmann::json machine = {{"hostname", "db1"},        {"cpu_model", "Xeon"},     {"topology", "2 packages, 12 cores, 24 PUs"},
                              {"smt_available", true},    {"smt_active", false},     {"smt_control", "off"},
                              {"kernel", "Linux 6.1"},    {"memory_bytes", 68719476736.0}, {"scalelab", "0.1.0"},
                              {"libraries", {{"libpq", "15.18"}}}};
    nlohmann::json server = {{"version", "PostgreSQL 15.18"},
                             {"non_default_settings", {{"shared_buffers", {{"value", "16384"}, {"unit", "8kB"}, {"source", "configuration file"}}},
                                                       {"work_mem", {{"value", "65536"}, {"unit", "kB"}, {"source", "configuration file"}}},
                                                       {"checkpoint_timeout", {{"value", "900"}, {"unit", "s"}, {"source", "configuration file"}}},
                                                       {"listen_addresses", {{"value", ""}, {"unit", ""}, {"source", "command line"}}}}}};
    store->addProvenance({{"machine", machine}, {"server", server}});
    store->addProvenance({{"machine", machine}, {"server", server}});  // a resume on the same box
    nlohmann::json changed = server;
    changed["version"] = "PostgreSQL 16.4";
    store->addProvenance({{"machine", machine}, {"server", changed}});
    store->saveRun(run("A", 1, 1, 100), {});
    RunRecord failed = run("A", 2, 1, 0);
    failed.status = RunStatus::Failed;
    store->saveRun(failed, {});
    store->setNote("why we measured");

    std::map<std::pair<std::string, std::string>, std::string> items;
    std::set<std::string> sections;
    for (const auto& i : experimentOverview(*store)) {
        items[{i.section, i.name}] = i.value;
        sections.insert(i.section);
    }
    EXPECT_EQ((items[{"Experiment", "Runs"}]), "2 runs, 1 completed, 1 failed; 1 counted, 0 excluded");
    EXPECT_EQ((items[{"Experiment", "Note"}]), "why we measured");
    EXPECT_EQ((items[{"Machine", "SMT"}]), "available: yes, active: no, kernel control: off");
    EXPECT_EQ((items[{"Machine", "Memory"}]), "64.0 GiB");
    // In its unit as a reader thinks of it (issue 32.11: it said "16384 (unit 8kB)").
    EXPECT_EQ((items[{"PostgreSQL", "shared_buffers"}]), "128 MB (16384 x 8kB), from configuration file");
    EXPECT_EQ((items[{"PostgreSQL", "listen_addresses"}]), "'' (empty), from command line");
    EXPECT_EQ((items[{"PostgreSQL", "work_mem"}]), "64 MB, from configuration file");
    EXPECT_EQ((items[{"PostgreSQL", "checkpoint_timeout"}]), "900 s, from configuration file");
    EXPECT_EQ((items[{"ScaleLab", "libpq"}]), "15.18");
    EXPECT_EQ((items[{"Plan", "Seed"}]), "42");
    // Session 2 repeats session 1 and is not shown; session 3's server differs, its machine does not.
    int sessionSections = 0;
    for (const auto& s : sections) sessionSections += s.find("(session") != std::string::npos;
    EXPECT_EQ(sessionSections, 1);
    bool newServer = false;
    for (const auto& [key, value] : items)
        if (key.first.rfind("PostgreSQL (session 3, ", 0) == 0 && key.second == "Version") newServer = value == "PostgreSQL 16.4";
    EXPECT_TRUE(newServer);
}

TEST(CombinedRuns, AddsTheSeriesOfOtherFilesUnderTheirOwnNames) {
    TempDir dir("scalelab-combined");
    std::string head = (dir.path() / "head.slab").string(), patch = (dir.path() / "patch.slab").string();
    {
        auto a = ExperimentStore::create(head);
        a->saveRun(run("A", 1, 1, 100), {});
        a->saveRun(run("A", 2, 1, 190), {});
        auto b = ExperimentStore::create(patch);
        b->saveRun(run("A", 1, 1, 120), {});  // the same label in the other file
        b->saveRun(run("B", 1, 1, 130), {});
    }
    CombinedRuns c = combineExperiments(head, {patch});
    EXPECT_EQ(c.order, (std::vector<std::string>{"A", "A [patch.slab]", "B [patch.slab]"}));
    ASSERT_EQ(c.runs.size(), 4u);
    EXPECT_EQ(c.runs[2].series, "A [patch.slab]");
    EXPECT_EQ(c.runs[2].source.rfind("added from " + patch, 0), 0u);
    StatsReport r = buildStatsReport(c.runs, c.order, [] {
        ReportOptions o;
        o.baseline = "A";
        o.candidate = "A [patch.slab]";
        return o;
    }(), head);
    ASSERT_EQ(r.verdict->points.size(), 1u);
    EXPECT_NEAR(*r.verdict->points[0].comparison.percentChange, 20.0, 1e-9);

    EXPECT_EQ(errorOf([&] { combineExperiments(head, {head}); }), head + " is the experiment itself: its series are shown already");
    EXPECT_EQ(errorOf([&] { combineExperiments(head, {patch, patch}); }),
              patch + ": its series 'A' is shown already as 'A [patch.slab]' (the same file, or one with the same name, was "
                      "added before)");
    EXPECT_EQ(errorOf([&] { combineExperiments(head, {(dir.path() / "none.slab").string()}); }),
              "no experiment file " + (dir.path() / "none.slab").string());
    // Nothing was written into either file.
    EXPECT_EQ(ExperimentStore::open(head, true)->seriesLabels(), std::vector<std::string>{"A"});
    EXPECT_EQ(ExperimentStore::open(patch, true)->runs().size(), 2u);
}

namespace {

RunRecord rated(const std::string& series, int clients, double rate, int rep, double p99) {
    RunRecord r = run(series, clients, rep, rate * 0.99);
    r.detail["rate"] = rate;
    r.latency.p99Ms = p99;
    return r;
}

// Two series at 8 clients over three offered rates: B's p99 is 50% above A's at 400 tps only.
std::vector<RunRecord> rateRuns() {
    std::vector<RunRecord> runs;
    for (int rep = 1; rep <= 4; ++rep)
        for (double rate : {100.0, 200.0, 400.0}) {
            double wiggle = 1.0 + 0.01 * (rep - 2);
            runs.push_back(rated("A", 8, rate, rep, 2.0 * wiggle));
            runs.push_back(rated("B", 8, rate, rep, (rate == 400 ? 3.0 : 2.0) * wiggle * (1 + 0.002 * rep)));
        }
    return runs;
}

} // namespace

// Issue 35: a sweep over offered rates is judged per rate, and every table says so.
TEST(Report, PointsAndVerdictsOnTheRateAxis) {
    std::vector<RunRecord> runs = rateRuns();
    EXPECT_EQ(naturalAxis(runs), PointAxis::Rate);
    ReportOptions o;
    o.axis = PointAxis::Rate;
    o.metric = RunMetric::LatencyP99;
    o.baseline = "A", o.candidate = "B";
    StatsReport r = buildStatsReport(runs, kOrder, o, "x.scalelab");
    ASSERT_EQ(r.points.size(), 6u);
    EXPECT_EQ(r.points[0].series, "A");
    EXPECT_EQ(r.points[0].clients, 100);
    EXPECT_EQ(r.points[2].clients, 400);
    EXPECT_EQ(r.points[0].summary.n, 4);
    ASSERT_TRUE(r.verdict);
    ASSERT_EQ(r.verdict->points.size(), 3u);
    EXPECT_EQ(r.verdict->points[2].call, PointCall::Higher);
    EXPECT_EQ(r.verdict->points[0].call, PointCall::NoDifference);
    std::string said;
    for (const auto& s : r.verdict->summary) said += s + "\n";
    EXPECT_NE(said.find("B has higher latency_p99 than A by 50.8% (45.8% .. 55.9%) at 400 tps offered"), std::string::npos) << said;
    EXPECT_NE(said.find("Up to 200 tps offered no difference"), std::string::npos) << said;
    EXPECT_NE(said.find("Bonferroni correction over 3 rates"), std::string::npos) << said;
    EXPECT_EQ(said.find("client"), std::string::npos) << said;
    std::string text = reportText(r);
    EXPECT_NE(text.find("series                  rate"), std::string::npos) << text;
    TempDir dir("scalelab-rate-axis");
    writeReportCsv(r, dir.path().string());
    EXPECT_EQ(firstLine(slurp((dir.path() / "points.csv").string())).rfind("series,rate,", 0), 0u);
    EXPECT_EQ(firstLine(slurp((dir.path() / "compare.csv").string())).rfind("rate,baseline,", 0), 0u);

    // USL and peaks are of client axes.
    o.usl = true;
    EXPECT_NE(errorOf([&] { buildStatsReport(runs, kOrder, o, "x"); }).find("--usl and --peak describe scaling with clients"),
              std::string::npos);
}

TEST(Report, ACurveForEachValueOffTheAxis) {
    std::vector<RunRecord> runs = rateRuns();
    // On the client axis the three rates are three curves of each series, the rates ascending.
    AxisRuns byClients = runsOnAxis(runs, kOrder, PointAxis::Clients);
    EXPECT_EQ(byClients.curves, (std::vector<std::string>{"A, 100 tps offered", "A, 200 tps offered", "A, 400 tps offered",
                                                          "B, 100 tps offered", "B, 200 tps offered", "B, 400 tps offered"}));
    EXPECT_EQ(byClients.runs[0].clients, 8);
    // An unthrottled run is a curve of its own there, and has no x on the rate axis.
    runs.push_back(run("A", 8, 1, 900));
    EXPECT_EQ(runsOnAxis(runs, kOrder, PointAxis::Clients).curves[0], "A, unthrottled");
    EXPECT_EQ(runsOnAxis(runs, kOrder, PointAxis::Rate).runs.size(), runs.size() - 1);
    // Two client counts on the rate axis: a curve per series and client count.
    runs.push_back(rated("A", 16, 100, 1, 2));
    EXPECT_EQ(runsOnAxis(runs, kOrder, PointAxis::Rate).curves,
              (std::vector<std::string>{"A, 8 clients", "A, 16 clients", "B, 8 clients"}));
    EXPECT_EQ(naturalAxis(runs), PointAxis::Clients) << "several client counts: clients stay the x";
    // One rate and one client count: the experiment's own series names.
    std::vector<RunRecord> plain = experimentRuns();
    EXPECT_EQ(runsOnAxis(plain, kOrder, PointAxis::Clients).curves, kOrder);
    EXPECT_EQ(naturalAxis(plain), PointAxis::Clients);
    EXPECT_EQ(errorOf([&] { runsOnAxis(plain, kOrder, PointAxis::Rate); }),
              "no run has an offered rate (-R, workload.rate): there is no rate axis to show");
    plain[0].detail["rate"] = 0.5;
    EXPECT_NE(errorOf([&] { runsOnAxis(plain, kOrder, PointAxis::Rate); }).find("the rate axis takes whole transactions per second"),
              std::string::npos);
}

// Issue 35: a sweep over data scales is on the scale axis; a curve names each value off its axis
// that varies.
TEST(Report, TheScaleAxisAndCurvesOfEveryValueOffIt) {
    std::vector<RunRecord> runs;
    for (int rep = 1; rep <= 3; ++rep)
        for (int64_t scale : {1, 10, 100})
            for (const char* series : {"A", "B"}) {
                RunRecord r = run(series, 8, rep, (series[0] == 'B' && scale == 100 ? 500.0 : 1000.0) * (1 + 0.01 * rep));
                r.detail["data_scale"] = scale;
                runs.push_back(r);
            }
    EXPECT_EQ(naturalAxis(runs), PointAxis::Scale);
    ReportOptions o;
    o.axis = PointAxis::Scale;
    o.baseline = "A", o.candidate = "B";
    StatsReport r = buildStatsReport(runs, kOrder, o, "x.scalelab");
    ASSERT_EQ(r.points.size(), 6u);
    EXPECT_EQ(r.points[2].clients, 100);
    std::string said;
    for (const auto& s : r.verdict->summary) said += s + "\n";
    EXPECT_NE(said.find("B is slower than A by 50.0%"), std::string::npos) << said;
    EXPECT_NE(said.find("at scale 100"), std::string::npos) << said;
    EXPECT_NE(said.find("Bonferroni correction over 3 scales"), std::string::npos) << said;
    EXPECT_NE(reportText(r).find("series                 scale"), std::string::npos) << reportText(r);
    // Off the scale axis, on the client axis: a curve per series and scale.
    EXPECT_EQ(runsOnAxis(runs, kOrder, PointAxis::Clients).curves,
              (std::vector<std::string>{"A, scale 1", "A, scale 10", "A, scale 100", "B, scale 1", "B, scale 10", "B, scale 100"}));
    // Rates too: both values off the axis name a curve.
    for (auto& run : runs) run.detail["rate"] = run.repetition == 1 ? 100 : 200;
    AxisRuns both = runsOnAxis(runs, kOrder, PointAxis::Clients);
    EXPECT_EQ(both.curves.size(), 12u);
    EXPECT_EQ(both.curves[0], "A, 100 tps offered, scale 1");
    EXPECT_EQ(runsOnAxis(runs, kOrder, PointAxis::Scale).curves[0], "A, 100 tps offered");
    EXPECT_EQ(errorOf([&] { runsOnAxis(experimentRuns(), kOrder, PointAxis::Scale); }),
              "no run has a recorded data scale: there is no scale axis to show");
}

// Issue 61.13: the comparison's column headers cut a series' name to 12 characters ("half the
// cor"); each column is now as wide as its name, and its numbers line up under it.
TEST(StatsReport, TheComparisonTableNamesEachSeriesWhole) {
    std::vector<RunRecord> runs;
    for (const auto& r : experimentRuns()) {
        RunRecord renamed = r;
        renamed.series = r.series == "A" ? "all cores (cores:2)" : "half the cores (cores:1)";
        runs.push_back(renamed);
    }
    ReportOptions o = everything();
    o.baseline = "all cores (cores:2)";
    o.candidate = "half the cores (cores:1)";
    o.peakBaseline = o.baseline;
    std::string text = reportText(buildStatsReport(runs, {o.baseline, o.candidate}, o, "e.slab"));
    size_t header = text.find("clients all cores (cores:2) half the cores (cores:1)");
    ASSERT_NE(header, std::string::npos) << text;
    std::string row = text.substr(text.find('\n', header) + 1, 60);
    EXPECT_EQ(row.rfind("      1             1000.00                   800.00", 0), 0u) << row;
}
