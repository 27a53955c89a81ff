#pragma once
// An experiment's statistics as one value: the points (mean and interval per series and client
// count), a comparison of two series, USL fits, the peak table. Computed once here and written
// by renderers (console, CSV, HTML) that compute nothing, so the CLI, the window and the HTML
// report cannot disagree.
#include "stats/ExperimentPoints.h"
#include "stats/PointAxis.h"
#include "stats/Usl.h"
#include "stats/Verdict.h"

#include <optional>
#include <string>
#include <vector>

namespace scalelab {

struct ReportOptions {
    RunMetric metric = RunMetric::Tps;
    PointAxis axis = PointAxis::Clients;  // the points' x (docs/sweeps.md, "Offered-load sweeps")
    double confidence = 0.95;
    std::string baseline, candidate;  // compare candidate with baseline when both are set
    bool paired = false;
    double detectPct = 5;             // run-count advice: the change to detect with 80% power
    std::optional<double> equivalencePct;  // "the same within X%": two one-sided tests against it
    bool usl = false, weighted = false;
    bool peak = false;
    std::string peakBaseline;         // the peak table's "% of" series; empty: none
};

struct UslRow {
    std::string series;
    int points = 0;                   // client counts the fit stood on
    std::optional<UslFit> fit;
    std::string error;                // why there is no fit
};

struct StatsReport {
    ReportOptions options;
    std::vector<SeriesPoint> points;            // series in the experiment's order
    std::optional<CurveVerdict> verdict;        // when options name two series: per point and over the curve
    std::vector<UslRow> usl;                    // one per series with points, when options.usl
    std::vector<PeakRow> peaks;                 // when options.peak
    std::string machines;                       // cpu_busy: the machines it is of (docs/hosts.md), "" if not recorded
    // Why (issue 62): where the sessions waited and (where profiled) which functions' CPU per
    // transaction changed at each client count judged different, and both at the knee of each
    // series (the count nearest the USL peak when --usl finds one inside the counts measured,
    // else the first count whose throughput per client is below half the first count's);
    // sentences, missing waits said as missing. Empty when nothing calls for one.
    std::vector<std::string> why;
    // Each series at its highest x: where its sessions waited most and where its server's CPU
    // went most ("" where not recorded), for the Markdown report's table.
    struct Diagnosis {
        std::string series;
        int x = 0;
        std::string waits, cpu;
    };
    std::vector<Diagnosis> diagnoses;
    bool compared() const { return !options.baseline.empty() && !options.candidate.empty(); }
};

// The runs are put on options.axis first (runsOnAxis): series, comparisons and peaks are of its
// curves. Throws Error (naming `experiment`) when no completed run has the metric, when a compared
// series does not exist, when --usl or --peak meet the rate axis, when --usl meets a metric that is not throughput, or when a paired
// comparison cannot be made.
StatsReport buildStatsReport(const std::vector<RunRecord>& runs, const std::vector<std::string>& seriesOrder,
                             const ReportOptions& options, const std::string& experiment);

// "95%": how the confidence level is written in headings.
std::string confidenceLabel(double confidence);

} // namespace scalelab
