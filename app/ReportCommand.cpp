#include "ReportCommand.h"

#include "stats/ExperimentPoints.h"
#include "stats/Peak.h"
#include "stats/Usl.h"
#include "store/Csv.h"
#include "store/Export.h"
#include "store/Import.h"
#include "util/Error.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

namespace scalelab::app {
namespace {

std::string fmt(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}
std::string opt(const char* f, const std::optional<double>& v) { return v ? fmt(f, *v) : "-"; }

std::vector<std::string> seriesOrder(ExperimentStore& store) {
    std::vector<std::string> order;
    for (const auto& s : store.series()) order.push_back(s.label);
    return order;
}

} // namespace

int runReportCommand(const ReportArgs& a) {
    try {
        auto store = ExperimentStore::open(a.experiment, true);
        RunMetric metric = parseRunMetric(a.metric);
        if (a.usl && !isThroughputMetric(metric))
            throw Error(std::string("--usl fits throughput (tps, logical_reads); ") + runMetricName(metric) +
                        " is not one, and the law does not describe it");
        auto order = seriesOrder(*store);
        auto runs = store->runs();
        auto points = pointRuns(runs, order, metric);
        auto summaries = summarizePoints(points, a.confidence);
        if (points.empty()) throw Error(a.experiment + " has no completed runs with " + runMetricName(metric));
        std::string level = fmt("%.0f%%", 100 * a.confidence);
        std::unique_ptr<CsvWriter> csv;
        auto openCsv = [&](const std::string& name) {
            std::filesystem::create_directories(a.csvDir);
            csv = std::make_unique<CsvWriter>(a.csvDir + "/" + name);
        };

        std::printf("%s (%s), mean with %s confidence interval (Student's t) over the runs of each point\n",
                    runMetricName(metric), runMetricUnit(metric), level.c_str());
        std::printf("%-20s %7s %3s %12s %10s %12s %12s\n", "series", "clients", "n", "mean", "sd", "ci low", "ci high");
        if (!a.csvDir.empty()) {
            openCsv("points.csv");
            csv->row({"series", "clients", "metric", "n", "mean", "sd", "confidence", "ci_low", "ci_high"});
        }
        for (const auto& p : summaries) {
            const PointSummary& s = p.summary;
            std::printf("%-20s %7d %3d %12.2f %10s %12s %12s\n", p.series.c_str(), p.clients, s.n, s.mean,
                        s.n > 1 ? fmt("%.2f", s.sd).c_str() : "-", opt("%.2f", s.ciLow).c_str(), opt("%.2f", s.ciHigh).c_str());
            if (csv)
                csv->row({p.series, std::to_string(p.clients), runMetricName(metric), std::to_string(s.n), csvNumber(s.mean),
                          s.n > 1 ? csvNumber(s.sd) : "", csvNumber(a.confidence), s.ciLow ? csvNumber(*s.ciLow) : "",
                          s.ciHigh ? csvNumber(*s.ciHigh) : ""});
        }
        if (csv) csv->close();

        if (!a.compare.empty()) {
            const std::string &A = a.compare[0], &B = a.compare[1];
            for (const auto& name : {A, B})
                if (std::find(order.begin(), order.end(), name) == order.end())
                    throw Error("--compare: no series named '" + name + "' in " + a.experiment);
            std::printf("\n%s vs %s (%s, %s), %s intervals\n", B.c_str(), A.c_str(),
                        a.paired ? "paired by round" : "Welch's t-test", runMetricName(metric), level.c_str());
            std::printf("%7s %12s %12s %11s %9s %21s %9s  %s\n", "clients", A.substr(0, 12).c_str(), B.substr(0, 12).c_str(),
                        "difference", "change", "change interval", "p", "verdict");
            if (!a.csvDir.empty()) {
                openCsv("compare.csv");
                csv->row({"clients", "baseline", "candidate", "baseline_mean", "candidate_mean", "difference", "diff_low",
                          "diff_high", "percent_change", "percent_low", "percent_high", "p_value", "paired", "verdict"});
            }
            for (const auto& [clients, c] : compareSeries(points, A, B, a.paired, a.confidence)) {
                std::string interval = c.percentLow ? fmt("%+.1f%%", *c.percentLow) + " .. " + fmt("%+.1f%%", *c.percentHigh) : "-";
                std::printf("%7d %12.2f %12.2f %11.2f %+8.2f%% %21s %9s  %s\n", clients, c.a.mean, c.b.mean, c.difference,
                            c.percentChange, interval.c_str(), opt("%.4f", c.pValue).c_str(), c.verdict.c_str());
                if (csv)
                    csv->row({std::to_string(clients), A, B, csvNumber(c.a.mean), csvNumber(c.b.mean), csvNumber(c.difference),
                              c.diffLow ? csvNumber(*c.diffLow) : "", c.diffHigh ? csvNumber(*c.diffHigh) : "",
                              csvNumber(c.percentChange), c.percentLow ? csvNumber(*c.percentLow) : "",
                              c.percentHigh ? csvNumber(*c.percentHigh) : "", c.pValue ? csvNumber(*c.pValue) : "",
                              a.paired ? "1" : "0", c.verdict});
            }
            if (csv) csv->close();
        }

        if (a.usl) {
            std::printf("\nUniversal Scalability Law fits (%s): X(N) = lambda N / (1 + sigma (N-1) + kappa N (N-1))%s\n",
                        runMetricName(metric), a.weighted ? ", weighted by 1/variance" : "");
            if (!a.csvDir.empty()) {
                openCsv("usl.csv");
                csv->row({"series", "model", "lambda", "lambda_se", "sigma", "sigma_se", "kappa", "kappa_se", "r_squared",
                          "kappa_above_zero", "converged", "peak_clients", "peak_clients_se", "peak_throughput",
                          "peak_throughput_se", "amdahl_lambda", "amdahl_lambda_se", "amdahl_sigma", "amdahl_sigma_se",
                          "amdahl_r_squared", "points", "note"});
            }
            auto pm = [](double v, double se, const char* f) {
                return fmt(f, v) + (std::isnan(se) ? std::string(" +/- -") : " +/- " + fmt(f, se));
            };
            for (const auto& series : order) {
                std::vector<ScalingPoint> sp;
                for (const auto& p : summaries)
                    if (p.series == series)
                        sp.push_back({static_cast<double>(p.clients), p.summary.mean, p.summary.sd, p.summary.n});
                if (sp.empty()) continue;
                try {
                    UslFit f = fitUsl(sp, a.weighted);
                    std::printf("%-20s USL: lambda %s, sigma %s, kappa %s, R^2 %.4f, kappa > 0 (95%%): %s",
                                series.c_str(), pm(f.lambda, f.lambdaSe, "%.3f").c_str(), pm(f.sigma, f.sigmaSe, "%.5f").c_str(),
                                pm(f.kappa, f.kappaSe, "%.6f").c_str(), f.rSquared, f.kappaAboveZero ? "yes" : "no");
                    if (f.peakClients)
                        std::printf(", N* %s, X(N*) %s", pm(*f.peakClients, f.peakClientsSe.value_or(NAN), "%.1f").c_str(),
                                    pm(*f.peakThroughput, f.peakThroughputSe.value_or(NAN), "%.1f").c_str());
                    std::printf("\n");
                    if (f.amdahl)
                        std::printf("%-20s   Amdahl (second model, kappa = 0): lambda %s, sigma %s, R^2 %.4f, no peak\n", "",
                                    pm(f.amdahl->lambda, f.amdahl->lambdaSe, "%.3f").c_str(),
                                    pm(f.amdahl->sigma, f.amdahl->sigmaSe, "%.5f").c_str(), f.amdahl->rSquared);
                    if (!f.note.empty()) std::printf("%-20s   %s\n", "", f.note.c_str());
                    auto o = [](const std::optional<double>& v) { return v ? csvNumber(*v) : std::string(); };
                    if (csv)
                        csv->row({series, f.model, csvNumber(f.lambda), csvNumber(f.lambdaSe), csvNumber(f.sigma),
                                  csvNumber(f.sigmaSe), csvNumber(f.kappa), csvNumber(f.kappaSe), csvNumber(f.rSquared),
                                  f.kappaAboveZero ? "1" : "0", f.converged ? "1" : "0", o(f.peakClients), o(f.peakClientsSe),
                                  o(f.peakThroughput), o(f.peakThroughputSe),
                                  f.amdahl ? csvNumber(f.amdahl->lambda) : "", f.amdahl ? csvNumber(f.amdahl->lambdaSe) : "",
                                  f.amdahl ? csvNumber(f.amdahl->sigma) : "", f.amdahl ? csvNumber(f.amdahl->sigmaSe) : "",
                                  f.amdahl ? csvNumber(f.amdahl->rSquared) : "", std::to_string(f.points), f.note});
                } catch (const Error& e) {
                    std::printf("%-20s no fit: %s\n", series.c_str(), e.what());
                    if (csv)
                        csv->row({series, "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "",
                                  std::to_string(sp.size()), e.what()});
                }
            }
            if (csv) csv->close();
        }

        if (a.peak) {
            auto rows = peakTable(summaries, a.baseline);
            std::printf("\nPeak %s per series%s\n", runMetricName(metric),
                        a.baseline.empty() ? "" : (", as % of " + a.baseline + "'s peak").c_str());
            std::printf("%-20s %7s %12s %12s %12s %10s\n", "series", "clients", "mean", "ci low", "ci high", "% base");
            if (!a.csvDir.empty()) {
                openCsv("peak.csv");
                csv->row({"series", "clients", "mean", "ci_low", "ci_high", "percent_of_baseline"});
            }
            for (const auto& r : rows) {
                std::printf("%-20s %7d %12.2f %12s %12s %10s\n", r.series.c_str(), r.clients, r.at.mean,
                            opt("%.2f", r.at.ciLow).c_str(), opt("%.2f", r.at.ciHigh).c_str(),
                            opt("%.1f", r.percentOfBaseline).c_str());
                if (csv)
                    csv->row({r.series, std::to_string(r.clients), csvNumber(r.at.mean), r.at.ciLow ? csvNumber(*r.at.ciLow) : "",
                              r.at.ciHigh ? csvNumber(*r.at.ciHigh) : "", r.percentOfBaseline ? csvNumber(*r.percentOfBaseline) : ""});
            }
            if (csv) csv->close();
        }
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "scalelab: error: " << e.what() << "\n";
        return 1;
    }
}

int runImportCommand(const ImportArgs& a) {
    try {
        int n = importIntoFile(a.output, a.files, a.series, SourceMachine{a.cores, a.pus}, a.append, a.again);
        std::fprintf(stderr, "scalelab: imported %d run%s into %s\n", n, n == 1 ? "" : "s", a.output.c_str());
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "scalelab: error: " << e.what() << "\n";
        return 1;
    }
}

} // namespace scalelab::app
