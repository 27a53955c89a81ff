#pragma once
// An experiment's chart and report as files, drawn as a ScalingView says: the window's
// exports (the view on screen) and `scalelab export` (the view its options describe) share it.
#include "models/ScalingData.h"
#include "stats/Report.h"

#include <QSize>

#include <string>

namespace scalelab::ui {

class ScalingChart;

// What the report's tables hold beyond the points. Without a baseline and candidate among the
// series drawn, the first two series drawn are compared (when there are two); the peak
// table's "% of" column is the baseline's.
struct ReportChoice {
    std::string baseline, candidate;
    bool paired = false;
};

// Draws `experiment` as `view` shows it onto `chart`, with markers at the cores and PUs of the
// machines the runs were measured on. Throws Error when there is nothing to draw.
void drawExperiment(ExperimentStore& store, const ScalingView& view, ScalingChart& chart);

void writeChartFiles(const std::string& experiment, const ScalingView& view, const std::string& png,
                     const std::string& svg, QSize size, int scale);

// The report's statistics for the series the view draws (ReportOptions from view + choice).
StatsReport reportFor(const std::vector<RunRecord>& runs, const std::vector<std::string>& order, const ScalingView& view,
                      const ReportChoice& choice, const std::string& experiment);

// One self-contained HTML file (store/HtmlReport.h): the view's chart, the p95 latency chart
// beside a throughput chart when runs have latencies, tables, notes, overview, runs.
void writeHtmlReport(const std::string& experiment, const ScalingView& view, const ReportChoice& choice,
                     const std::string& output);

} // namespace scalelab::ui
