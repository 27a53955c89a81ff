#include "report/ReportCsv.h"

#include "util/Error.h"

#include <filesystem>
#include <map>

namespace scalelab {

std::string rateField(double rate) { return rate > 0 ? csvNumber(rate) : ""; }
std::string scaleField(int64_t scale) { return scale > 0 ? std::to_string(scale) : ""; }

void writePointsHeader(CsvWriter& csv, PointAxis axis, bool withCell) {
    std::vector<std::string> head{"series", pointAxisName(axis)};
    if (withCell) head.push_back("rate"), head.push_back("scale");
    for (const char* name : {"metric", "n", "mean", "sd", "se", "confidence", "ci_low", "ci_high", "median", "min", "max",
             "ci_low_clamped"})
        head.push_back(name);
    csv.row(head);
}

void writePointRows(CsvWriter& csv, const std::vector<SeriesPoint>& points, RunMetric metric, std::optional<GridCell> cell) {
    for (const auto& pt : points) {
        const PointSummary& s = pt.summary;
        std::vector<std::string> row{pt.series, std::to_string(pt.clients)};
        if (cell) row.push_back(rateField(cell->rate)), row.push_back(scaleField(cell->scale));
        for (std::string field : {std::string(runMetricName(metric)), std::to_string(s.n), csvNumber(s.mean),
                                 s.n > 1 ? csvNumber(s.sd) : "", s.n > 1 ? csvNumber(s.se) : "", csvNumber(s.confidence),
                                 csvNumber(s.ciLow), csvNumber(s.ciHigh), csvNumber(s.median), csvNumber(s.min), csvNumber(s.max),
                                 std::string(s.ciLowClamped ? "1" : "0")})
            row.push_back(std::move(field));
        csv.row(row);
    }
}

std::vector<std::string> writeReportCsv(const StatsReport& r, const std::string& dir, bool withPoints) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw Error("cannot create " + dir + ": " + ec.message());
    std::vector<std::string> written;
    const ReportOptions& o = r.options;
    if (withPoints) {
        CsvWriter csv(dir + "/points.csv");
        writePointsHeader(csv, o.axis);
        writePointRows(csv, r.points, o.metric);
        csv.close();
        written.push_back(dir + "/points.csv");
    }
    if (r.verdict) {
        const CurveVerdict& v = *r.verdict;
        CsvWriter csv(dir + "/compare.csv");
        csv.row({pointAxisName(o.axis), "baseline", "candidate", "baseline_mean", "candidate_mean", "difference", "diff_low",
                 "diff_high", "percent_change", "percent_low", "percent_high", "p_value", "paired", "verdict",
                 "judged", "p_adjusted", "simultaneous_low", "simultaneous_high", "call", "why", "detect_pct",
                 "power_now", "runs_per_side", "runs_for_curve", "half_width_pct", "curve_half_width_pct",
                 "single_run_side", "runs_for_single_side", "equivalence_margin_pct", "equivalence_low",
                 "equivalence_high", "equivalent"});
        for (const auto& p : v.points) {
            const Comparison& c = p.comparison;
            const RunCountAdvice& a = p.advice;
            auto count = [](const std::optional<int>& n) { return n ? std::to_string(*n) : std::string(); };
            csv.row({std::to_string(p.clients), o.baseline, o.candidate, csvNumber(c.a.mean), csvNumber(c.b.mean),
                     csvNumber(c.difference), csvNumber(c.diffLow), csvNumber(c.diffHigh), csvNumber(c.percentChange),
                     csvNumber(c.percentLow), csvNumber(c.percentHigh), csvNumber(c.pValue), o.paired ? "1" : "0", c.verdict,
                     std::to_string(v.judged), csvNumber(p.pAdjusted), csvNumber(p.simultaneousLow), csvNumber(p.simultaneousHigh),
                     pointCallName(p.call), p.why, csvNumber(a.changePct), csvNumber(a.powerNow), count(a.runsPerSide),
                     count(a.runsForCurve), csvNumber(a.halfWidthPct), csvNumber(a.curveHalfWidthPct), c.singleRunSide,
                     count(a.runsForSingleSide), csvNumber(v.options.equivalencePct), csvNumber(p.equivalenceLow),
                     csvNumber(p.equivalenceHigh), p.equivalent ? (*p.equivalent ? "1" : "0") : ""});
        }
        csv.close();
        written.push_back(dir + "/compare.csv");
        CsvWriter summary(dir + "/verdict.csv");
        summary.row({"baseline", "candidate", "metric", "judged", "confidence", "sentence"});
        for (const auto& sentence : v.summary)
            summary.row({o.baseline, o.candidate, runMetricName(o.metric), std::to_string(v.judged),
                         csvNumber(o.confidence), sentence});
        summary.close();
        written.push_back(dir + "/verdict.csv");
    }
    if (o.usl) {
        CsvWriter csv(dir + "/usl.csv");
        const std::vector<std::string> header = {
            "series", "model", "lambda", "lambda_se", "sigma", "sigma_se", "kappa", "kappa_se", "r_squared",
            "kappa_above_zero", "converged", "peak_clients", "peak_clients_se", "peak_throughput",
            "peak_throughput_se", "amdahl_lambda", "amdahl_lambda_se", "amdahl_sigma", "amdahl_sigma_se",
            "amdahl_r_squared", "points", "note"};
        csv.row(header);
        for (const auto& row : r.usl) {
            if (!row.fit) {
                // A series without a fit: its name, points and why; every figure empty (missing).
                std::map<std::string, std::string> known = {
                    {"series", row.series}, {"points", std::to_string(row.points)}, {"note", row.error}};
                std::vector<std::string> fields;
                for (const auto& column : header) fields.push_back(known.count(column) ? known[column] : "");
                csv.row(fields);
                continue;
            }
            const UslFit& f = *row.fit;
            const auto& a = f.amdahl;
            csv.row({row.series, f.model, csvNumber(f.lambda), csvNumber(f.lambdaSe), csvNumber(f.sigma),
                     csvNumber(f.sigmaSe), csvNumber(f.kappa), csvNumber(f.kappaSe), csvNumber(f.rSquared),
                     f.kappaAboveZero ? "1" : "0", f.converged ? "1" : "0", csvNumber(f.peakClients), csvNumber(f.peakClientsSe),
                     csvNumber(f.peakThroughput), csvNumber(f.peakThroughputSe), a ? csvNumber(a->lambda) : "",
                     a ? csvNumber(a->lambdaSe) : "", a ? csvNumber(a->sigma) : "", a ? csvNumber(a->sigmaSe) : "",
                     a ? csvNumber(a->rSquared) : "", std::to_string(f.points), f.note});
        }
        csv.close();
        written.push_back(dir + "/usl.csv");
    }
    if (o.peak) {
        CsvWriter csv(dir + "/peak.csv");
        csv.row({"series", "clients", "mean", "ci_low", "ci_high", "percent_of_baseline", "ci_low_clamped"});
        for (const auto& p : r.peaks)
            csv.row({p.series, std::to_string(p.clients), csvNumber(p.at.mean), csvNumber(p.at.ciLow), csvNumber(p.at.ciHigh),
                     csvNumber(p.percentOfBaseline), p.at.ciLowClamped ? "1" : "0"});
        csv.close();
        written.push_back(dir + "/peak.csv");
    }
    return written;
}

} // namespace scalelab
