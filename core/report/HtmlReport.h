#pragma once
// Share a result: one self-contained HTML file (no external file; charts inline as SVG; the only
// script is the flame graphs' search and zoom) with the overview (provenance), notes, the charts, the points, the comparison, USL and
// peak tables, what the server ran, and every run. htmlReport computes nothing: it writes
// what it is given.
#include "stats/ProfileReport.h"
#include "stats/Report.h"
#include "stats/StatementReport.h"
#include "stats/WaitReport.h"
#include "store/ExperimentOverview.h"
#include "store/StatementTexts.h"

#include <string>
#include <vector>

namespace scalelab {

struct HtmlChart {
    std::string caption;
    std::string svg;        // an SVG document (its XML prolog is dropped when inlined)
    std::string narrowSvg;  // the same drawn for a phone's width, shown there instead; may be empty
};

struct HtmlReportInput {
    std::string title;                   // the experiment's file name
    std::string generatedAt;             // ISO 8601, UTC
    std::string view;                    // what the charts show: "tps, 95% confidence interval, log2 clients"
    std::vector<OverviewItem> overview;
    std::string note;                    // the experiment's note
    StatsReport report;
    std::vector<HtmlChart> charts;
    std::vector<RunRecord> runs;
    // What the server ran: the compared series' statement changes at each client count, or
    // without a comparison each series' top statements at its highest client count.
    std::vector<StatementComparison> statementComparisons;
    std::vector<std::pair<PointStatements, std::vector<StatementSummary>>> topStatements;
    std::vector<std::string> statementsMissing;  // why points have no statements (shown when nothing else is)
    StatementTexts statementTexts;
    // Where the sessions waited: the compared series' changes at each x, or without a comparison
    // each series' events at its highest x; and why points have none.
    std::vector<WaitComparison> waitComparisons;
    std::vector<std::pair<PointWaits, std::vector<WaitSummary>>> topWaits;
    std::vector<std::string> waitsMissing;
    // Where the server's CPU went: the compared series' function changes at each x with B's
    // differential flame graph there, or without a comparison each series' functions and flame
    // graph at its highest x; and why points have none.
    std::vector<std::pair<ProfileComparison, std::string>> profileComparisons;  // with the SVG
    struct ProfilePoint {
        std::string series;
        int clients = 0;
        size_t runs = 0;
        uint64_t samples = 0;
        std::vector<FunctionCost> top;
        std::string flameSvg;
    };
    std::vector<ProfilePoint> topProfiles;
    std::vector<std::string> profilesMissing;
};

// The statements part of `in`, from the `runs` of `seriesOrder` (the series the report shows;
// core/stats/StatementReport), for the report's comparison when it has one. The runs are on the
// report's axis (runsOnAxis: `seriesOrder` its curves); in.runs stay as stored, for the runs table.
void addStatements(HtmlReportInput& in, const std::vector<RunRecord>& runs, const std::vector<std::string>& seriesOrder);

// The waits part of `in`, likewise (core/stats/WaitReport).
void addWaits(HtmlReportInput& in, const std::vector<RunRecord>& runs, const std::vector<std::string>& seriesOrder);

// The CPU profiles' part of `in`, likewise (core/stats/ProfileReport), flame graphs included.
void addProfiles(HtmlReportInput& in, const std::vector<RunRecord>& runs, const std::vector<std::string>& seriesOrder);

std::string htmlReport(const HtmlReportInput& input);
std::string htmlEscape(const std::string& text);
// The overview's sections as HTML tables (the report's Overview, the window's Overview page).
std::string overviewHtml(const std::vector<OverviewItem>& overview);

} // namespace scalelab
