#include "charts/ReportExport.h"

#include "charts/ChartExport.h"
#include "charts/ScalingChart.h"
#include "stats/MachineMarkers.h"
#include "store/HtmlReport.h"
#include "util/Error.h"

#include <QDateTime>
#include <QFileInfo>

#include <fstream>

namespace scalelab::ui {
namespace {

void checkSeries(const ScalingView& view, const std::vector<std::string>& order, const std::string& experiment) {
    for (const QString& s : view.series)
        if (std::find(order.begin(), order.end(), s.toStdString()) == order.end()) {
            std::string known;
            for (const auto& o : order) known += (known.empty() ? "" : ", ") + o;
            throw Error("--series: no series named '" + s.toStdString() + "' in " + experiment + " (it has: " + known + ")");
        }
}

} // namespace

void drawExperiment(ExperimentStore& store, const ScalingView& view, ScalingChart& chart) {
    auto order = store.seriesLabels();
    checkSeries(view, order, store.path());
    auto runs = store.runs();
    ScalingData data = buildScalingData(runs, order, view);
    if (data.series.isEmpty())
        throw Error(store.path() + " has no completed runs with " + runMetricName(view.metric) +
                    (view.series.isEmpty() ? std::string() : " in the series asked for"));
    data.markers = markerViews(machineMarkers(runs, store.provenance(), thisMachine()));
    chart.setData(data, view.logX);
}

void writeChartFiles(const std::string& experiment, const ScalingView& view, const std::string& png, const std::string& svg,
                     QSize size, int scale) {
    auto store = ExperimentStore::open(experiment, true);
    ScalingChart chart;
    drawExperiment(*store, view, chart);
    if (!png.empty()) exportChartPng(&chart, QString::fromStdString(png), size, scale);
    if (!svg.empty()) exportChartSvg(&chart, QString::fromStdString(svg), size, QString::fromStdString(experiment));
}

StatsReport reportFor(const std::vector<RunRecord>& runs, const std::vector<std::string>& order, const ScalingView& view,
                      const ReportChoice& choice, const std::string& experiment) {
    std::vector<std::string> drawn = view.drawn(order);
    ReportOptions o;
    o.metric = view.metric;
    o.confidence = view.confidence;
    auto isDrawn = [&](const std::string& s) { return std::find(drawn.begin(), drawn.end(), s) != drawn.end(); };
    // A comparison of a series the view hides is not the view's: then the first two drawn.
    if (isDrawn(choice.baseline) && isDrawn(choice.candidate)) o.baseline = choice.baseline, o.candidate = choice.candidate;
    else if (drawn.size() >= 2) o.baseline = drawn[0], o.candidate = drawn[1];
    o.paired = choice.paired;
    o.usl = view.usl && isThroughputMetric(view.metric);
    o.peak = true;
    o.peakBaseline = o.baseline.empty() ? std::string() : o.baseline;
    return buildStatsReport(view.runsDrawn(runs), drawn, o, experiment);
}

void writeHtmlReport(const std::string& experiment, const ScalingView& view, const ReportChoice& choice,
                     const std::string& output) {
    auto store = ExperimentStore::open(experiment, true);
    auto order = store->seriesLabels();
    checkSeries(view, order, experiment);
    auto runs = store->runs();
    HtmlReportInput in;
    in.title = QFileInfo(QString::fromStdString(experiment)).fileName().toStdString();
    in.generatedAt = QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
    in.view = view.describe().toStdString();
    in.overview = experimentOverview(*store);
    in.note = store->note();
    in.report = reportFor(runs, order, view, choice, experiment);
    in.runs = runs;
    const QSize size(1100, 650);
    auto chartOf = [&](const ScalingView& v) {
        ScalingChart chart;
        drawExperiment(*store, v, chart);
        return chartSvg(&chart, size, QString::fromStdString(in.title)).toStdString();
    };
    in.charts.push_back({std::string(runMetricName(view.metric)) + " by clients: " + in.view, chartOf(view)});
    auto present = metricsPresent(runs);
    if (isThroughputMetric(view.metric) &&
        std::find(present.begin(), present.end(), RunMetric::LatencyP95) != present.end()) {
        ScalingView latency = view;
        latency.metric = RunMetric::LatencyP95;
        latency.usl = false;
        in.charts.push_back({"latency_p95 by clients: " + latency.describe().toStdString(), chartOf(latency)});
    }
    std::ofstream out(output, std::ios::binary);
    out << htmlReport(in);
    out.close();
    if (!out) throw Error("cannot write " + output);
}

} // namespace scalelab::ui
