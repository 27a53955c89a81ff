#include "report/WaitText.h"

#include "report/ReportCells.h"
#include "util/Error.h"
#include "util/Format.h"

#include <algorithm>
#include <cstdio>

namespace scalelab {
namespace {

std::string waitCell(const char* f, double v) { return report_cells::number(f, v); }

std::string waitPad(std::string s, size_t width, bool left = false) {
    if (s.size() >= width) return s;
    return left ? s + std::string(width - s.size(), ' ') : std::string(width - s.size(), ' ') + s;
}

std::string msInterval(const PointSummary& s) {
    if (!s.ciLow || !s.ciHigh) return waitCell("%.4f", s.mean);
    return waitCell("%.4f", s.mean) + " (" + waitCell("%.4f", *s.ciLow) + (s.ciLowClamped ? "^" : "") + " .. " +
           waitCell("%.4f", *s.ciHigh) + ")";
}

std::string waitPointHeading(const PointWaits& p, PointAxis axis) {
    std::string h = p.series + ", " + pointText(axis, p.clients) + ": " + std::to_string(p.runs.size()) + " run" +
                    (p.runs.size() == 1 ? "" : "s") + " with waits";
    if (!p.runs.empty()) h += " (" + p.runs.front().source + (p.runs.size() > 1 ? " in the first" : "") + ")";
    if (p.runsWithout > 0) {
        h += ", " + std::to_string(p.runsWithout) + " without (";
        for (size_t i = 0; i < p.why.size(); ++i) h += (i ? "; " : "") + p.why[i];
        h += ")";
    }
    return h + "\n";
}

void waitPointTable(std::string& out, const PointWaits& p, const WaitTextOptions& o) {
    out += waitPointHeading(p, o.axis);
    if (p.runs.empty()) return;
    auto events = pointWaitSummaries(p, o.confidence);
    char ci[48];
    std::snprintf(ci, sizeof ci, "ms/tx (%g%% CI)", o.confidence * 100);
    out += "  " + waitPad("sessions", 10) + waitPad("share", 8) + "  " + waitPad(ci, 30, true) + "  wait event\n";
    int shown = 0;
    for (const auto& e : events) {
        if (o.top > 0 && shown++ >= o.top) break;
        out += "  " + waitPad(waitCell("%.2f", e.sessions), 10) + waitPad(waitCell("%.1f%%", e.sharePct), 8) + "  " +
               waitPad(msInterval(e.msPerTx), 30, true) + "  " + e.event + "\n";
    }
    if (o.top > 0 && events.size() > static_cast<size_t>(o.top))
        out += "  (" + std::to_string(events.size() - static_cast<size_t>(o.top)) + " more: --top 0 shows all)\n";
    if (std::any_of(events.begin(), events.end(), [](const WaitSummary& e) { return e.msPerTx.ciLowClamped; }))
        out += std::string("  ") + report_cells::kClampedNote + "\n";
    auto others = otherBackendWaits(p);
    if (!others.empty()) {
        out += "  other backends (average busy):";
        for (size_t i = 0; i < others.size() && i < 5; ++i) out += (i ? ", " : " ") + others[i].first + " " + waitCell("%.2f", others[i].second);
        out += "\n";
    }
}

void waitComparisonTable(std::string& out, const WaitComparison& c, const WaitTextOptions& o) {
    char head[256];
    std::snprintf(head, sizeof head,
                  "%s against %s, %s: wait ms per transaction by event, %s, %.4g%% intervals (Bonferroni over %zu events)\n",
                  c.candidate.c_str(), c.baseline.c_str(), pointText(o.axis, c.clients).c_str(),
                  c.paired ? "paired by round" : "Welch", c.confidence * 100, c.changes.size());
    out += head;
    if (!c.note.empty()) out += "  Note: " + c.note + ".\n";
    const std::string at = "at " + pointText(o.axis, c.clients);
    for (const auto& ch : c.changes)
        if (std::string s = waitChangeSentence(c, ch, at); !s.empty()) out += "  " + s + ".\n";
    out += "  A: " + c.baseline + ", B: " + c.candidate + "\n";
    out += "  " + waitPad("A ms/tx", 10) + waitPad("B ms/tx", 10) + waitPad("B - A", 10) + "  " + waitPad("interval (ms)", 22, true) +
           waitPad("verdict", 32, true) + "  wait event\n";
    int shown = 0;
    for (const auto& ch : c.changes) {
        if (o.top > 0 && shown++ >= o.top) break;
        const Comparison& k = ch.comparison;
        std::string interval = k.diffLow && k.diffHigh ? formatSigned(*k.diffLow, 4) + " .. " + formatSigned(*k.diffHigh, 4) : "-";
        out += "  " + waitPad(waitCell("%.4f", ch.a.msPerTx.mean), 10) + waitPad(waitCell("%.4f", ch.b.msPerTx.mean), 10) +
               waitPad(formatSigned(k.difference, 4), 10) + "  " + waitPad(interval, 22, true) + waitPad(k.verdict, 32, true) + "  " +
               ch.event + "\n";
    }
    if (o.top > 0 && c.changes.size() > static_cast<size_t>(o.top))
        out += "  (" + std::to_string(c.changes.size() - static_cast<size_t>(o.top)) + " more: --top 0 shows all)\n";
}

} // namespace

std::string waitsText(const std::vector<PointWaits>& points, const WaitTextOptions& o) {
    return pointTablesText(
        points, o, "Waits (the load's sessions inside a transaction, sampled through each run's counted window)\n",
        waitPointTable,
        [&](std::string& out, const PointWaits& a, const PointWaits& b) {
            waitComparisonTable(out, compareWaits(a, b, o.confidence, o.paired), o);
        },
        waitPointHeading);
}

} // namespace scalelab
