#include "charts/ReportExport.h"

#include "charts/ChartExport.h"
#include "charts/BoxPlotChart.h"
#include "charts/DistributionChart.h"
#include "charts/LatencyThroughputChart.h"
#include "charts/ScalingChart.h"
#include "stats/MachineMarkers.h"
#include "stats/SeriesNames.h"
#include "store/ExperimentOverview.h"
#include "report/HtmlReport.h"
#include "util/AtomicFile.h"
#include "util/Error.h"

#include <QDateTime>

#include <filesystem>
#include <fstream>

namespace scalelab::ui {
namespace {

constexpr int kReportChartText = 15;  // px in a 1000 px wide chart
// Drawn at about the width the page shows it (the body is at most 1200 px wide), with text
// that reads at 12-16 px there, also on a 1024-wide screen (issue 32.4); and again for a phone
// (390 px, less the page's margins), whose text reads at about 11-12 px there (issue 61.6: the
// wide drawing shrunk to a phone had 5 px text).
const QSize kReportChartSize(1000, 600);
const QSize kPhoneChartSize(400, 380);
constexpr int kPhoneChartText = 13;

// `chart` as the report shows it: at the page's width and at a phone's.
HtmlChart reportChart(std::string caption, QChart* chart, const std::string& title) {
    HtmlChart out{std::move(caption), {}, {}};
    useExportFonts(chart, kReportChartText);
    out.svg = chartSvg(chart, kReportChartSize, QString::fromStdString(title)).toStdString();
    useExportFonts(chart, kPhoneChartText);
    out.narrowSvg = chartSvg(chart, kPhoneChartSize, QString::fromStdString(title)).toStdString();
    return out;
}

void checkSeries(const ScalingView& view, const std::vector<std::string>& order, const std::string& experiment) {
    for (const QString& s : view.series)
        if (std::find(order.begin(), order.end(), s.toStdString()) == order.end())
            throw Error("--series: " + noSeriesNamed(s.toStdString(), "in " + experiment, order));
}

// The runs of `c` on the view's axis (onViewAxis), with its provenance and statements; `shown`
// becomes the view that draws them. The series asked for are checked first: they are the
// experiment's, not the curves'.
CombinedRuns onAxis(const CombinedRuns& c, const ScalingView& view, ScalingView& shown, const std::string& experiment) {
    checkSeries(view, c.order, experiment);
    ViewRuns on = onViewAxis(c.runs, c.order, view);
    CombinedRuns out = c;
    out.runs = std::move(on.runs);
    out.order = std::move(on.order);
    shown = on.view;
    return out;
}

// "by clients", "by offered rate".
std::string byAxis(PointAxis axis) { return std::string("by ") + pointAxisWords(axis); }

} // namespace

void drawRuns(const CombinedRuns& c, const ScalingView& view, ScalingChart& chart, const std::string& what) {
    checkSeries(view, c.order, what);
    ScalingData data = buildScalingData(c.runs, c.order, view);
    if (data.series.isEmpty())
        throw Error(what + " has no completed runs with " + runMetricName(view.metric) +
                    (view.series.isEmpty() ? std::string() : " in the series asked for"));
    if (view.axis == PointAxis::Clients) data.markers = markerViews(machineMarkers(c.runs, c.provenance, thisMachine()));
    chart.setData(data, view.logX);
}

void drawRatios(const CombinedRuns& c, const ScalingView& view, const RatioChoice& ratios, ScalingChart& chart) {
    ScalingData data = buildRatioData(c.runs, c.order, view.metric, view.confidence, ratios, view.axis);
    if (view.axis == PointAxis::Clients) data.markers = markerViews(machineMarkers(c.runs, c.provenance, thisMachine()));
    chart.setData(data, view.logX);
}

void drawDistribution(const CombinedRuns& c, const ScalingView& view, int clients, DistributionChart& chart,
                      const std::string& what) {
    checkSeries(view, c.order, what);
    DistributionData d = buildDistributionData(c.runs, c.order, view.drawn(c.order), clients);
    d.axis = view.axis;
    if (d.clients != clients) {
        std::string have;
        for (int n : d.clientCounts) have += (have.empty() ? "" : ", ") + std::to_string(n);
        throw Error("--distribution " + std::to_string(clients) + ": no counted run of the series drawn has a latency histogram at " +
                    pointText(view.axis, clients) + " in " + what +
                    (have.empty() ? " (no run has one: runs keep one since ScaleLab 0.1; imported runs have none)"
                                  : std::string("; these ") + pointNoun(view.axis, true) +
                                        " have: " + have));
    }
    chart.setData(d);
}

void drawRounds(const CombinedRuns& c, const ScalingView& view, LatencyPercentile percentile, BoxPlotChart& chart,
                const std::string& what) {
    checkSeries(view, c.order, what);
    BoxPlotData d = buildBoxPlotData(c.runs, c.order, view.drawn(c.order), percentile);
    d.axis = view.axis;
    if (d.clientCounts.isEmpty())
        throw Error(std::string("--rounds ") + latencyPercentileName(percentile) + ": no counted run of the series drawn in " +
                    what + " has a " + latencyPercentileName(percentile) + " latency");
    chart.setData(d);
}

void writeChartFiles(const std::string& experiment, const ScalingView& asked, const std::string& png, const std::string& svg,
                     QSize size, int scale, const std::vector<std::string>& others, const OtherChart& other) {
    ScalingView view;
    CombinedRuns c = onAxis(combineExperiments(experiment, others), asked, view, experiment);
    auto write = [&](QChart* chart) {
        useExportFonts(chart);
        if (!png.empty()) exportChartPng(chart, QString::fromStdString(png), size, scale);
        if (!svg.empty()) exportChartSvg(chart, QString::fromStdString(svg), size, QString::fromStdString(experiment));
    };
    if (other.distributionAt > 0) {
        DistributionChart chart;
        drawDistribution(c, view, other.distributionAt, chart, experiment);
        return write(&chart);
    }
    if (other.rounds) {
        BoxPlotChart chart;
        drawRounds(c, view, *other.rounds, chart, experiment);
        return write(&chart);
    }
    if (other.againstThroughput) {
        LatencyThroughputChart chart;
        const ThroughputY& y = *other.againstThroughput;
        LatencyThroughputData d = buildLatencyThroughputData(c.runs, c.order, view.drawn(c.order), y, view.axis);
        if (d.curves.isEmpty())
            throw Error(y.label() + " against achieved tps: no counted run of the series drawn in " + experiment +
                        " has a tps and a " + y.label());
        chart.setData(d, other.logLatency);
        return write(&chart);
    }
    ScalingChart chart;
    if (other.ratios.empty()) drawRuns(c, view, chart, experiment);
    else drawRatios(c, view, other.ratios, chart);
    write(&chart);
}

StatsReport reportFor(const std::vector<RunRecord>& runs, const std::vector<std::string>& order, const ScalingView& view,
                      const ReportChoice& choice, const std::string& experiment) {
    ViewRuns on = onViewAxis(runs, order, view);
    std::vector<std::string> curves = on.view.drawn(on.order);  // the series drawn, on the view's axis
    ReportOptions o;
    o.metric = view.metric;
    o.confidence = view.confidence;
    o.axis = view.axis;
    auto isDrawn = [&](const std::string& s) { return std::find(curves.begin(), curves.end(), s) != curves.end(); };
    // A comparison of a series the view hides is not the view's: then the first two drawn.
    if (isDrawn(choice.baseline) && isDrawn(choice.candidate)) o.baseline = choice.baseline, o.candidate = choice.candidate;
    else if (curves.size() >= 2) o.baseline = curves[0], o.candidate = curves[1];
    o.paired = choice.paired;
    o.equivalencePct = choice.equivalencePct;
    bool clientAxis = view.axis == PointAxis::Clients;  // USL and peaks are of scaling with clients
    o.usl = view.usl && isThroughputMetric(view.metric) && clientAxis;
    o.peak = clientAxis;
    o.peakBaseline = o.baseline.empty() ? std::string() : o.baseline;
    return buildStatsReport(view.runsDrawn(runs), view.drawn(order), o, experiment);
}

HtmlReportFiles readHtmlReportFiles(const std::string& experiment, const std::vector<std::string>& others) {
    HtmlReportFiles f;
    f.experiment = experiment;
    f.runs = combineExperiments(experiment, others);
    auto store = ExperimentStore::open(experiment, true);  // its overview and note
    f.overview = experimentOverview(*store);
    // Each added experiment says what it was measured on too.
    auto afterExperiment = std::find_if(f.overview.begin(), f.overview.end(),
                                        [](const OverviewItem& i) { return i.section != "Experiment"; });
    for (auto it = others.rbegin(); it != others.rend(); ++it)
        afterExperiment = f.overview.insert(afterExperiment, {"Experiment", "Series added from", *it});
    for (const auto& other : others) {
        std::string name = std::filesystem::path(other).filename().string();
        auto added = ExperimentStore::open(other, true);
        for (auto item : experimentOverview(*added)) {
            item.section = "[" + name + "] " + item.section;
            f.overview.push_back(std::move(item));
        }
    }
    f.note = store->note();
    return f;
}

void writeHtmlReport(const HtmlReportFiles& files, const ScalingView& asked, const ReportChoice& choice, const std::string& output) {
    const std::string& experiment = files.experiment;
    // The charts and statements are of the runs on the view's axis; the report puts them there
    // itself, and the runs table lists them as stored.
    ScalingView view;
    CombinedRuns c = onAxis(files.runs, asked, view, experiment);
    HtmlReportInput in;
    in.title = experimentName(experiment);
    in.generatedAt = QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
    in.view = asked.describe().toStdString();
    in.overview = files.overview;
    in.note = files.note;
    in.report = reportFor(files.runs.runs, files.runs.order, asked, choice, experiment);
    in.runs = files.runs.runs;
    in.statementTexts = c.statementTexts;
    addStatements(in, c.runs, view.drawn(c.order));  // the series the report's tables are of
    addWaits(in, c.runs, view.drawn(c.order));
    addProfiles(in, c.runs, view.drawn(c.order));
    auto chartOf = [&](std::string caption, const ScalingView& v) {
        ScalingChart chart;
        drawRuns(c, v, chart, experiment);
        return reportChart(std::move(caption), &chart, in.title);
    };
    std::string machines = view.metric == RunMetric::CpuBusy ? metricsMachinesOf(c.runs) : std::string();
    in.charts.push_back(chartOf(std::string(runMetricLabel(view.metric)) + (machines.empty() ? "" : " of " + machines) + " " +
                                    byAxis(view.axis) + ": " + in.view,
                                view));
    auto present = metricsPresent(c.runs);
    if (isThroughputMetric(view.metric) &&
        std::find(present.begin(), present.end(), RunMetric::LatencyP95) != present.end()) {
        ScalingView latency = view;
        latency.metric = RunMetric::LatencyP95;
        latency.usl = false;
        in.charts.push_back(chartOf(std::string(runMetricLabel(RunMetric::LatencyP95)) + " " + byAxis(view.axis) + ": " +
                                        latency.describe().toStdString(),
                                    latency));
    }
    {
        // How far apart the rounds were: each run's p99 as a box per series and client count.
        BoxPlotData rounds = buildBoxPlotData(c.runs, c.order, view.drawn(c.order), LatencyPercentile::P99);
        rounds.axis = view.axis;
        if (!rounds.clientCounts.isEmpty()) {
            BoxPlotChart chart;
            chart.setData(rounds);
            in.charts.push_back(reportChart("p99 latency of each round " + byAxis(view.axis) + ", box plots: " +
                                                rounds.note.toStdString(),
                                            &chart, in.title));
        }
    }
    {
        // Latency against achieved tps (the hockey stick) of the series shown: with offered
        // rates, where each curve's knee is; without, how latency grows with throughput by clients.
        LatencyThroughputData lt = buildLatencyThroughputData(c.runs, c.order, view.drawn(c.order), throughputY(LatencyPercentile::P99),
                                                              view.axis);
        if (!lt.curves.isEmpty()) {
            LatencyThroughputChart chart;
            chart.setData(lt, false);
            in.charts.push_back(reportChart("p99 latency against achieved tps: " + lt.note.toStdString(), &chart, in.title));
        }
    }
    if (in.report.verdict && !in.report.verdict->points.empty()) {
        // The comparison as a curve: the candidate over the baseline at each client count. A
        // baseline of 0 at every count has no ratio; the comparison table says what there is.
        const ReportOptions& o = in.report.options;
        RatioChoice ratio{{{o.baseline, o.candidate}}, o.paired};
        try {
            ScalingChart chart;
            drawRatios(c, view, ratio, chart);
            in.charts.push_back(reportChart(std::string(runMetricLabel(view.metric)) + " ratio " + o.candidate + " / " +
                                                o.baseline + " " + byAxis(view.axis) + " (" +
                                                (o.paired ? "paired by round" : "Welch") + ")",
                                            &chart, in.title));
        } catch (const Error&) {
        }
        // Each compared client count's latency distribution: the two series' rounds merged.
        for (const auto& p : in.report.verdict->points) {
            DistributionData d = buildDistributionData(c.runs, c.order, {o.baseline, o.candidate}, p.clients);
            d.axis = view.axis;
            if (d.clients != p.clients || d.series.size() < 2) continue;  // a side without histograms
            DistributionChart chart;
            chart.setData(d);
            in.charts.push_back(reportChart("latency distribution at " + pointText(view.axis, p.clients) + ": " +
                                                o.candidate + " against " + o.baseline +
                                                " (rounds merged, each round pale behind)",
                                            &chart, in.title));
        }
    }
    writeFileAtomically(output, htmlReport(in));  // whole or not at all
}

void writeHtmlReport(const std::string& experiment, const ScalingView& view, const ReportChoice& choice,
                     const std::string& output, const std::vector<std::string>& others) {
    writeHtmlReport(readHtmlReportFiles(experiment, others), view, choice, output);
}

} // namespace scalelab::ui
