// The Prometheus endpoint: the exposition text (both formats, escaping, counters that only grow,
// missing figures left out), the listen address, and a real HTTP GET on loopback.
#include "live/MetricsEndpoint.h"
#include "live/MetricsExposition.h"

#include "ErrorOf.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace scalelab {
namespace {

// name{labels} value, as both formats write a sample.
const std::regex kSample(R"re(^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\.)*",?)*\})? (\S+)$)re");

struct Parsed {
    std::map<std::string, double> values;  // "name{labels}" -> value
    std::set<std::string> families;        // names in # TYPE lines
    std::vector<std::string> problems;
    bool eof = false;
};

// Checks the text line by line as a scraper would; `values` keys are the whole series text.
Parsed parse(const std::string& text, bool openMetrics) {
    Parsed p;
    std::istringstream in(text);
    std::string line;
    std::set<std::string> typed;
    while (std::getline(in, line)) {
        if (p.eof) p.problems.push_back("text after # EOF: " + line);
        if (line == "# EOF") {
            p.eof = true;
            continue;
        }
        if (line.rfind("# TYPE ", 0) == 0) {
            std::string name = line.substr(7, line.find(' ', 7) - 7);
            if (!p.families.insert(name).second) p.problems.push_back("family typed twice: " + name);
            continue;
        }
        if (line.rfind("# ", 0) == 0) continue;
        std::smatch m;
        if (!std::regex_match(line, m, kSample)) {
            p.problems.push_back("not a sample: " + line);
            continue;
        }
        std::string series = line.substr(0, line.rfind(' '));
        std::string value = m[5];
        if (value == "nan" || value == "NaN" || value == "inf") p.problems.push_back("not a number: " + line);
        if (p.values.count(series)) p.problems.push_back("series twice: " + series);
        p.values[series] = std::stod(value);
        std::string name = m[1];
        std::string family = name;
        for (const char* suffix : {"_total", "_info"})
            if (openMetrics && name.size() > std::strlen(suffix) && name.compare(name.size() - std::strlen(suffix), std::string::npos, suffix) == 0 &&
                p.families.count(name.substr(0, name.size() - std::strlen(suffix))))
                family = name.substr(0, name.size() - std::strlen(suffix));
        if (!p.families.count(family)) p.problems.push_back("sample before its # TYPE: " + line);
    }
    if (openMetrics && !p.eof) p.problems.push_back("no # EOF");
    return p;
}

SweepProgress progress(const std::string& series, int clients, int round, SweepState state = SweepState::Running) {
    SweepProgress p;
    p.run = 1;
    p.total = 6;
    p.done = 0;
    p.series = series;
    p.clients = clients;
    p.repetition = round;
    p.state = state;
    p.elapsedS = 12;
    p.etaS = 60;
    p.metricsMachine = "vm (server and load generator)";
    return p;
}

LoadSample sample(uint64_t transactions, double tps, bool withSystem = false) {
    LoadSample s;
    s.startS = 1;
    s.endS = 2;
    s.transactions = transactions;
    s.tps = tps;
    s.failures = 1;
    s.latency.count = transactions;
    s.latency.meanMs = 2;
    s.latency.p50Ms = 1.5;
    s.latency.p90Ms = 3;
    s.latency.p95Ms = 4;
    s.latency.p99Ms = 8;
    s.latency.p999Ms = 20;
    if (withSystem) {
        SystemSample sys;
        sys.cpu.total.user = 60;
        sys.cpu.total.system = 20;
        sys.cpu.total.idle = 20;
        sys.loadGeneratorCpuPct = 35;
        DiskSample d;
        d.name = "vda";
        d.writeMBps = 2;
        d.awaitMs = 1.5;
        sys.disks.push_back(d);
        s.system = sys;
    }
    return s;
}

const std::string kRun1 = R"(experiment="smt",series="smt on",clients="4",round="1")";

TEST(MetricsExposition, EscapesLabelValuesAsBothFormatsRead) {
    EXPECT_EQ(escapeLabelValue(R"(a\b)"), R"(a\\b)");
    EXPECT_EQ(escapeLabelValue("say \"hi\""), "say \\\"hi\\\"");
    EXPECT_EQ(escapeLabelValue("two\nlines"), "two\\nlines");
    EXPECT_EQ(escapeLabelValue("smt on · 4 cores"), "smt on · 4 cores");  // UTF-8 passes as it is

    MetricsPublisher pub("exp");
    pub.onSample(progress("a \"quoted\\\" series\nx", 2, 1), sample(10, 100));
    std::string text = exposition(pub.snapshot(), ExpositionFormat::OpenMetrics);
    EXPECT_NE(text.find(R"(series="a \"quoted\\\" series\nx")"), std::string::npos) << text;
    Parsed p = parse(text, true);
    EXPECT_TRUE(p.problems.empty()) << p.problems.front() << "\n" << text;
}

TEST(MetricsExposition, BeforeAnyRunOnlyTheBuildAndZeroCountersAreThere) {
    MetricsPublisher pub("exp");
    std::string text = exposition(pub.snapshot(), ExpositionFormat::OpenMetrics);
    Parsed p = parse(text, true);
    ASSERT_TRUE(p.problems.empty()) << p.problems.front() << "\n" << text;
    EXPECT_EQ(p.values.at(R"(scalelab_transactions_total{experiment="exp"})"), 0);
    EXPECT_EQ(p.values.at(R"(scalelab_runs_finished_total{experiment="exp",status="failed"})"), 0);
    EXPECT_EQ(text.find("scalelab_tps"), std::string::npos) << "no run, no tps: " << text;
    EXPECT_EQ(text.rfind("# EOF\n"), text.size() - 6);
}

TEST(MetricsExposition, TheRunInProgressCarriesItsIdentityAndOnlyWhileItRuns) {
    MetricsPublisher pub("smt");
    pub.onProgress(progress("smt on", 4, 1, SweepState::Settling));
    pub.onProgress(progress("smt on", 4, 1));
    pub.onSample(progress("smt on", 4, 1), sample(1234, 1234.5, true));
    std::string text = exposition(pub.snapshot(), ExpositionFormat::OpenMetrics);
    Parsed p = parse(text, true);
    ASSERT_TRUE(p.problems.empty()) << p.problems.front() << "\n" << text;
    EXPECT_EQ(p.values.at("scalelab_tps{" + kRun1 + "}"), 1234.5);
    EXPECT_EQ(p.values.at("scalelab_latency_seconds{" + kRun1 + R"(,quantile="0.95"})"), 0.004);
    EXPECT_EQ(p.values.at("scalelab_cpu_ratio{" + kRun1 + R"(,state="user"})"), 0.6);
    EXPECT_EQ(p.values.at("scalelab_cpu_busy_ratio{" + kRun1 + "}"), 0.8);
    EXPECT_EQ(p.values.at("scalelab_process_cpu_pus{" + kRun1 + R"(,process="load_generator"})"), 0.35);
    EXPECT_EQ(p.values.at("scalelab_disk_write_bytes_per_second{" + kRun1 + R"(,device="vda"})"), 2.0 * 1024 * 1024);
    EXPECT_EQ(p.values.at("scalelab_disk_await_seconds{" + kRun1 + R"(,device="vda"})"), 0.0015);
    EXPECT_EQ(p.values.at(R"(scalelab_sweep_state{experiment="smt",state="running"})"), 1);
    EXPECT_EQ(p.values.at(R"(scalelab_sweep_state{experiment="smt",state="settling"})"), 0);
    EXPECT_EQ(p.values.at(R"(scalelab_sweep_runs{experiment="smt"})"), 6);
    EXPECT_EQ(p.values.at(R"(scalelab_sweep_eta_seconds{experiment="smt"})"), 60);
    EXPECT_EQ(p.values.at(R"x(scalelab_measured_machine_info{experiment="smt",machine="vm (server and load generator)"})x"), 1);
    // Not measured in this sample: the server's CPU, pressure, server counters. Left out, not 0.
    EXPECT_EQ(text.find("process=\"server\""), std::string::npos);
    EXPECT_EQ(text.find("scalelab_pressure_ratio"), std::string::npos);
    EXPECT_EQ(text.find("scalelab_server_commits_per_second"), std::string::npos);

    // Between runs the run's gauges are gone (a stale tps is not the current one).
    pub.onProgress(progress("smt on", 8, 1, SweepState::Settling));
    text = exposition(pub.snapshot(), ExpositionFormat::OpenMetrics);
    EXPECT_EQ(text.find("scalelab_tps{"), std::string::npos) << text;
}

// A TPROC-C run's intervals also have NOPM (issue 36); another workload's have none, not 0.
TEST(MetricsExposition, TproccRunsHaveNopmAndOthersNone) {
    MetricsPublisher pub("smt");
    SweepProgress p = progress("smt on", 4, 1);
    p.scriptSet = "tprocc";
    pub.onProgress(p);
    LoadSample s = sample(99, 99);
    s.scriptTransactions = {45, 0, 44, 4, 3, 3};
    pub.onSample(p, s);
    Parsed parsed = parse(exposition(pub.snapshot(), ExpositionFormat::OpenMetrics), true);
    ASSERT_TRUE(parsed.problems.empty()) << parsed.problems.front();
    EXPECT_EQ(parsed.values.at("scalelab_nopm{" + kRun1 + "}"), 2700);
    pub.onProgress(progress("smt on", 4, 1, SweepState::Settling));
    EXPECT_EQ(exposition(pub.snapshot(), ExpositionFormat::OpenMetrics).find("scalelab_nopm"), std::string::npos)
        << "between runs: gone with the run's other gauges";

    MetricsPublisher single("one");
    single.runStarted(4);
    single.add(s);
    EXPECT_EQ(exposition(single.snapshot(), ExpositionFormat::OpenMetrics).find("scalelab_nopm"), std::string::npos)
        << "a run of other scripts has no NOPM";
    single.runStarted(4, "tprocc");
    single.add(s);
    EXPECT_NE(exposition(single.snapshot(), ExpositionFormat::OpenMetrics).find("scalelab_nopm{"), std::string::npos);
}

TEST(MetricsExposition, CountersOnlyGrowAcrossRunsAndFinishedRunsAreCounted) {
    MetricsPublisher pub("smt");
    const std::string tx = R"(scalelab_transactions_total{experiment="smt"})";
    double last = 0;
    int round = 0;
    for (RunStatus status : {RunStatus::Completed, RunStatus::Failed, RunStatus::Completed}) {
        ++round;
        pub.onProgress(progress("smt off", 4, round));
        for (int i = 0; i < 3; ++i) {
            pub.onSample(progress("smt off", 4, round), sample(100, 100));
            Parsed p = parse(exposition(pub.snapshot(), ExpositionFormat::OpenMetrics), true);
            ASSERT_TRUE(p.problems.empty()) << p.problems.front();
            EXPECT_GT(p.values.at(tx), last) << "round " << round;
            last = p.values.at(tx);
        }
        RunRecord r;
        r.series = "smt off";
        r.clients = 4;
        r.repetition = round;
        r.status = status;
        r.measuredSeconds = status == RunStatus::Failed ? 0 : 3;
        r.tps = status == RunStatus::Failed ? std::numeric_limits<double>::quiet_NaN() : 100;
        r.latency.count = status == RunStatus::Failed ? 0 : 300;
        r.latency.p95Ms = status == RunStatus::Failed ? std::numeric_limits<double>::quiet_NaN() : 4;
        pub.onRunFinished(r);
        std::string text = exposition(pub.snapshot(), ExpositionFormat::OpenMetrics);
        Parsed p = parse(text, true);
        ASSERT_TRUE(p.problems.empty()) << p.problems.front() << "\n" << text;
        EXPECT_EQ(p.values.at(tx), last) << "a finished run takes nothing back";
        if (status == RunStatus::Failed) {  // its tps is missing: no sample, never 0 or NaN
            EXPECT_EQ(text.find("scalelab_last_run_tps{"), std::string::npos) << text;
            EXPECT_EQ(text.find("nan"), std::string::npos);
        }
    }
    Parsed p = parse(exposition(pub.snapshot(), ExpositionFormat::OpenMetrics), true);
    EXPECT_EQ(p.values.at(tx), 900);
    EXPECT_EQ(p.values.at(R"(scalelab_failures_total{experiment="smt"})"), 9);
    EXPECT_EQ(p.values.at(R"(scalelab_runs_finished_total{experiment="smt",status="completed"})"), 2);
    EXPECT_EQ(p.values.at(R"(scalelab_runs_finished_total{experiment="smt",status="failed"})"), 1);
    EXPECT_EQ(p.values.at(R"(scalelab_last_run_tps{experiment="smt",series="smt off",clients="4",round="3",status="completed"})"), 100);
}

TEST(MetricsExposition, PrometheusTextFormatNamesFamiliesBySampleAndHasNoEof) {
    MetricsPublisher pub;
    pub.runStarted(8);
    pub.add(sample(50, 50));
    std::string text = exposition(pub.snapshot(), ExpositionFormat::PrometheusText);
    Parsed p = parse(text, false);
    ASSERT_TRUE(p.problems.empty()) << p.problems.front() << "\n" << text;
    EXPECT_NE(text.find("# TYPE scalelab_transactions_total counter\n"), std::string::npos) << text;
    EXPECT_NE(text.find("# TYPE scalelab_build_info gauge\n"), std::string::npos) << text;
    EXPECT_EQ(text.find("# EOF"), std::string::npos);
    EXPECT_EQ(text.find("# UNIT"), std::string::npos);
    // A single run has no experiment, series or round: those labels are left out, not empty.
    EXPECT_EQ(p.values.at(R"(scalelab_tps{clients="8"})"), 50);
    EXPECT_EQ(p.values.at("scalelab_transactions_total"), 50);
}

TEST(MetricsExposition, FormatFollowsTheScrapersAcceptHeader) {
    // What Prometheus 2.x sends.
    EXPECT_EQ(expositionFormatFor("application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,"
                                  "text/plain;version=0.0.4;q=0.5,*/*;q=0.1"),
              ExpositionFormat::OpenMetrics);
    EXPECT_EQ(expositionFormatFor(""), ExpositionFormat::PrometheusText);  // curl
    EXPECT_EQ(expositionFormatFor("text/plain"), ExpositionFormat::PrometheusText);
}

TEST(ListenAddress, PortAloneIsLoopbackAndOthersOnlyWhenGiven) {
    ListenAddress a = parseListenAddress("9187");
    EXPECT_EQ(a.host, "127.0.0.1");
    EXPECT_EQ(a.port, 9187);
    EXPECT_TRUE(a.loopback);
    EXPECT_EQ(parseListenAddress(":9187").host, "127.0.0.1");
    a = parseListenAddress("0.0.0.0:9100");
    EXPECT_EQ(a.host, "0.0.0.0");
    EXPECT_FALSE(a.loopback);
    a = parseListenAddress("[::1]:9100");
    EXPECT_EQ(a.host, "::1");
    EXPECT_TRUE(a.loopback);
    EXPECT_TRUE(parseListenAddress("localhost:1").loopback);
    EXPECT_TRUE(parseListenAddress("127.0.0.2:1").loopback);
    EXPECT_FALSE(parseListenAddress("[::]:1").loopback);
    EXPECT_EQ(parseListenAddress("0").port, 0);
}

TEST(ListenAddress, BadInputSaysWhatAndWhere) {
    EXPECT_EQ(test::errorOf([] { parseListenAddress("abc"); }),
              "--metrics-listen abc: the port must be a number from 0 to 65535");
    EXPECT_EQ(test::errorOf([] { parseListenAddress("127.0.0.1:70000"); }),
              "--metrics-listen 127.0.0.1:70000: the port must be a number from 0 to 65535");
    EXPECT_EQ(test::errorOf([] { parseListenAddress("::1:9187"); }),
              "--metrics-listen ::1:9187: an IPv6 address is written [ADDRESS]:PORT");
    EXPECT_EQ(test::errorOf([] { parseListenAddress("127.0.0.1:"); }),
              "--metrics-listen 127.0.0.1:: the port must be a number from 0 to 65535");
    EXPECT_EQ(test::errorOf([] { parseListenAddress(""); }), "--metrics-listen: give a port (9187), or ADDRESS:PORT");
}

TEST(MetricsEndpoint, ServesTheFiguresOverHttpAndRefusesAPortInUse) {
    auto pub = std::make_shared<MetricsPublisher>("exp");
    MetricsEndpoint endpoint("127.0.0.1:0", pub);
    std::smatch m;
    std::string url = endpoint.url();
    ASSERT_TRUE(std::regex_match(url, m, std::regex(R"(http://127\.0\.0\.1:(\d+)/metrics)"))) << url;
    int port = std::stoi(m[1]);
    EXPECT_EQ(endpoint.announcement(), "metrics for Prometheus at " + url);

    pub->onSample(progress("a", 2, 1), sample(10, 10));
    httplib::Client client("127.0.0.1", port);
    auto res = client.Get("/metrics", {{"Accept", "application/openmetrics-text;version=1.0.0"}});
    ASSERT_TRUE(res) << httplib::to_string(res.error());
    EXPECT_EQ(res->status, 200);
    EXPECT_EQ(res->get_header_value("Content-Type"), "application/openmetrics-text; version=1.0.0; charset=utf-8");
    EXPECT_NE(res->body.find(R"(scalelab_tps{experiment="exp",series="a",clients="2",round="1"} 10)"), std::string::npos) << res->body;
    res = client.Get("/metrics");
    ASSERT_TRUE(res);
    EXPECT_EQ(res->get_header_value("Content-Type"), "text/plain; version=0.0.4; charset=utf-8");
    res = client.Get("/other");
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 404);

    std::string error = test::errorOf([&] { MetricsEndpoint second("127.0.0.1:" + std::to_string(port), pub); });
    EXPECT_EQ(error, "--metrics-listen 127.0.0.1:" + std::to_string(port) + ": cannot listen on 127.0.0.1 port " +
                         std::to_string(port) + ": Address already in use");
}

TEST(MetricsEndpoint, AnAddressOtherThanLoopbackIsSaidAtStart) {
    auto pub = std::make_shared<MetricsPublisher>();
    MetricsEndpoint endpoint("0.0.0.0:0", pub);
    EXPECT_FALSE(endpoint.loopback());
    EXPECT_NE(endpoint.announcement().find("not loopback: any machine that reaches this address can read"), std::string::npos)
        << endpoint.announcement();
}

} // namespace
} // namespace scalelab
