#include "report/HtmlReport.h"

#include "report/ProfileExport.h"

#include "report/StatementText.h"
#include "util/Format.h"

#include "util/Versions.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace scalelab {
namespace {

std::string num(double v, int decimals) {
    if (!std::isfinite(v)) return "&ndash;";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}
std::string opt(const std::optional<double>& v, int decimals, const std::string& suffix = "") {
    return v ? num(*v, decimals) + suffix : "&ndash;";
}
// An interval's lower end; one clamped at 0 says so (issue 32.5).
std::string htmlLow(const PointSummary& s) {
    return opt(s.ciLow, 2) + (s.ciLowClamped ? " <span class=\"meta\">(clamped at 0)</span>" : "");
}
std::string signedPct(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%+.1f%%", v);
    return buf;
}

void replaceAll(std::string& s, const std::string& from, const std::string& to) {
    for (size_t pos = 0; (pos = s.find(from, pos)) != std::string::npos; pos += to.size()) s.replace(pos, from.size(), to);
}

// An SVG document inside HTML: without the XML prolog and doctype, which HTML does not take,
// and with its element ids prefixed, since ids are shared by the whole page.
std::string inlineSvg(const std::string& svg, const std::string& prefix) {
    size_t start = svg.find("<svg");
    if (start == std::string::npos) return {};
    std::string out = svg.substr(start);
    replaceAll(out, " id=\"", " id=\"" + prefix);
    replaceAll(out, "url(#", "url(#" + prefix);
    replaceAll(out, "href=\"#", "href=\"#" + prefix);
    return out;
}

// A table; one made with `cards` becomes a card per row on a phone (each cell with its
// column's name), so its last columns are not off the screen's edge (issue 61.6).
struct Table {
    std::string& out;
    std::vector<std::string> labels;  // escaped headings, for the cells' data-label
    bool cards;
    Table(std::string& o, const std::vector<std::string>& headings, bool asCards = false) : out(o), cards(asCards) {
        out += cards ? "<table class=\"cards\">\n<thead><tr>" : "<table>\n<thead><tr>";
        for (const auto& h : headings) {
            labels.push_back(htmlEscape(h));
            out += "<th>" + labels.back() + "</th>";
        }
        out += "</tr></thead>\n<tbody>\n";
    }
    // Cells are HTML already (numbers, escaped text).
    void row(const std::vector<std::string>& cells, const std::string& cls = "") {
        out += cls.empty() ? "<tr>" : "<tr class=\"" + cls + "\">";
        for (size_t i = 0; i < cells.size(); ++i)
            out += cards && i < labels.size() ? "<td data-label=\"" + labels[i] + "\">" + cells[i] + "</td>"
                                              : "<td>" + cells[i] + "</td>";
        out += "</tr>\n";
    }
    ~Table() { out += "</tbody>\n</table>\n"; }
};

const char* kStyle = R"css(
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1200px; color: #222; padding: 0 1em; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ccc; }
h3 { font-size: 1.05em; }
table { border-collapse: collapse; margin: 0.5em 0 1em; font-size: 0.9em; }
/* On a phone a wide table scrolls by itself; the page and its charts keep the screen's width. A
   table is as wide as its columns, not a full-width frame around them (issue 61.6). */
table { display: block; width: max-content; max-width: 100%; overflow-x: auto; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; vertical-align: top; }
th { background: #f2f2f2; } td:first-child, th:first-child { text-align: left; }
table.overview td { text-align: left; } table.overview td:first-child { white-space: nowrap; }
tr.excluded td { color: #888; } tr.failed td { color: #a33; }
pre { margin: 0; white-space: pre-wrap; font-size: 0.95em; }
figure { margin: 1em 0; } figure svg { max-width: 100%; height: auto; }
/* A flame graph keeps its size (its frames' names are read at 12 px) and scrolls sideways in a
   narrower page. */
.flame-frame { max-width: 100%; overflow-x: auto; margin: 0.5em 0 1.5em; } .flame-frame svg { display: block; }
.note { background: #fffbe6; border-left: 4px solid #e6c200; padding: 0.5em 1em; white-space: pre-wrap; }
.meta { color: #666; font-size: 0.9em; }
/* Each chart is drawn twice, for a wide page and for a phone's, so that its text reads at about
   12 px on both (one drawing shrunk to a phone had 5 px text). */
.narrow { display: none; }
/* On a phone: the narrow charts, and a comparison table as one card per row, each cell with its
   column's name, so that the verdict is on the screen. */
@media (max-width: 640px) {
  .narrow { display: block; } .wide { display: none; }
  table.cards, table.cards tbody, table.cards tr, table.cards td { display: block; width: auto; }
  table.cards thead { display: none; }
  table.cards tr { border: 1px solid #ccc; margin-bottom: 0.6em; }
  table.cards td { border: none; border-bottom: 1px solid #eee; text-align: right; }
  table.cards td::before { content: attr(data-label); float: left; margin-right: 1em; font-weight: bold; text-align: left; }
}
/* Printed (or saved as PDF): a chart or a table is not cut between two pages, nor at the edge. */
@media print { body { max-width: none; margin: 0; } figure, table, tr { break-inside: avoid; }
  .narrow { display: none; } .wide { display: block; }
  table { display: table; overflow: visible; font-size: 0.8em; } }
)css";

} // namespace

std::string htmlEscape(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        default: out += c;
        }
    }
    return out;
}

std::string overviewHtml(const std::vector<OverviewItem>& overview) {
    std::string out, section;
    bool open = false;
    for (const auto& item : overview) {
        if (item.section != section) {
            if (open) out += "</tbody>\n</table>\n";
            section = item.section;
            out += "<h3>" + htmlEscape(section) + "</h3>\n<table class=\"overview\" border=\"1\" cellspacing=\"0\" cellpadding=\"3\">\n<tbody>\n";
            open = true;
        }
        bool multiline = item.value.find('\n') != std::string::npos;
        out += "<tr><td>" + htmlEscape(item.name) + "</td><td>" +
               (multiline ? "<pre>" + htmlEscape(item.value) + "</pre>" : htmlEscape(item.value)) + "</td></tr>\n";
    }
    if (open) out += "</tbody>\n</table>\n";
    return out;
}

namespace {

// An interval kept on one line: "-79.1% .. -66.3%" never breaks inside.
std::string noWrap(const std::string& text) {
    std::string out;
    for (char ch : htmlEscape(text)) out += ch == ' ' ? std::string("&nbsp;") : std::string(1, ch);
    return out;
}

// A change interval's cell: its numbers on one line; the words that stand for an unbounded one
// ("too few runs to bound") wrap as words do.
std::string intervalCell(const std::string& text) { return text == kTooFewToBound ? htmlEscape(text) : noWrap(text); }

std::string statementCell(const StatementTexts& texts, const std::string& id) {
    return "<span title=\"" + htmlEscape(statementLine(texts, id, 4000)) + "\">" + htmlEscape(statementLine(texts, id, 90)) + "</span>";
}

// "No run recorded WHAT." or, with reasons, "No run recorded WHAT:" and each point's reason on a
// line of its own (each is a sentence: joined with "; " they ran together and ended in "..").
void noneRecorded(std::string& out, const std::string& what, const std::vector<std::string>& reasons) {
    out += "<p>No run recorded " + htmlEscape(what) + (reasons.empty() ? ".</p>\n" : ":</p>\n<ul>\n");
    for (const auto& why : reasons) out += "<li>" + htmlEscape(why) + "</li>\n";
    if (!reasons.empty()) out += "</ul>\n";
}

void statementsSection(std::string& out, const HtmlReportInput& in) {
    out += "<h2>Statements</h2>\n";
    if (in.statementComparisons.empty() && in.topStatements.empty()) {
        noneRecorded(out, "what the server ran", in.statementsMissing);
        return;
    }
    for (const auto& c : in.statementComparisons) {
        out += "<h3>" + htmlEscape(c.candidate + " against " + c.baseline + " at " + pointText(in.report.options.axis, c.clients)) + "</h3>\n<p>" +
               htmlEscape(std::string("Each statement's mean time per run (pg_stat_statements over each run's counted window), ") +
                          (c.paired ? "paired by round" : "Welch's t-test") + ", largest change first; each judged at " +
                          num(c.confidence * 100, 2) + "% (Bonferroni over " + std::to_string(c.changes.size()) +
                          " statements).") +
               "</p>\n";
        Table t(out, {"Statement", c.baseline + " mean ms", c.candidate + " mean ms", "Change", "Change interval", "Verdict"}, true);
        int shown = 0;
        for (const auto& ch : c.changes) {
            if (shown++ >= 15) break;
            const Comparison& k = ch.comparison;
            t.row({statementCell(in.statementTexts, ch.queryId), num(ch.a.meanMs.mean, 4), num(ch.b.meanMs.mean, 4),
                   k.percentChange ? signedPct(*k.percentChange) : "&ndash;",
                   intervalCell(changeIntervalText(k.percentLow, k.percentHigh)), htmlEscape(k.verdict)});
        }
        for (const auto& id : c.onlyBaseline)
            t.row({statementCell(in.statementTexts, id), "", "", "", "", "only " + htmlEscape(c.baseline) + " ran it"});
        for (const auto& id : c.onlyCandidate)
            t.row({statementCell(in.statementTexts, id), "", "", "", "", "only " + htmlEscape(c.candidate) + " ran it"});
    }
    for (const auto& [point, top] : in.topStatements) {
        out += "<h3>" + htmlEscape(point.series + " at " + pointText(in.report.options.axis, point.clients) + ", " + std::to_string(point.runs) +
                                   " runs") +
               "</h3>\n";
        Table t(out, {"Statement", "ms/run", "Share", "Calls/tx", "Mean ms", "95% CI", "Rows/call", "Hit/call", "Read/call"});
        for (const auto& s : top)
            t.row({statementCell(in.statementTexts, s.queryId), num(s.totalMsPerRun, 1), num(s.sharePct, 1) + "%",
                   num(s.callsPerTransaction, 2), num(s.meanMs.mean, 4),
                   s.meanMs.ciLow ? noWrap(num(*s.meanMs.ciLow, 4) + (s.meanMs.ciLowClamped ? "^" : "") + " .. " +
                                           num(*s.meanMs.ciHigh, 4))
                                  : "one run",
                   num(s.rowsPerCall, 2), num(s.hitPerCall, 1), num(s.readPerCall, 2)});
    }
    if (!in.statementsMissing.empty()) {
        out += "<p>";
        for (size_t i = 0; i < in.statementsMissing.size(); ++i) out += (i ? " " : "") + htmlEscape(in.statementsMissing[i]);
        out += "</p>\n";
    }
}

void waitsSection(std::string& out, const HtmlReportInput& in) {
    out += "<h2>Waits</h2>\n";
    const PointAxis axis = in.report.options.axis;
    if (in.waitComparisons.empty() && in.topWaits.empty()) {
        noneRecorded(out, "where its sessions waited", in.waitsMissing);
        return;
    }
    out += "<p>The load's sessions inside a transaction, sampled through each run's counted window "
           "(docs/metrics.md, &ldquo;Where the sessions wait&rdquo;): average active sessions by wait event, and the "
           "wait time per transaction.</p>\n";
    for (const auto& c : in.waitComparisons) {
        const std::string at = "at " + pointText(axis, c.clients);
        out += "<h3>" + htmlEscape(c.candidate + " against " + c.baseline + " " + at) + "</h3>\n<p>" +
               htmlEscape(std::string("Wait ms per transaction by event, ") + (c.paired ? "paired by round" : "Welch's t-test") +
                          ", largest change first; each judged at " + num(c.confidence * 100, 2) + "% (Bonferroni over " +
                          std::to_string(c.changes.size()) + " events)." + (c.note.empty() ? "" : " Note: " + c.note + ".")) +
               "</p>\n";
        std::string sentences;
        for (const auto& ch : c.changes)
            if (std::string s = waitChangeSentence(c, ch, at); !s.empty()) sentences += "<li>" + htmlEscape(s) + ".</li>\n";
        if (!sentences.empty()) out += "<ul class=\"verdict\">\n" + sentences + "</ul>\n";
        Table t(out, {"Wait event", c.baseline + " ms/tx", c.candidate + " ms/tx", "Change ms/tx", "Interval", "Verdict"}, true);
        int shown = 0;
        for (const auto& ch : c.changes) {
            if (shown++ >= 15) break;
            const Comparison& k = ch.comparison;
            t.row({htmlEscape(ch.event), num(ch.a.msPerTx.mean, 4), num(ch.b.msPerTx.mean, 4), num(k.difference, 4),
                   k.diffLow && k.diffHigh ? noWrap(num(*k.diffLow, 4) + " .. " + num(*k.diffHigh, 4)) : "&ndash;",
                   htmlEscape(k.verdict)});
        }
    }
    for (const auto& [point, events] : in.topWaits) {
        out += "<h3>" + htmlEscape(point.series + " at " + pointText(axis, point.clients) + ", " +
                                   std::to_string(point.runs.size()) + " run" + (point.runs.size() == 1 ? "" : "s")) +
               "</h3>\n";
        Table t(out, {"Wait event", "Sessions", "Share", "ms/tx", "CI low", "CI high"});
        for (const auto& e : events)
            t.row({htmlEscape(e.event), num(e.sessions, 2), num(e.sharePct, 1) + "%", num(e.msPerTx.mean, 4),
                   opt(e.msPerTx.ciLow, 4) + (e.msPerTx.ciLowClamped ? " <span class=\"meta\">(clamped at 0)</span>" : ""),
                   opt(e.msPerTx.ciHigh, 4)});
    }
    if (!in.waitsMissing.empty()) {
        out += "<ul>\n";
        for (const auto& why : in.waitsMissing) out += "<li>" + htmlEscape(why) + "</li>\n";
        out += "</ul>\n";
    }
}

// A flame graph inline: its own XML-free <svg>, in a frame that scrolls on a narrow screen.
std::string inlineFlame(const std::string& svg) { return "<div class=\"flame-frame\">\n" + svg + "</div>\n"; }

void profilesSection(std::string& out, const HtmlReportInput& in) {
    out += "<h2>CPU profile</h2>\n";
    const PointAxis axis = in.report.options.axis;
    if (in.profileComparisons.empty() && in.topProfiles.empty()) {
        noneRecorded(out, "where its server's CPU went ($.diagnostics.cpu_profile)", in.profilesMissing);
        return;
    }
    out += "<p>The server's processes on CPU, sampled by perf through each run's counted window (docs/metrics.md, "
           "&ldquo;Where the server's CPU goes&rdquo;), per 1,000 transactions so that more throughput never looks like "
           "more cost. In a flame graph, click a frame to zoom to it; Search paints the frames whose name matches.</p>\n";
    for (const auto& [c, svg] : in.profileComparisons) {
        const std::string at = "at " + pointText(axis, c.clients);
        out += "<h3>" + htmlEscape(c.candidate + " against " + c.baseline + " " + at) + "</h3>\n<p>" +
               htmlEscape(std::string("Self CPU samples per 1,000 transactions by function, ") +
                          (c.paired ? "paired by round" : "Welch's t-test") + ", largest change first; each judged at " +
                          num(c.confidence * 100, 2) + "% (Bonferroni over the " + std::to_string(c.judged) +
                          " functions with 1% or more of either side's samples).") +
               "</p>\n";
        std::string sentences;
        for (const auto& ch : c.changes)
            if (std::string s = profileChangeSentence(c, ch, at); !s.empty()) sentences += "<li>" + htmlEscape(s) + ".</li>\n";
        if (!sentences.empty()) out += "<ul class=\"verdict\">\n" + sentences + "</ul>\n";
        {  // the table is written out when `t` goes, before the graph
            Table t(out, {"Function", c.baseline + " /1k tx", c.candidate + " /1k tx", "Change", "Interval", "Verdict"}, true);
            int shown = 0;
            for (const auto& ch : c.changes) {
                if (shown++ >= 15) break;
                const Comparison& k = ch.comparison;
                t.row({htmlEscape(ch.function), num(ch.aPerKTx, 2), num(ch.bPerKTx, 2), num(ch.bPerKTx - ch.aPerKTx, 2),
                       k.diffLow && k.diffHigh ? noWrap(num(*k.diffLow, 2) + " .. " + num(*k.diffHigh, 2)) : "&ndash;",
                       htmlEscape(k.verdict)});
            }
        }
        out += inlineFlame(svg);
    }
    for (const auto& p : in.topProfiles) {
        out += "<h3>" + htmlEscape(p.series + " at " + pointText(axis, p.clients) + ", " + std::to_string(p.runs) + " run" +
                                   (p.runs == 1 ? "" : "s") + ", " + std::to_string(p.samples) + " samples") +
               "</h3>\n";
        {
            Table t(out, {"Function", "Self /1k tx", "Total /1k tx", "Self share"});
            for (const auto& f : p.top)
                t.row({htmlEscape(f.function), num(f.selfPerKTx, 2), num(f.totalPerKTx, 2), num(f.selfSharePct, 1) + "%"});
        }
        out += inlineFlame(p.flameSvg);
    }
    if (!in.profilesMissing.empty()) {
        out += "<ul>\n";
        for (const auto& why : in.profilesMissing) out += "<li>" + htmlEscape(why) + "</li>\n";
        out += "</ul>\n";
    }
}

// The runs of the series the report shows.
std::vector<RunRecord> runsOfSeries(const std::vector<RunRecord>& runs, const std::vector<std::string>& seriesOrder) {
    std::vector<RunRecord> shown;
    for (const auto& r : runs)
        if (std::find(seriesOrder.begin(), seriesOrder.end(), r.series) != seriesOrder.end()) shown.push_back(r);
    return shown;
}

} // namespace

void addWaits(HtmlReportInput& in, const std::vector<RunRecord>& runs, const std::vector<std::string>& seriesOrder) {
    const ReportOptions& o = in.report.options;
    std::vector<RunRecord> shown = runsOfSeries(runs, seriesOrder);
    auto points = pointWaits(shown, seriesOrder);
    for (const auto& p : points)
        if (p.runsWithout > 0)
            for (const auto& why : p.why)
                in.waitsMissing.push_back(p.series + " at " + pointText(o.axis, p.clients) + ": " + std::to_string(p.runsWithout) +
                                          " run" + (p.runsWithout == 1 ? "" : "s") + " without waits (" + why + ").");
    if (!o.baseline.empty() && !o.candidate.empty()) {
        for (const auto& a : points) {
            if (a.series != o.baseline || a.runs.empty()) continue;
            for (const auto& b : points)
                if (b.series == o.candidate && b.clients == a.clients && !b.runs.empty())
                    in.waitComparisons.push_back(compareWaits(a, b, o.confidence, o.paired));
        }
        return;
    }
    for (const auto& series : seriesOrder) {
        const PointWaits* highest = nullptr;
        for (const auto& p : points)
            if (p.series == series && !p.runs.empty() && (!highest || p.clients > highest->clients)) highest = &p;
        if (highest) {
            auto events = pointWaitSummaries(*highest, o.confidence);
            if (events.size() > 10) events.resize(10);
            in.topWaits.emplace_back(*highest, std::move(events));
        }
    }
}

void addProfiles(HtmlReportInput& in, const std::vector<RunRecord>& runs, const std::vector<std::string>& seriesOrder) {
    const ReportOptions& o = in.report.options;
    std::vector<RunRecord> shown = runsOfSeries(runs, seriesOrder);
    auto points = pointProfiles(shown, seriesOrder);
    bool any = false;
    for (const auto& p : points) any = any || !p.runs.empty();
    for (const auto& p : points)
        if (p.runsWithout > 0 && any)  // nothing profiled at all is one line, not one per point
            for (const auto& why : p.why)
                in.profilesMissing.push_back(p.series + " at " + pointText(o.axis, p.clients) + ": " +
                                             std::to_string(p.runsWithout) + " run" + (p.runsWithout == 1 ? "" : "s") +
                                             " without a CPU profile (" + why + ").");
    if (!o.baseline.empty() && !o.candidate.empty()) {
        for (const auto& a : points) {
            if (a.series != o.baseline || a.runs.empty()) continue;
            for (const auto& b : points)
                if (b.series == o.candidate && b.clients == a.clients && !b.runs.empty())
                    in.profileComparisons.emplace_back(compareProfiles(a, b, o.confidence, o.paired),
                                                       diffFlameSvg(points, o.axis, a.series, b.series, a.clients));
        }
        return;
    }
    for (const auto& series : seriesOrder) {
        const PointProfile* highest = nullptr;
        for (const auto& p : points)
            if (p.series == series && !p.runs.empty() && (!highest || p.clients > highest->clients)) highest = &p;
        if (!highest) continue;
        HtmlReportInput::ProfilePoint p;
        p.series = series;
        p.clients = highest->clients;
        p.runs = highest->runs.size();
        p.samples = highest->samples();
        p.top = topFunctions(*highest);
        if (p.top.size() > 10) p.top.resize(10);
        p.flameSvg = pointFlameSvg(points, o.axis, series, highest->clients);
        in.topProfiles.push_back(std::move(p));
    }
}

void addStatements(HtmlReportInput& in, const std::vector<RunRecord>& runs, const std::vector<std::string>& seriesOrder) {
    const ReportOptions& o = in.report.options;
    std::vector<RunRecord> shown = runsOfSeries(runs, seriesOrder);
    auto points = pointStatements(shown, seriesOrder);
    auto find = [&](const std::string& series, int clients) -> const PointStatements* {
        for (const auto& p : points)
            if (p.series == series && p.clients == clients) return &p;
        return nullptr;
    };
    for (const auto& p : points)
        if (p.runsWithout > 0)
            for (const auto& why : p.why) {
                std::string line = p.series + " at " + pointText(o.axis, p.clients) + ": " + std::to_string(p.runsWithout) +
                                   " run" + (p.runsWithout == 1 ? "" : "s") + " without statements (" + why + ").";
                in.statementsMissing.push_back(line);
            }
    if (!o.baseline.empty() && !o.candidate.empty()) {
        for (const auto& p : points) {
            if (p.series != o.baseline || p.runs == 0) continue;
            const PointStatements* b = find(o.candidate, p.clients);
            if (b && b->runs > 0) in.statementComparisons.push_back(compareStatements(p, *b, o.confidence, o.paired));
        }
        return;
    }
    for (const auto& series : seriesOrder) {
        const PointStatements* highest = nullptr;
        for (const auto& p : points)
            if (p.series == series && p.runs > 0 && (!highest || p.clients > highest->clients)) highest = &p;
        if (highest) in.topStatements.emplace_back(*highest, topStatements(*highest, o.confidence, 10));
    }
}

std::string htmlReport(const HtmlReportInput& in) {
    const StatsReport& r = in.report;
    const ReportOptions& o = r.options;
    const std::string metric = runMetricName(o.metric), level = confidenceLabel(o.confidence);
    std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>ScaleLab: " +
                      htmlEscape(in.title) + "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n";
    out += "<h1>" + htmlEscape(in.title) + "</h1>\n<p class=\"meta\">Report written by ScaleLab " +
           htmlEscape(scalelabVersion()) + " at " + htmlEscape(in.generatedAt) + ". Charts: " + htmlEscape(in.view) +
           ". Only completed runs that are not excluded count in points and statistics.</p>\n";

    if (!in.note.empty()) out += "<div class=\"note\">" + htmlEscape(in.note) + "</div>\n";

    out += "<h2>Charts</h2>\n";
    for (size_t i = 0; i < in.charts.size(); ++i) {
        const HtmlChart& c = in.charts[i];
        const std::string id = "chart" + std::to_string(i + 1);
        std::string drawings = c.narrowSvg.empty()
                                   ? inlineSvg(c.svg, id + "-")
                                   : "<div class=\"wide\">" + inlineSvg(c.svg, id + "-") + "</div>\n<div class=\"narrow\">" +
                                         inlineSvg(c.narrowSvg, id + "n-") + "</div>";
        out += "<figure>\n" + drawings + "\n<figcaption>" + htmlEscape(c.caption) + "</figcaption>\n</figure>\n";
    }

    out += "<h2>Points</h2>\n<p>" + htmlEscape(metric + " (" + runMetricUnit(o.metric) + "), mean with " + level +
                                                " confidence interval (Student's t) over the runs of each point.") + "</p>\n";
    {
        Table t(out, {"Series", pointAxisHeading(o.axis), "n", "Mean", "sd", "CI low", "CI high",
                      "Median", "Min", "Max"});
        for (const auto& p : r.points) {
            const PointSummary& s = p.summary;
            t.row({htmlEscape(p.series), std::to_string(p.clients), std::to_string(s.n), num(s.mean, 2),
                   s.n > 1 ? num(s.sd, 2) : "&ndash;", htmlLow(s), opt(s.ciHigh, 2), num(s.median, 2), num(s.min, 2),
                   num(s.max, 2)});
        }
    }

    if (r.verdict) {
        const CurveVerdict& v = *r.verdict;
        out += "<h2>Comparison</h2>\n<p>" +
               htmlEscape(o.candidate + " against " + o.baseline + " (" +
                          (o.paired ? "paired by round" : "Welch's t-test") + ", " + metric + ").") +
               "</p>\n<ul class=\"verdict\">\n";
        for (const auto& sentence : v.summary) out += "<li>" + htmlEscape(sentence) + ".</li>\n";
        if (!r.why.empty()) {
            out += "</ul>\n<p>Why (where the sessions waited and, where profiled, where the server&#39;s CPU went; the Waits and CPU profile sections have each point):</p>\n<ul class=\"verdict\">\n";
            for (const auto& line : r.why) out += "<li>" + htmlEscape(line) + ".</li>\n";
        }
        out += "</ul>\n<p>" +
               htmlEscape(std::string("Change interval: ") +
                          (v.judged > 1 ? "simultaneous (Bonferroni over " + std::to_string(v.judged) +
                                              " client counts), so all hold together at " + level
                                        : level) +
                          ". Runs/side: runs on each side that would detect a " + num(v.options.changePct, 0) +
                          "% change with " + num(100 * v.options.power, 0) + "% power at the corrected level.") +
               "</p>\n";
        std::vector<std::string> head{pointAxisHeading(o.axis), o.baseline + " mean", o.candidate + " mean", "Change", "Change interval",
                                      "p", "p adjusted", "Verdict", "Runs/side"};
        const std::optional<double>& margin = v.options.equivalencePct;
        if (margin) head.push_back("Same within ±" + num(*margin, 1) + "%");
        Table t(out, head, true);
        for (const auto& p : v.points) {
            const Comparison& c = p.comparison;
            std::string runs = !c.singleRunSide.empty()
                                   ? (p.advice.runsForSingleSide ? std::to_string(*p.advice.runsForSingleSide) + " of the " +
                                                                       c.singleRunSide
                                                                 : "&ndash;")
                               : p.advice.runsForCurve ? std::to_string(*p.advice.runsForCurve)
                                                       : "&ndash;";
            std::vector<std::string> row{
                std::to_string(p.clients), num(c.a.mean, 2), num(c.b.mean, 2),
                c.percentChange ? signedPct(*c.percentChange) : "&ndash;",
                p.simultaneousLow ? intervalCell(changeIntervalText(p.simultaneousLow, p.simultaneousHigh)) : "&ndash;",
                opt(c.pValue, 4), opt(p.pAdjusted, 4), htmlEscape(pointCallName(p.call)), runs};
            if (margin) row.push_back(!p.equivalent ? "&ndash;" : *p.equivalent ? "yes" : "not shown");
            t.row(row);
        }
    } else if (o.baseline.empty()) {
        out += "<h2>Comparison</h2>\n<p>One series: nothing to compare it with.</p>\n";
        if (!r.why.empty()) {  // the knee's line
            out += "<p>Why (where the sessions waited and, where profiled, where the server&#39;s CPU went; the Waits and CPU profile sections have each point):</p>\n<ul class=\"verdict\">\n";
            for (const auto& line : r.why) out += "<li>" + htmlEscape(line) + ".</li>\n";
            out += "</ul>\n";
        }
    }

    if (o.usl) {
        out += "<h2>Universal Scalability Law</h2>\n<p>X(N) = &lambda;N / (1 + &sigma;(N&minus;1) + &kappa;N(N&minus;1)), "
               "fitted to the point means" + std::string(o.weighted ? ", weighted by 1/variance" : "") +
               "; &plusmn; one standard error.</p>\n";
        Table t(out, {"Series", "Points", "λ", "σ", "κ", "R²", "κ > 0 (95%)", "N*", "X(N*)", "Note"});
        auto pm = [](double v, double se, int d) { return num(v, d) + (std::isnan(se) ? "" : " &plusmn; " + num(se, d)); };
        for (const auto& row : r.usl) {
            if (!row.fit) {
                t.row({htmlEscape(row.series), std::to_string(row.points), "&ndash;", "&ndash;", "&ndash;", "&ndash;",
                       "&ndash;", "&ndash;", "&ndash;", "no fit: " + htmlEscape(row.error)});
                continue;
            }
            const UslFit& f = *row.fit;
            t.row({htmlEscape(row.series), std::to_string(f.points), pm(f.lambda, f.lambdaSe, 2), pm(f.sigma, f.sigmaSe, 5),
                   pm(f.kappa, f.kappaSe, 6), num(f.rSquared, 4), f.kappaAboveZero ? "yes" : "no",
                   f.peakClients ? pm(*f.peakClients, f.peakClientsSe.value_or(NAN), 1) : "&ndash;",
                   f.peakThroughput ? pm(*f.peakThroughput, f.peakThroughputSe.value_or(NAN), 1) : "&ndash;",
                   htmlEscape(f.note)});
        }
    }

    if (o.peak) {
        out += "<h2>Peaks</h2>\n<p>" +
               htmlEscape("Each series' highest mean " + metric +
                          (o.peakBaseline.empty() ? std::string() : ", and as % of " + o.peakBaseline + "'s peak") + ".") +
               "</p>\n";
        Table t(out, {"Series", "Clients at peak", "Mean", "CI low", "CI high",
                      o.peakBaseline.empty() ? std::string("% of a baseline") : "% of " + o.peakBaseline});
        for (const auto& p : r.peaks)
            t.row({htmlEscape(p.series), std::to_string(p.clients), num(p.at.mean, 2), htmlLow(p.at),
                   opt(p.at.ciHigh, 2), opt(p.percentOfBaseline, 1, "%")});
    }

    statementsSection(out, in);
    waitsSection(out, in);
    profilesSection(out, in);

    out += "<h2>Runs</h2>\n";
    {
        // The offered rate where some run had one (pgbench -R): "none" for an unthrottled run.
        bool rated = std::any_of(in.runs.begin(), in.runs.end(), [](const RunRecord& run) { return offeredRateOf(run) > 0; });
        std::vector<std::string> head{"Id", "Series", "Clients", "Offered tps", "Round", "Status", "tps", "p95 ms", "Failures",
                                      "Flags", "Note / error"};
        if (!rated) head.erase(head.begin() + 3);
        Table t(out, head);
        for (const auto& run : in.runs) {
            std::string flags = run.flags.joined(", ");
            if (run.excluded) flags += (flags.empty() ? "" : ", ") + std::string("excluded");
            std::string words = htmlEscape(run.note);
            if (!run.error.empty()) words += (words.empty() ? "" : "<br>") + htmlEscape(run.error);
            std::vector<std::string> cells{std::to_string(run.id), htmlEscape(run.series), std::to_string(run.clients),
                                           offeredRateOf(run) > 0 ? rateNumber(offeredRateOf(run)) : "none",
                                           std::to_string(run.repetition), htmlEscape(runStatusName(run.status)),
                                           num(run.tps, 1), num(run.latency.p95Ms, 3), std::to_string(run.failures),
                                           htmlEscape(flags), words};
            if (!rated) cells.erase(cells.begin() + 3);
            t.row(cells,
                  run.excluded ? "excluded" : run.status == RunStatus::Completed ? "" : "failed");
        }
    }

    out += "<h2>Overview</h2>\n" + overviewHtml(in.overview);
    out += "</body>\n</html>\n";
    return out;
}

} // namespace scalelab
