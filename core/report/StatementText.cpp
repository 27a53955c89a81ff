#include "report/StatementText.h"

#include "stats/PointGrouping.h"

#include "report/ReportCells.h"
#include "util/Error.h"
#include "util/Format.h"

#include <algorithm>
#include <cstdio>

namespace scalelab {
namespace {

std::string cellNumber(const char* f, double v) { return report_cells::number(f, v); }

std::string pad(std::string s, size_t width, bool left = false) {
    if (s.size() >= width) return s;
    return left ? s + std::string(width - s.size(), ' ') : std::string(width - s.size(), ' ') + s;
}

std::string interval(const PointSummary& s, const char* f) {
    if (!s.ciLow || !s.ciHigh) return cellNumber(f, s.mean);
    return cellNumber(f, s.mean) + " (" + cellNumber(f, *s.ciLow) + (s.ciLowClamped ? "^" : "") + " .. " + cellNumber(f, *s.ciHigh) + ")";
}

std::string pointHeading(const PointStatements& p, PointAxis axis) {
    std::string h = p.series + ", " + pointText(axis, p.clients) + ": " + std::to_string(p.runs) + " run" +
                    (p.runs == 1 ? "" : "s") + " with statements";
    if (p.runsWithout > 0) {
        h += ", " + std::to_string(p.runsWithout) + " without (";
        for (size_t i = 0; i < p.why.size(); ++i) h += (i ? "; " : "") + p.why[i];
        h += ")";
    }
    if (p.evicted) h += "; pg_stat_statements evicted entries during a run (pg_stat_statements.max): some statements are missing";
    return h + "\n";
}

void topTable(std::string& out, const PointStatements& p, const StatementTexts& texts, const StatementTextOptions& o) {
    out += pointHeading(p, o.axis);
    if (p.runs == 0) return;
    auto top = topStatements(p, o.confidence, o.top);
    char ci[32];
    std::snprintf(ci, sizeof ci, "mean ms (%g%% CI)", o.confidence * 100);
    out += "  " + pad("ms/run", 10) + pad("share", 8) + pad("calls/tx", 10) + "  " + pad(ci, 28, true) +
           pad("rows/call", 10) + pad("hit/call", 10) + pad("read/call", 10) + "  statement\n";
    for (const auto& s : top) {
        out += "  " + pad(cellNumber("%.1f", s.totalMsPerRun), 10) + pad(cellNumber("%.1f%%", s.sharePct), 8) +
               pad(cellNumber("%.2f", s.callsPerTransaction), 10) + "  " + pad(interval(s.meanMs, "%.4f"), 28, true) +
               pad(cellNumber("%.2f", s.rowsPerCall), 10) + pad(cellNumber("%.1f", s.hitPerCall), 10) +
               pad(cellNumber("%.2f", s.readPerCall), 10) + "  " + statementLine(texts, s.queryId, 70) + "\n";
    }
    if (o.top > 0 && p.byQueryId.size() > static_cast<size_t>(o.top))
        out += "  (" + std::to_string(p.byQueryId.size() - static_cast<size_t>(o.top)) + " more: --top 0 shows all)\n";
    if (std::any_of(top.begin(), top.end(), [](const StatementSummary& s) { return s.meanMs.ciLowClamped; }))
        out += std::string("  ") + report_cells::kClampedNote + "\n";
}

void comparisonTable(std::string& out, const StatementComparison& c, const StatementTexts& texts, int top, PointAxis axis) {
    char head[256];
    std::snprintf(head, sizeof head,
                  "%s against %s, %s: each statement's mean time, %s, %.4g%% intervals (Bonferroni over %zu statements)\n",
                  c.candidate.c_str(), c.baseline.c_str(), pointText(axis, c.clients).c_str(),
                  c.paired ? "paired by round" : "Welch", c.confidence * 100, c.changes.size());
    out += head;
    out += "  A: " + c.baseline + ", B: " + c.candidate + "\n";
    out += "  " + pad("A mean ms", 11) + pad("B mean ms", 11) + pad("change", 10) + "  " + pad("interval", 24, true) +
           pad("verdict", 32, true) + "  statement\n";
    int shown = 0;
    for (const auto& ch : c.changes) {
        if (top > 0 && shown++ >= top) break;
        const Comparison& k = ch.comparison;
        std::string change = k.percentChange ? formatSigned(*k.percentChange, 1) + "%" : "-";
        out += "  " + pad(cellNumber("%.4f", ch.a.meanMs.mean), 11) + pad(cellNumber("%.4f", ch.b.meanMs.mean), 11) + pad(change, 10) +
               "  " + pad(changeIntervalText(k.percentLow, k.percentHigh), 24, true) + pad(k.verdict, 32, true) + "  " +
               statementLine(texts, ch.queryId, 60) + "\n";
    }
    if (top > 0 && c.changes.size() > static_cast<size_t>(top))
        out += "  (" + std::to_string(c.changes.size() - static_cast<size_t>(top)) + " more: --top 0 shows all)\n";
    for (const auto& id : c.onlyBaseline) out += "  only " + c.baseline + " ran: " + statementLine(texts, id, 80) + "\n";
    for (const auto& id : c.onlyCandidate) out += "  only " + c.candidate + " ran: " + statementLine(texts, id, 80) + "\n";
}

} // namespace

std::string statementLine(const StatementTexts& texts, const std::string& queryId, size_t width) {
    auto it = texts.find(queryId);
    if (it == texts.end()) return "(text not stored; queryid " + queryId + ")";
    std::string line;
    for (char ch : it->second) {
        bool space = ch == ' ' || ch == '\n' || ch == '\t' || ch == '\r';
        if (space) {
            if (!line.empty() && line.back() != ' ') line += ' ';
        } else {
            line += ch;
        }
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    if (width > 3 && line.size() > width) line = line.substr(0, width - 3) + "...";
    return line;
}

std::string statementsText(const std::vector<PointStatements>& points, const StatementTexts& texts,
                           const StatementTextOptions& o) {
    checkTableChoices(points, o);
    std::string out = "Statements (pg_stat_statements, each run's counted window)\n";
    if (points.empty()) return out + "  no completed runs\n";
    if (!o.baseline.empty()) {
        std::vector<int> counts;
        for (const auto& p : points)
            if (p.series == o.baseline && (o.clients == 0 || p.clients == o.clients)) counts.push_back(p.clients);
        for (int n : counts) {
            const PointStatements* a = findPoint(points, o.baseline, n);
            const PointStatements* b = findPoint(points, o.candidate, n);
            if (!b) continue;
            out += "\n";
            if (a->runs == 0 || b->runs == 0) {
                out += pointHeading(a->runs == 0 ? *a : *b, o.axis);
                continue;
            }
            comparisonTable(out, compareStatements(*a, *b, o.confidence, o.paired), texts, o.top, o.axis);
        }
        return out;
    }
    for (const auto& p : points) {
        if (o.clients > 0 && p.clients != o.clients) continue;
        out += "\n";
        topTable(out, p, texts, o);
    }
    return out;
}

} // namespace scalelab
