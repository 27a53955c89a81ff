#include "ReportCommand.h"
#include "CommandLine.h"
#include "CommandErrors.h"

#include "stats/Report.h"
#include "report/ReportText.h"
#include "report/StatementText.h"
#include "report/ProfileText.h"
#include "report/WaitText.h"
#include "store/CombinedRuns.h"
#include "store/ExperimentOverview.h"
#include "store/Import.h"
#include "report/ReportCsv.h"
#include "util/Error.h"

#include <memory>
#include <cstdio>
#include <iostream>

namespace scalelab::app {

int runReportCommand(const ReportArgs& a) {
    return runCommand([&] {
        ReportOptions o;
        if (a.statements + a.waits + a.profile > 1)
            throw UsageError("--statements, --waits and --profile are reports of their own: give one");
        const char* tables = a.statements ? "--statements" : a.waits ? "--waits" : a.profile ? "--profile" : nullptr;
        if (tables && (!a.equivalence.empty() || a.usl || a.peak || !a.csvDir.empty() || !a.format.empty() || a.metric != "tps"))
            throw UsageError(std::string(tables) + " shows its own tables: it takes --compare, --paired, --clients, --top, "
                             "--confidence and --with, not --metric, --equivalence, --usl, --peak, --csv or --format");
        if (!tables && (a.clients != 0 || a.top != 10))
            throw UsageError("--clients and --top choose the rows of --statements, --waits or --profile: give one of them");
        if (!a.equivalence.empty()) {  // a usage error, said before anything is read
            if (a.compare.empty()) throw UsageError("--equivalence needs --compare A B: the two series to hold the same");
            try {
                o.equivalencePct = parseMarginPct(a.equivalence, "--equivalence");
            } catch (const Error& e) {
                throw UsageError(e.what());
            }
        }
        CombinedRuns runs = combineExperiments(a.experiment, a.with);
        o.axis = a.x.empty() ? naturalAxis(runs.runs) : parsePointAxis(a.x);
        if (tables) {  // the statements', waits' or profiles' tables: the same choices of rows
            AxisRuns onAxis = runsOnAxis(runs.runs, runs.order, o.axis);
            StatementTextOptions to;
            to.clients = a.clients;
            to.top = a.top;
            if (!a.compare.empty()) to.baseline = a.compare[0], to.candidate = a.compare[1];
            to.paired = a.paired;
            to.confidence = a.confidence;
            to.axis = o.axis;
            std::string out = a.waits     ? waitsText(pointWaits(onAxis.runs, onAxis.curves), to)
                              : a.profile ? profileText(pointProfiles(onAxis.runs, onAxis.curves), to)
                                          : statementsText(pointStatements(onAxis.runs, onAxis.curves), runs.statementTexts, to);
            std::fputs(terminalSafe(out, true).c_str(), stdout);  // labels from a file, statements' texts from the server
            return 0;
        }
        o.metric = parseRunMetric(a.metric);
        o.confidence = a.confidence;
        if (!a.compare.empty()) o.baseline = a.compare[0], o.candidate = a.compare[1];
        o.paired = a.paired;
        o.detectPct = a.detectPct;
        o.usl = a.usl;
        o.weighted = a.weighted;
        o.peak = a.peak;
        o.peakBaseline = a.baseline;
        StatsReport report = buildStatsReport(runs.runs, runs.order, o, a.experiment);
        std::string out;
        if (a.format.empty()) {
            out = reportText(report);
        } else {
            std::vector<std::string> summary = experimentSummary(runs.provenance, runs.runs);
            if (a.format == "markdown") {
                out = reportMarkdown(report, summary);
            } else {  // text: the summary above the console tables, as a mailing list post
                for (const auto& line : summary) out += line + "\n";
                out += (summary.empty() ? "" : "\n") + reportText(report);
            }
        }
        std::fputs(terminalSafe(out, true).c_str(), stdout);  // labels are from a file
        if (!a.csvDir.empty()) writeReportCsv(report, a.csvDir);
        return 0;
    });
}

int runImportCommand(const ImportArgs& a) {
    return runCommand([&] {
        if (importsAnExperiment(a)) return 0;
        int n = importIntoFile(a.output, a.files, a.series, SourceMachine{a.cores, a.pus}, a.append, a.again);
        std::fprintf(stderr, "scalelab: imported %d run%s into %s\n", n, n == 1 ? "" : "s", a.output.c_str());
        return 0;
    });
}


Command addImportCommand(CommandLine& line) {
    auto import = std::make_shared<ImportArgs>();
    auto* importCmd = line.app.add_subcommand("import", "Import pgbench outputs or a runs CSV into an experiment file");
    importCmd->add_option("files", import->files, "pgbench output files, runs .csv files, or one experiment file (copied whole)")->required()->check(CLI::ExistingFile);
    importCmd->add_option("--series", import->series, "Series the pgbench outputs belong to");
    importCmd->add_option("-o,--output", import->output, "Experiment (a new one, or an existing one with --append): a file, "
                                                         "a store location, or NAME with --store")->required();
    importCmd->add_flag("--append", import->append, "Import into the existing experiment file");
    importCmd->add_flag("--again", import->again, "Import a file whose content is already in the experiment once more");
    auto* importCores = importCmd->add_option("--cores", import->cores, "Cores of the machine the runs were measured on (chart markers)")
                            ->check(CLI::PositiveNumber);
    importCmd->add_option("--pus", import->pus, "PUs (hardware threads) of that machine; default: as many as cores")
        ->check(CLI::PositiveNumber)->needs(importCores);
    line.takesStore(importCmd, {&import->output});
    return {importCmd, [import] { return runImportCommand(*import); }};
}

Command addReportCommand(CommandLine& line) {
    auto report = std::make_shared<ReportArgs>();
    auto* reportCmd = line.app.add_subcommand("report", "Points, comparisons, USL fits and peaks of an experiment");
    reportCmd->add_option("experiment", report->experiment, kExperimentHelp)->required();
    reportCmd->add_option("--metric", report->metric, "tps, latency_mean, latency_p95, latency_p99, logical_reads, cpu_busy, server_cpu, nopm, tpm (TPROC-C)");
    reportCmd->add_option("--x", report->x, "The points' x axis: clients, rate (the offered rate of a plan with a list of rates) "
                                           "or scale (of a plan with a list of data scales); default: as the runs call for")
        ->check(CLI::IsMember({"clients", "rate", "scale"}));
    reportCmd->add_option("--confidence", report->confidence, "Confidence level of the intervals")->check(CLI::Range(0.5, 0.9999));
    reportCmd->add_option("--compare", report->compare, "Compare series B against baseline A")->expected(2);
    reportCmd->add_flag("--paired", report->paired, "Compare runs of the same repetition round pairwise");
    reportCmd->add_option("--detect", report->detectPct, "Run-count advice: the change (% of the baseline) to detect "
                                                        "with 80% power (default 5)")->check(CLI::Range(0.01, 1000.0));
    reportCmd->add_option("--equivalence", report->equivalence, "With --compare: is B the same as A within this "
                                                               "margin, e.g. 2% (two one-sided tests, corrected over "
                                                               "client counts)");
    reportCmd->add_flag("--usl", report->usl, "Fit the Universal Scalability Law per series");
    reportCmd->add_flag("--weighted", report->weighted, "Weight the USL fit by 1/variance of each point");
    reportCmd->add_flag("--peak", report->peak, "Peak table");
    reportCmd->add_option("--baseline", report->baseline, "Series the peak table compares with");
    reportCmd->add_flag("--statements", report->statements, "The statements each point ran (pg_stat_statements), "
                                                          "by time; with --compare, those whose mean time changed");
    reportCmd->add_flag("--waits", report->waits, "Where each point's sessions waited (average active sessions and "
                                                  "wait ms per transaction by wait event); with --compare, the events "
                                                  "whose wait per transaction changed");
    reportCmd->add_flag("--profile", report->profile, "Where each point's server CPU went (functions by self CPU "
                                                      "samples per 1,000 transactions, from diagnostics.cpu_profile); "
                                                      "with --compare, the functions whose self time changed");
    reportCmd->add_option("--clients", report->clients, "With --statements, --waits or --profile: only the points at this x (client count, tps offered or scale, as the axis)")->check(CLI::PositiveNumber);
    reportCmd->add_option("--top", report->top, "With --statements, --waits or --profile: rows per table (0: all)")->check(CLI::NonNegativeNumber);
    reportCmd->add_option("--csv", report->csvDir, "Also write the tables as CSV files into this directory");
    reportCmd->add_option("--format", report->format,
                          "text (fixed-width, for a mailing list) or markdown (for an issue tracker): the tables with "
                          "a summary of the machine, server, workload and runs, to paste")
        ->check(CLI::IsMember({"text", "markdown"}));
    reportCmd->add_option("--with", report->with, "Add the series of another experiment (file or store location), "
                                                 "named \"LABEL [NAME]\" (repeatable)")->check(experimentCheck());
    line.takesStore(reportCmd, {&report->experiment});
    return {reportCmd, [report] { return runReportCommand(*report); }};
}

} // namespace scalelab::app
