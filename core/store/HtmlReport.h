#pragma once
// Share a result: one self-contained HTML file (no script, no external file; charts inline as
// SVG) with the overview (provenance), notes, the charts, the points, the comparison, USL and
// peak tables, and every run. Computes nothing: it writes what it is given.
#include "stats/Report.h"
#include "store/ExperimentOverview.h"

#include <string>
#include <vector>

namespace scalelab {

struct HtmlChart {
    std::string caption;
    std::string svg;  // an SVG document (its XML prolog is dropped when inlined)
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
};

std::string htmlReport(const HtmlReportInput& input);
std::string htmlEscape(const std::string& text);
// The overview's sections as HTML tables (the report's Overview, the window's Overview page).
std::string overviewHtml(const std::vector<OverviewItem>& overview);

} // namespace scalelab
