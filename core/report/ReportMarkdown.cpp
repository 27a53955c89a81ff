// The Markdown renderer of a StatsReport (`scalelab report --format markdown`, the window's Copy
// as Markdown): GitHub-flavoured tables with the same figures, footnotes and verdict sentences
// as the console tables (ReportText.cpp), for an issue tracker or a wiki.
#include "report/ReportText.h"

#include "stats/Compare.h"
#include "report/ReportCells.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace scalelab {
namespace {

using report_cells::low;
using report_cells::number;
using report_cells::optional;

// A table cell or list item from a user's words (a series label, a setting): pipes, emphasis,
// code and HTML are written as text, a line break as a space. An underscore inside a word
// (shared_buffers) is text in GitHub's Markdown already and stays readable unescaped.
std::string escaped(const std::string& text) {
    std::string out;
    auto word = [&](size_t i) { return i < text.size() && std::isalnum(static_cast<unsigned char>(text[i])); };
    for (size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (c == '\n' || c == '\r') {
            out += ' ';
            continue;
        }
        bool special = std::string("\\|*`[]<>").find(c) != std::string::npos ||
                       (c == '_' && !(i > 0 && word(i - 1) && word(i + 1)));
        if (special) out += '\\';
        out += c;
    }
    return out;
}

// "| a | b |", and a header with its alignment row: `align` has 'l' or 'r' per column.
std::string row(const std::vector<std::string>& cells) {
    std::string out = "|";
    for (const auto& c : cells) out += " " + c + " |";
    return out + "\n";
}
std::string header(const std::vector<std::string>& names, const std::string& align) {
    std::string out = row(names) + "|";
    for (size_t i = 0; i < names.size(); ++i) out += i < align.size() && align[i] == 'l' ? " --- |" : " ---: |";
    return out + "\n";
}

} // namespace

std::string reportMarkdown(const StatsReport& r, const std::vector<std::string>& summary) {
    const ReportOptions& o = r.options;
    std::string level = confidenceLabel(o.confidence);
    std::string metric = runMetricName(o.metric);
    std::string out;
    if (!summary.empty()) {
        out += "## Experiment\n\n";
        for (const auto& line : summary) {
            size_t colon = line.find(": ");
            out += colon == std::string::npos ? "- " + escaped(line) + "\n"
                                              : "- **" + escaped(line.substr(0, colon)) + ":** " + escaped(line.substr(colon + 2)) + "\n";
        }
        out += "\n";
    }
    out += "## " + metric + " by " + pointAxisWords(o.axis) + "\n\n" + metric + " (" + runMetricUnit(o.metric) + "), mean with " + level +
           " confidence interval (Student's t) over the runs of each point" +
           (r.machines.empty() ? "" : "; machine: " + escaped(r.machines)) + ".\n\n";
    out += header({"series", pointAxisName(o.axis), "n", "mean", "sd", "ci low", "ci high"}, "l");
    for (const auto& p : r.points) {
        const PointSummary& s = p.summary;
        out += row({escaped(p.series), std::to_string(p.clients), std::to_string(s.n), number("%.2f", s.mean),
                    s.n > 1 ? number("%.2f", s.sd) : "-", low(s), optional("%.2f", s.ciHigh)});
    }
    if (std::any_of(r.points.begin(), r.points.end(), [](const SeriesPoint& p) { return p.summary.ciLowClamped; }))
        out += std::string("\n") + report_cells::kClampedNote + "\n";

    if (r.verdict) {
        const CurveVerdict& v = *r.verdict;
        bool tost = v.options.equivalencePct.has_value();
        out += "\n## " + escaped(o.candidate) + " vs " + escaped(o.baseline) + "\n\n" +
               (o.paired ? "Paired by round" : "Welch's t-test") + ", " + metric + ", " +
               (v.judged > 1 ? "Bonferroni over " + std::to_string(v.judged) + " " + pointNoun(o.axis, true) + "; intervals hold together at " + level
                             : level + " intervals") +
               ".\n\n";
        std::vector<std::string> names = {pointAxisName(o.axis), escaped(o.baseline), escaped(o.candidate), "change", "change interval",
                                          "p", "p adj.", "verdict", "runs/side"};
        if (tost) names.push_back("within +/-" + number("%g", *v.options.equivalencePct) + "%");
        out += header(names, std::string(8, 'r') + "ll");
        for (const auto& p : v.points) {
            const Comparison& c = p.comparison;
            std::vector<std::string> cells = {std::to_string(p.clients), number("%.2f", c.a.mean), number("%.2f", c.b.mean),
                                              report_cells::change(p),
                                              changeIntervalText(p.simultaneousLow, p.simultaneousHigh),
                                              optional("%.4f", c.pValue), optional("%.4f", p.pAdjusted),
                                              pointCallName(p.call), report_cells::runsPerSide(p)};
            if (tost) cells.push_back(!p.equivalent ? "-" : *p.equivalent ? "yes" : "not shown");
            out += row(cells);
        }
        out += "\nruns/side: runs on each side to detect a " + number("%g", v.options.changePct) + "% change with " +
               number("%.0f", 100 * v.options.power) + "% power at the corrected level.";
        if (std::any_of(v.points.begin(), v.points.end(), [](const PointVerdict& p) { return !p.comparison.singleRunSide.empty(); }))
            out += " \\*: a side with one run: the runs of that side, against the other's runs as they are.";
        if (std::any_of(v.points.begin(), v.points.end(), [](const PointVerdict& p) {
                return changeIntervalText(p.simultaneousLow, p.simultaneousHigh) == kTooFewToBound;
            }))
            out += std::string(" ") + kTooFewToBound + ": the interval spans more than " + number("%g", kUnboundedRatioSpan) +
                   "x between its ends; runs/side says how many would bound it.";
        if (tost)
            out += " within: two one-sided tests against +/-" + number("%g", *v.options.equivalencePct) +
                   "%, corrected as the calls are (the " + (v.equivalenceLevel ? number("%.4g%%", 100 * *v.equivalenceLevel) : "-") +
                   " interval).";
        out += "\n\n**Verdict:**\n\n";
        for (const auto& sentence : v.summary) out += "- " + escaped(sentence) + ".\n";
    }
    if (!r.why.empty()) {
        out += "\n**Why** (where the sessions waited and, where profiled, where the server's CPU went):\n\n";
        for (const auto& line : r.why) out += "- " + escaped(line) + ".\n";
    }
    if (!r.diagnoses.empty()) {
        out += "\n## Where the time went\n\nEach series at its last point with waits or a CPU profile (`report --waits` "
               "and `report --profile` show every point).\n\n";
        out += header({"series", "at", "sessions wait most on", "server CPU goes most to"}, "lrll");
        for (const auto& d : r.diagnoses)
            out += row({escaped(d.series), escaped(pointText(o.axis, d.x)), d.waits.empty() ? "not sampled" : escaped(d.waits),
                        d.cpu.empty() ? "not profiled" : escaped(d.cpu)});
    }

    if (o.usl) {
        out += "\n## Universal Scalability Law (" + metric + ")\n\nX(N) = lambda N / (1 + sigma (N-1) + kappa N (N-1))" +
               (o.weighted ? ", weighted by 1/variance" : "") + ".\n\n";
        out += header({"series", "lambda", "sigma", "kappa", "R^2", "kappa > 0 (95%)", "N*", "X(N*)", "note"}, "lrrrrlrrl");
        for (const auto& u : r.usl) {
            if (!u.fit) {
                out += row({escaped(u.series), "-", "-", "-", "-", "-", "-", "-", "no fit: " + escaped(u.error)});
                continue;
            }
            const UslFit& f = *u.fit;
            std::string note = f.note;
            if (f.amdahl)
                note += std::string(note.empty() ? "" : "; ") + "Amdahl (kappa = 0): lambda " +
                        report_cells::plusMinus(f.amdahl->lambda, f.amdahl->lambdaSe, "%.3f") + ", sigma " +
                        report_cells::plusMinus(f.amdahl->sigma, f.amdahl->sigmaSe, "%.5f") + ", R^2 " +
                        number("%.4f", f.amdahl->rSquared) + (f.amdahl->converged ? "" : " (did not converge)");
            out += row({escaped(u.series), report_cells::plusMinus(f.lambda, f.lambdaSe, "%.3f"),
                        report_cells::plusMinus(f.sigma, f.sigmaSe, "%.5f"), report_cells::plusMinus(f.kappa, f.kappaSe, "%.6f"),
                        number("%.4f", f.rSquared), f.kappaAboveZero ? "yes" : "no",
                        f.peakClients ? report_cells::plusMinus(*f.peakClients, f.peakClientsSe.value_or(NAN), "%.1f") : "-",
                        f.peakThroughput ? report_cells::plusMinus(*f.peakThroughput, f.peakThroughputSe.value_or(NAN), "%.1f") : "-",
                        escaped(note)});
        }
    }

    if (o.peak) {
        out += "\n## Peak " + metric + " per series" +
               (o.peakBaseline.empty() ? "" : ", as % of " + escaped(o.peakBaseline) + "'s peak") + "\n\n";
        out += header({"series", "clients", "mean", "ci low", "ci high", "% base"}, "l");
        for (const auto& p : r.peaks)
            out += row({escaped(p.series), std::to_string(p.clients), number("%.2f", p.at.mean), low(p.at),
                        optional("%.2f", p.at.ciHigh), optional("%.1f", p.percentOfBaseline)});
        if (std::any_of(r.peaks.begin(), r.peaks.end(), [](const PeakRow& p) { return p.at.ciLowClamped; }))
            out += std::string("\n") + report_cells::kClampedNote + "\n";
    }
    return out;
}

} // namespace scalelab
