#include "report/ProfileText.h"

#include "report/ReportCells.h"
#include "util/Format.h"

#include <cstdio>

namespace scalelab {
namespace {

std::string profileCell(double v) { return report_cells::number(v < 10 ? "%.2f" : "%.1f", v); }

std::string profilePad(std::string s, size_t width, bool left = false) {
    if (s.size() >= width) return s;
    return left ? s + std::string(width - s.size(), ' ') : std::string(width - s.size(), ' ') + s;
}

std::string profilePointHeading(const PointProfile& p, PointAxis axis) {
    std::string h = p.series + ", " + pointText(axis, p.clients) + ": " + std::to_string(p.runs.size()) + " run" +
                    (p.runs.size() == 1 ? "" : "s") + " with a CPU profile";
    if (!p.runs.empty()) h += " (" + p.runs.front().source + (p.runs.size() > 1 ? " in the first" : "") + ")";
    if (p.runsWithout > 0) {
        h += ", " + std::to_string(p.runsWithout) + " without (";
        for (size_t i = 0; i < p.why.size(); ++i) h += (i ? "; " : "") + p.why[i];
        h += ")";
    }
    return h + "\n";
}

void profilePointTable(std::string& out, const PointProfile& p, const ProfileTextOptions& o) {
    out += profilePointHeading(p, o.axis);
    if (p.runs.empty()) return;
    auto functions = topFunctions(p);
    out += "  " + profilePad("self/1k tx", 11) + profilePad("total/1k tx", 12) + profilePad("self %", 8) + "  function\n";
    int shown = 0;
    for (const auto& f : functions) {
        if (o.top > 0 && shown++ >= o.top) break;
        out += "  " + profilePad(profileCell(f.selfPerKTx), 11) + profilePad(profileCell(f.totalPerKTx), 12) +
               profilePad(report_cells::number("%.1f%%", f.selfSharePct), 8) + "  " + f.function + "\n";
    }
    if (o.top > 0 && functions.size() > static_cast<size_t>(o.top))
        out += "  (" + std::to_string(functions.size() - static_cast<size_t>(o.top)) + " more: --top 0 shows all)\n";
}

void profileComparisonTable(std::string& out, const ProfileComparison& c, const ProfileTextOptions& o) {
    char head[320];
    std::snprintf(head, sizeof head,
                  "%s against %s, %s: self CPU samples per 1,000 transactions by function, %s, %.4g%% intervals "
                  "(Bonferroni over the %d functions with %g%% or more of either side's samples)\n",
                  c.candidate.c_str(), c.baseline.c_str(), pointText(o.axis, c.clients).c_str(),
                  c.paired ? "paired by round" : "Welch", c.confidence * 100, c.judged, kJudgedSharePct);
    out += head;
    const std::string at = "at " + pointText(o.axis, c.clients);
    for (const auto& ch : c.changes)
        if (std::string s = profileChangeSentence(c, ch, at); !s.empty()) out += "  " + s + ".\n";
    out += "  A: " + c.baseline + ", B: " + c.candidate + "\n";
    out += "  " + profilePad("A /1k tx", 10) + profilePad("B /1k tx", 10) + profilePad("B - A", 10) + "  " +
           profilePad("interval", 22, true) + profilePad("verdict", 32, true) + "  function\n";
    int shown = 0;
    for (const auto& ch : c.changes) {
        if (o.top > 0 && shown++ >= o.top) break;
        const Comparison& k = ch.comparison;
        std::string interval = k.diffLow && k.diffHigh ? formatSigned(*k.diffLow, 2) + " .. " + formatSigned(*k.diffHigh, 2) : "-";
        out += "  " + profilePad(profileCell(ch.aPerKTx), 10) + profilePad(profileCell(ch.bPerKTx), 10) +
               profilePad(formatSigned(ch.bPerKTx - ch.aPerKTx, 2), 10) + "  " + profilePad(interval, 22, true) +
               profilePad(k.verdict, 32, true) + "  " + ch.function + "\n";
    }
    if (o.top > 0 && c.changes.size() > static_cast<size_t>(o.top))
        out += "  (" + std::to_string(c.changes.size() - static_cast<size_t>(o.top)) + " more: --top 0 shows all)\n";
}

} // namespace

std::string profileText(const std::vector<PointProfile>& points, const ProfileTextOptions& o) {
    return pointTablesText(
        points, o, "CPU profile (the server's processes on CPU, perf through each run's counted window)\n",
        profilePointTable,
        [&](std::string& out, const PointProfile& a, const PointProfile& b) {
            profileComparisonTable(out, compareProfiles(a, b, o.confidence, o.paired), o);
        },
        profilePointHeading);
}

} // namespace scalelab
