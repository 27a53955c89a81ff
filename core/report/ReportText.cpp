#include "report/ReportText.h"

#include "report/ReportCells.h"
#include "util/Format.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>

namespace scalelab {
namespace {

using report_cells::low;
using report_cells::optional;
std::string fmt(const char* f, double v) { return report_cells::number(f, v); }
std::string opt(const char* f, const std::optional<double>& v) { return optional(f, v); }
const std::string kClampedNote = std::string(report_cells::kClampedNote) + "\n";

// printf onto a string.
void add(std::string& out, const char* f, ...) __attribute__((format(printf, 2, 3)));
void add(std::string& out, const char* f, ...) {
    va_list ap, copy;
    va_start(ap, f);
    va_copy(copy, ap);
    int n = std::vsnprintf(nullptr, 0, f, copy);
    va_end(copy);
    if (n > 0) {
        std::string buf(static_cast<size_t>(n) + 1, '\0');
        std::vsnprintf(buf.data(), buf.size(), f, ap);
        buf.resize(static_cast<size_t>(n));
        out += buf;
    }
    va_end(ap);
}

std::string pm(double v, double se, const char* f) { return report_cells::plusMinus(v, se, f); }

} // namespace

std::string reportText(const StatsReport& r) {
    const ReportOptions& o = r.options;
    std::string out;
    std::string level = confidenceLabel(o.confidence);
    const char* metric = runMetricName(o.metric);
    add(out, "%s (%s), mean with %s confidence interval (Student's t) over the runs of each point\n", metric,
        runMetricUnit(o.metric), level.c_str());
    if (!r.machines.empty()) add(out, "machine: %s\n", r.machines.c_str());
    add(out, "%-20s %7s %3s %12s %10s %12s %12s\n", "series", pointAxisName(o.axis), "n", "mean", "sd", "ci low", "ci high");
    for (const auto& p : r.points) {
        const PointSummary& s = p.summary;
        add(out, "%-20s %7d %3d %12.2f %10s %12s %12s\n", p.series.c_str(), p.clients, s.n, s.mean,
            s.n > 1 ? fmt("%.2f", s.sd).c_str() : "-", low(s).c_str(), opt("%.2f", s.ciHigh).c_str());
    }
    if (std::any_of(r.points.begin(), r.points.end(), [](const SeriesPoint& p) { return p.summary.ciLowClamped; }))
        out += kClampedNote;

    if (r.verdict) {
        const CurveVerdict& v = *r.verdict;
        const std::string &A = o.baseline, &B = o.candidate;
        add(out, "\n%s vs %s (%s, %s): %s\n", B.c_str(), A.c_str(), o.paired ? "paired by round" : "Welch's t-test", metric,
            v.judged > 1 ? ("Bonferroni over " + std::to_string(v.judged) + " " + pointNoun(o.axis, true) + "; intervals hold together at " + level)
                               .c_str()
                         : (level + " intervals").c_str());
        bool tost = v.options.equivalencePct.has_value();
        // The series' columns as wide as their names: a name is never cut ("half the cor", issue 61.13).
        int wa = std::max<int>(12, static_cast<int>(A.size())), wb = std::max<int>(12, static_cast<int>(B.size()));
        add(out, "%7s %*s %*s %9s %21s %9s %9s %-14s %9s%s\n", pointAxisName(o.axis), wa, A.c_str(), wb, B.c_str(),
            "change", "change interval", "p", "p adj.", "verdict", "runs/side",
            tost ? fmt("  within +/-%g%%", *v.options.equivalencePct).c_str() : "");
        for (const auto& p : v.points) {
            const Comparison& c = p.comparison;
            std::string interval = changeIntervalText(p.simultaneousLow, p.simultaneousHigh);
            std::string runs = report_cells::runsPerSide(p);
            std::string change = report_cells::change(p);
            std::string same = !tost ? "" : !p.equivalent ? "  -" : *p.equivalent ? "  yes" : "  not shown";
            add(out, "%7d %*.2f %*.2f %9s %21s %9s %9s %-14s %9s%s\n", p.clients, wa, c.a.mean, wb, c.b.mean, change.c_str(),
                interval.c_str(), opt("%.4f", c.pValue).c_str(), opt("%.4f", p.pAdjusted).c_str(), pointCallName(p.call),
                runs.c_str(), same.c_str());
        }
        add(out, "runs/side: runs on each side to detect a %g%% change with %.0f%% power at the corrected level\n",
            v.options.changePct, 100 * v.options.power);
        bool single = false;
        for (const auto& p : v.points) single = single || !p.comparison.singleRunSide.empty();
        if (single) add(out, "*: a side with one run: the runs of that side, against the other's runs as they are\n");
        for (const auto& p : v.points)
            if (changeIntervalText(p.simultaneousLow, p.simultaneousHigh) == kTooFewToBound) {
                add(out, "%s: the interval spans more than %gx between its ends; runs/side says how many would bound it\n",
                    kTooFewToBound, kUnboundedRatioSpan);
                break;
            }
        if (tost)
            add(out, "within: two one-sided tests against +/-%g%%, corrected as the calls are (the %s interval)\n",
                *v.options.equivalencePct, v.equivalenceLevel ? fmt("%.4g%%", 100 * *v.equivalenceLevel).c_str() : "-");
        add(out, "\nVerdict:\n");
        for (const auto& sentence : v.summary) add(out, "  %s.\n", sentence.c_str());
    }
    if (!r.why.empty()) {
        add(out, "\nWhy (where the sessions waited and, where profiled, where the server's CPU went; report --waits and --profile show each point):\n");
        for (const auto& line : r.why) add(out, "  %s.\n", line.c_str());
    }

    if (o.usl) {
        add(out, "\nUniversal Scalability Law fits (%s): X(N) = lambda N / (1 + sigma (N-1) + kappa N (N-1))%s\n", metric,
            o.weighted ? ", weighted by 1/variance" : "");
        for (const auto& row : r.usl) {
            if (!row.fit) {
                add(out, "%-20s no fit: %s\n", row.series.c_str(), row.error.c_str());
                continue;
            }
            const UslFit& f = *row.fit;
            add(out, "%-20s USL: lambda %s, sigma %s, kappa %s, R^2 %.4f, kappa > 0 (95%%): %s", row.series.c_str(),
                pm(f.lambda, f.lambdaSe, "%.3f").c_str(), pm(f.sigma, f.sigmaSe, "%.5f").c_str(),
                pm(f.kappa, f.kappaSe, "%.6f").c_str(), f.rSquared, f.kappaAboveZero ? "yes" : "no");
            if (f.peakClients)
                add(out, ", N* %s, X(N*) %s", pm(*f.peakClients, f.peakClientsSe.value_or(NAN), "%.1f").c_str(),
                    pm(*f.peakThroughput, f.peakThroughputSe.value_or(NAN), "%.1f").c_str());
            add(out, "\n");
            if (f.amdahl)
                add(out, "%-20s   Amdahl (second model, kappa = 0): lambda %s, sigma %s, R^2 %.4f, no peak%s\n", "",
                    pm(f.amdahl->lambda, f.amdahl->lambdaSe, "%.3f").c_str(),
                    pm(f.amdahl->sigma, f.amdahl->sigmaSe, "%.5f").c_str(), f.amdahl->rSquared,
                    f.amdahl->converged ? "" : " (did not converge)");
            if (!f.note.empty()) add(out, "%-20s   %s\n", "", f.note.c_str());
        }
    }

    if (o.peak) {
        add(out, "\nPeak %s per series%s\n", metric,
            o.peakBaseline.empty() ? "" : (", as % of " + o.peakBaseline + "'s peak").c_str());
        add(out, "%-20s %7s %12s %12s %12s %10s\n", "series", "clients", "mean", "ci low", "ci high", "% base");
        for (const auto& p : r.peaks)
            add(out, "%-20s %7d %12.2f %12s %12s %10s\n", p.series.c_str(), p.clients, p.at.mean, low(p.at).c_str(),
                opt("%.2f", p.at.ciHigh).c_str(), opt("%.1f", p.percentOfBaseline).c_str());
        if (std::any_of(r.peaks.begin(), r.peaks.end(), [](const PeakRow& p) { return p.at.ciLowClamped; }))
            out += kClampedNote;
    }
    return out;
}

} // namespace scalelab
