#include "ReportCommand.h"
#include "CommandErrors.h"

#include "stats/Report.h"
#include "report/ReportText.h"
#include "report/StatementText.h"
#include "store/CombinedRuns.h"
#include "store/ExperimentOverview.h"
#include "store/Import.h"
#include "report/ReportCsv.h"
#include "util/Error.h"

#include <cstdio>
#include <iostream>

namespace scalelab::app {

int runReportCommand(const ReportArgs& a) {
    return runCommand([&] {
        ReportOptions o;
        if (a.statements && (!a.equivalence.empty() || a.usl || a.peak || !a.csvDir.empty() || !a.format.empty() || a.metric != "tps"))
            throw UsageError("--statements shows the statements' tables: it takes --compare, --paired, --clients, --top, "
                             "--confidence and --with, not --metric, --equivalence, --usl, --peak, --csv or --format");
        if (!a.statements && (a.clients != 0 || a.top != 10))
            throw UsageError("--clients and --top choose the statements' tables: give --statements");
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
        if (a.statements) {
            AxisRuns onAxis = runsOnAxis(runs.runs, runs.order, o.axis);
            StatementTextOptions so;
            so.clients = a.clients;
            so.top = a.top;
            if (!a.compare.empty()) so.baseline = a.compare[0], so.candidate = a.compare[1];
            so.paired = a.paired;
            so.confidence = a.confidence;
            so.axis = o.axis;
            std::string out = statementsText(pointStatements(onAxis.runs, onAxis.curves), runs.statementTexts, so);
            std::fputs(terminalSafe(out, true).c_str(), stdout);  // statements' texts are from the server
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

} // namespace scalelab::app
