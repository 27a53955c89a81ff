#include "report/WaitText.h"

#include "report/ReportCells.h"
#include "util/Error.h"
#include "util/Format.h"

#include <algorithm>
#include <cstdio>

namespace scalelab {
namespace {

std::string cell(const char* f, double v) { return report_cells::number(f, v); }

std::string pad(std::string s, size_t width, bool left = false) {
    if (s.size() >= width) return s;
    return left ? s + std::string(width - s.size(), ' ') : std::string(width - s.size(), ' ') + s;
}

std::string msInterval(const PointSummary& s) {
    if (!s.ciLow || !s.ciHigh) return cell("%.4f", s.mean);
    return cell("%.4f", s.mean) + " (" + cell("%.4f", *s.ciLow) + (s.ciLowClamped ? "^" : "") + " .. " +
           cell("%.4f", *s.ciHigh) + ")";
}

std::string pointHeading(const PointWaits& p, PointAxis axis) {
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

const PointWaits* find(const std::vector<PointWaits>& points, const std::string& series, int clients) {
    for (const auto& p : points)
        if (p.series == series && p.clients == clients) return &p;
    return nullptr;
}

void pointTable(std::string& out, const PointWaits& p, const WaitTextOptions& o) {
    out += pointHeading(p, o.axis);
    if (p.runs.empty()) return;
    auto events = pointWaitSummaries(p, o.confidence);
    char ci[48];
    std::snprintf(ci, sizeof ci, "ms/tx (%g%% CI)", o.confidence * 100);
    out += "  " + pad("sessions", 10) + pad("share", 8) + "  " + pad(ci, 30, true) + "  wait event\n";
    int shown = 0;
    for (const auto& e : events) {
        if (o.top > 0 && shown++ >= o.top) break;
        out += "  " + pad(cell("%.2f", e.sessions), 10) + pad(cell("%.1f%%", e.sharePct), 8) + "  " +
               pad(msInterval(e.msPerTx), 30, true) + "  " + e.event + "\n";
    }
    if (o.top > 0 && events.size() > static_cast<size_t>(o.top))
        out += "  (" + std::to_string(events.size() - static_cast<size_t>(o.top)) + " more: --top 0 shows all)\n";
    if (std::any_of(events.begin(), events.end(), [](const WaitSummary& e) { return e.msPerTx.ciLowClamped; }))
        out += std::string("  ") + report_cells::kClampedNote + "\n";
    auto others = otherBackendWaits(p);
    if (!others.empty()) {
        out += "  other backends (average busy):";
        for (size_t i = 0; i < others.size() && i < 5; ++i) out += (i ? ", " : " ") + others[i].first + " " + cell("%.2f", others[i].second);
        out += "\n";
    }
}

void comparisonTable(std::string& out, const WaitComparison& c, const WaitTextOptions& o) {
    char head[256];
    std::snprintf(head, sizeof head,
                  "%s against %s, %s: wait ms per transaction by event, %s, %.4g%% intervals (Bonferroni over %zu events)\n",
                  c.candidate.c_str(), c.baseline.c_str(), pointText(o.axis, c.clients).c_str(),
                  c.paired ? "paired by round" : "Welch", c.confidence * 100, c.changes.size());
    out += head;
    const std::string at = "at " + pointText(o.axis, c.clients);
    for (const auto& ch : c.changes)
        if (std::string s = waitChangeSentence(c, ch, at); !s.empty()) out += "  " + s + ".\n";
    out += "  A: " + c.baseline + ", B: " + c.candidate + "\n";
    out += "  " + pad("A ms/tx", 10) + pad("B ms/tx", 10) + pad("B - A", 10) + "  " + pad("interval (ms)", 22, true) +
           pad("verdict", 32, true) + "  wait event\n";
    int shown = 0;
    for (const auto& ch : c.changes) {
        if (o.top > 0 && shown++ >= o.top) break;
        const Comparison& k = ch.comparison;
        std::string interval = k.diffLow && k.diffHigh ? formatSigned(*k.diffLow, 4) + " .. " + formatSigned(*k.diffHigh, 4) : "-";
        out += "  " + pad(cell("%.4f", ch.a.msPerTx.mean), 10) + pad(cell("%.4f", ch.b.msPerTx.mean), 10) +
               pad(formatSigned(k.difference, 4), 10) + "  " + pad(interval, 22, true) + pad(k.verdict, 32, true) + "  " +
               ch.event + "\n";
    }
    if (o.top > 0 && c.changes.size() > static_cast<size_t>(o.top))
        out += "  (" + std::to_string(c.changes.size() - static_cast<size_t>(o.top)) + " more: --top 0 shows all)\n";
}

} // namespace

std::string waitsText(const std::vector<PointWaits>& points, const WaitTextOptions& o) {
    auto hasSeries = [&](const std::string& s) {
        return std::any_of(points.begin(), points.end(), [&](const PointWaits& p) { return p.series == s; });
    };
    for (const std::string* s : {&o.baseline, &o.candidate})
        if (!s->empty() && !hasSeries(*s)) throw Error("--compare: no completed runs of a series '" + *s + "'");
    if (o.clients > 0 && std::none_of(points.begin(), points.end(), [&](const PointWaits& p) { return p.clients == o.clients; }))
        throw Error("--clients " + std::to_string(o.clients) + ": the experiment has no completed run at " +
                    pointText(o.axis, o.clients));
    std::string out = "Waits (the load's sessions inside a transaction, sampled through each run's counted window)\n";
    if (points.empty()) return out + "  no completed runs\n";
    if (!o.baseline.empty()) {
        for (const auto& a : points) {
            if (a.series != o.baseline || (o.clients > 0 && a.clients != o.clients)) continue;
            const PointWaits* b = find(points, o.candidate, a.clients);
            if (!b) continue;
            out += "\n";
            if (a.runs.empty() || b->runs.empty()) {
                out += pointHeading(a.runs.empty() ? a : *b, o.axis);
                continue;
            }
            comparisonTable(out, compareWaits(a, *b, o.confidence, o.paired), o);
        }
        return out;
    }
    for (const auto& p : points) {
        if (o.clients > 0 && p.clients != o.clients) continue;
        out += "\n";
        pointTable(out, p, o);
    }
    return out;
}

} // namespace scalelab
