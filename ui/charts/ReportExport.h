#pragma once
// An experiment's chart and report as files, drawn as a ScalingView says: the window's
// exports (the view on screen) and `scalelab export` (the view its options describe) share it.
#include "models/BoxPlotData.h"
#include "models/DistributionData.h"
#include "models/RatioData.h"
#include "models/ScalingData.h"
#include "stats/LatencyThroughput.h"
#include "stats/Report.h"
#include "store/CombinedRuns.h"
#include "store/ExperimentOverview.h"

#include <QSize>

#include <optional>
#include <string>

namespace scalelab::ui {

class BoxPlotChart;
class DistributionChart;
class ScalingChart;

// What the report's tables hold beyond the points. Without a baseline and candidate among the
// series drawn, the first two series drawn are compared (when there are two); the peak
// table's "% of" column is the baseline's.
struct ReportChoice {
    std::string baseline, candidate;
    bool paired = false;
    std::optional<double> equivalencePct;  // the same within this margin (two one-sided tests)
};

// Draws the runs as `view` shows them onto `chart`, with markers at the cores and PUs of the
// machines the runs were measured on. Throws Error naming `what` when there is nothing to draw.
void drawRuns(const CombinedRuns& runs, const ScalingView& view, ScalingChart& chart, const std::string& what);

// The ratio B / A of the view's metric by clients, per pair of `ratios`, with a line at 1; the
// view's metric, confidence and axis apply (its series do not: the pairs name theirs).
void drawRatios(const CombinedRuns& runs, const ScalingView& view, const RatioChoice& ratios, ScalingChart& chart);

// The latency distribution of the series the view draws at `clients` (models/DistributionData).
// Throws Error naming the client counts that have histograms when `clients` has none.
void drawDistribution(const CombinedRuns& runs, const ScalingView& view, int clients, DistributionChart& chart,
                      const std::string& what);

// The box plots of a latency percentile across rounds of the series the view draws
// (models/BoxPlotData). Throws Error naming `what` when no counted run has that percentile.
void drawRounds(const CombinedRuns& runs, const ScalingView& view, LatencyPercentile percentile, BoxPlotChart& chart,
                const std::string& what);

// A chart other than the series' scaling curves; at most one is set.
struct OtherChart {
    RatioChoice ratios;                          // the ratio chart of these pairs
    int distributionAt = 0;                      // the latency distribution at this client count
    std::optional<LatencyPercentile> rounds;     // the rounds' box plots of this percentile
    std::optional<ThroughputY> againstThroughput;  // this percentile or metric against achieved tps
    bool logLatency = false;                     // with againstThroughput: a log10 y axis
};

// `others`: experiment files whose series are added (store/CombinedRuns.h), as in the window.
void writeChartFiles(const std::string& experiment, const ScalingView& view, const std::string& png,
                     const std::string& svg, QSize size, int scale, const std::vector<std::string>& others = {},
                     const OtherChart& other = {});

// The report's statistics for the series the view draws (ReportOptions from view + choice).
StatsReport reportFor(const std::vector<RunRecord>& runs, const std::vector<std::string>& order, const ScalingView& view,
                      const ReportChoice& choice, const std::string& experiment);

// What an HTML report reads from the experiment files: their runs and series, the overview
// of each, the note. Reading needs no display: the window does it off the GUI thread.
struct HtmlReportFiles {
    std::string experiment;
    CombinedRuns runs;
    std::vector<OverviewItem> overview;  // the experiment's, then each added file's
    std::string note;
};
HtmlReportFiles readHtmlReportFiles(const std::string& experiment, const std::vector<std::string>& others = {});

// One self-contained HTML file (report/HtmlReport.h): the view's chart, the p95 latency chart
// beside a throughput chart when runs have latencies, the comparison's ratio chart and the
// latency distribution of each compared client count, tables, notes, overview, runs. Draws its
// charts: on the GUI thread (Qt's rule for graphics items).
void writeHtmlReport(const HtmlReportFiles& files, const ScalingView& view, const ReportChoice& choice, const std::string& output);
// Both, for the command line.
void writeHtmlReport(const std::string& experiment, const ScalingView& view, const ReportChoice& choice,
                     const std::string& output, const std::vector<std::string>& others = {});

} // namespace scalelab::ui
