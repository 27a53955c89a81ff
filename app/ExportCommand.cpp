#include "ReportCommand.h"
#include "CommandLine.h"
#include "CommandErrors.h"

#include "GuiCommand.h"

#include "stats/LatencyThroughput.h"
#include "stats/RoundSpread.h"
#include "store/CopyExperiment.h"
#include "report/Export.h"
#include "report/ProfileExport.h"
#include "stats/Report.h"
#include "store/CombinedRuns.h"
#include "util/AtomicFile.h"
#include "util/Error.h"

#include <memory>
#include <fstream>
#include <iostream>

namespace scalelab::app {

int runExportCommand(const ExportArgs& a) {
    return runCommand([&] {
        const bool flame = !a.flame.empty() || !a.flameDiff.empty();
        if (flame) {  // the SVG is a flame graph, of one point: nothing of the scaling chart applies
            if (!a.flame.empty() && !a.flameDiff.empty()) throw UsageError("--flame and --flame-diff are two graphs: give one");
            if (a.svg.empty()) throw UsageError("a flame graph is drawn as SVG: give --svg FILE");
            if (a.clients <= 0) throw UsageError("a flame graph is of one point: give --clients N (its x)");
            if (!a.ratio.empty() || a.distribution > 0 || !a.rounds.empty() || !a.latencyTps.empty() || !a.againstTps.empty() ||
                a.usl || a.log2 || a.errorBars != "ci" || a.metric != "tps" || !a.series.empty())
                throw UsageError("--flame and --flame-diff draw a CPU profile: the scaling chart's options do not apply");
        } else if (a.clients != 0) {
            throw UsageError("--clients chooses the point of --flame or --flame-diff: give one of them");
        }
        if (a.csvDir.empty() && a.json.empty() && a.png.empty() && a.svg.empty() && a.html.empty() && a.to.empty() &&
            a.folded.empty())
            throw UsageError("say what to export: --csv DIR, --json FILE, --png FILE, --svg FILE, --html FILE, --folded DIR, "
                             "--to EXPERIMENT");
        if (!a.ratio.empty()) {
            // Refused before anything is written: these describe the series chart, not a ratio.
            if (a.png.empty() && a.svg.empty())
                throw UsageError("--ratio draws the chart of a PNG or SVG: give --png FILE or --svg FILE");
            if (!a.series.empty()) throw UsageError("--ratio names its series; --series does not apply to it");
            if (a.usl) throw UsageError("--usl fits series, not ratios; leave it out with --ratio");
            if (a.errorBars != "ci")
                throw UsageError("--ratio's error bars are the confidence interval of the ratio; --error-bars " +
                                 a.errorBars + " does not apply");
        }
        if (a.distribution > 0) {
            // The latency distribution's chart: the series' percentile spectra, nothing of the
            // scaling chart's view but its series.
            if (a.png.empty() && a.svg.empty())
                throw UsageError("--distribution draws the chart of a PNG or SVG: give --png FILE or --svg FILE");
            if (!a.ratio.empty()) throw UsageError("--distribution and --ratio are two different charts: give one");
            if (a.usl || a.log2 || a.errorBars != "ci" || a.metric != "tps")
                throw UsageError("--distribution draws latency percentiles: --metric, --log2, --error-bars and --usl "
                                 "describe the scaling chart and do not apply");
        }
        // A chart of a latency percentile (the rounds' box plots, latency against achieved tps):
        // of the view only its series (and its x); one chart at a time.
        auto percentileChart = [&](const std::string& value, const char* flag, const char* what, bool other,
                                   bool anyY = false) {
            if (value.empty()) return;
            if (a.png.empty() && a.svg.empty())
                throw UsageError(std::string(flag) + " draws the chart of a PNG or SVG: give --png FILE or --svg FILE");
            if (other || !a.ratio.empty() || a.distribution > 0)
                throw UsageError("--latency-tps (--against-tps), --rounds, --ratio and --distribution are different "
                                 "charts: give one");
            if (a.usl || a.log2 || a.errorBars != "ci" || a.metric != "tps")
                throw UsageError(std::string(flag) + " draws " + what + ": --metric, --log2, --error-bars and --usl "
                                 "describe the scaling chart and do not apply");
            try {
                if (anyY) parseThroughputY(value, flag);
                else parseLatencyPercentile(value, flag);
            } catch (const Error& e) {
                throw UsageError(e.what());
            }
        };
        percentileChart(a.rounds, "--rounds", "a latency percentile of each run", false);
        percentileChart(a.latencyTps, "--latency-tps", "a latency percentile against achieved tps", !a.rounds.empty());
        percentileChart(a.againstTps, "--against-tps", "a latency percentile or run metric against achieved tps",
                        !a.rounds.empty() || !a.latencyTps.empty(), true);
        if (a.logLatency && a.latencyTps.empty() && a.againstTps.empty())
            throw UsageError("--log-latency is of the --latency-tps (--against-tps) chart: give it");
        if (!a.with.empty()) {
            // --csv, --json and --to write the experiment's own runs; a series silently left out
            // of them would look like the whole comparison.
            for (const auto& [given, flag] : {std::pair{a.csvDir, "--csv"}, {a.json, "--json"}, {a.to, "--to"}})
                if (!given.empty())
                    throw UsageError(std::string("--with adds series to the PNG, SVG and HTML only; ") + flag +
                                     " writes " + a.experiment + "'s own runs: export each experiment on its own");
        }
        if (!a.to.empty()) {
            CopyCount n = copyExperiment(a.experiment, a.to);
            std::fprintf(stderr, "scalelab: copied %s to %s\n", describe(n).c_str(), a.to.c_str());
        }
        if (flame || !a.folded.empty()) {
            CombinedRuns runs = combineExperiments(a.experiment, a.with);
            PointAxis axis = a.x.empty() ? naturalAxis(runs.runs) : parsePointAxis(a.x);
            AxisRuns onAxis = runsOnAxis(runs.runs, runs.order, axis);
            std::vector<PointProfile> points = pointProfiles(onAxis.runs, onAxis.curves);
            if (!a.folded.empty())
                for (const auto& f : writeFoldedFiles(points, axis, a.folded)) std::fprintf(stderr, "scalelab: wrote %s\n", f.c_str());
            if (flame) {
                writeFileAtomically(a.svg, a.flame.empty() ? diffFlameSvg(points, axis, a.flameDiff[0], a.flameDiff[1], a.clients)
                                                           : pointFlameSvg(points, axis, a.flame, a.clients));
                std::fprintf(stderr, "scalelab: wrote %s\n", a.svg.c_str());
            }
        }
        auto store = ExperimentStore::open(a.experiment, true);
        if (!a.csvDir.empty())
            for (const auto& f : exportCsv(*store, a.csvDir)) std::fprintf(stderr, "scalelab: wrote %s\n", f.c_str());
        if (a.json == "-") {  // to standard output, for a pipe (jq ...); every message goes to stderr
            std::string text = exportJson(*store).dump(2) + "\n";
            if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0)
                throw Error("--json -: could not write the JSON to standard output");
        } else if (!a.json.empty()) {
            writeFileAtomically(a.json, exportJson(*store).dump(2) + "\n");  // whole or not at all
            std::fprintf(stderr, "scalelab: wrote %s\n", a.json.c_str());
        }
        if (!a.png.empty() || (!a.svg.empty() && !flame) || !a.html.empty()) {
            ExportArgs charts = a;
            if (flame) charts.svg.clear();  // written above
            renderExports(charts);
            for (const auto& f : {charts.png, charts.svg, charts.html})
                if (!f.empty()) std::fprintf(stderr, "scalelab: wrote %s\n", f.c_str());
        }
        return 0;
    });
}


Command addExportCommand(CommandLine& line) {
    auto exportArgs = std::make_shared<ExportArgs>();
    auto* exportCmd = line.app.add_subcommand("export", "Write an experiment as CSV, JSON, a chart (PNG, SVG) or an HTML report");
    exportCmd->add_option("experiment", exportArgs->experiment, kExperimentHelp)->required();
    exportCmd->add_option("--to", exportArgs->to, "Copy the whole experiment to a new file or store location (nothing lost)");
    exportCmd->add_option("--csv", exportArgs->csvDir, "Directory for runs.csv, points.csv, samples.csv, latency-histograms.csv and latency-percentiles.csv");
    exportCmd->add_option("--json", exportArgs->json, "JSON file of the whole experiment (- for standard output)");
    exportCmd->add_option("--png", exportArgs->png, "The scaling chart as PNG (no display needed)");
    exportCmd->add_option("--svg", exportArgs->svg, "The scaling chart as SVG");
    exportCmd->add_option("--folded", exportArgs->folded, "Directory for each point's CPU profile as folded stacks "
                                                          "(FlameGraph, inferno, speedscope), from diagnostics.cpu_profile");
    exportCmd->add_option("--flame", exportArgs->flame, "With --svg and --clients: the SVG is this series' flame graph at "
                                                        "that point (search, click to zoom)");
    exportCmd->add_option("--flame-diff", exportArgs->flameDiff, "With --svg and --clients: B's flame graph coloured by its "
                                                                 "CPU per transaction against A's")->expected(2);
    exportCmd->add_option("--clients", exportArgs->clients, "The point (x: client count, tps offered or scale) of --flame "
                                                            "or --flame-diff")->check(CLI::PositiveNumber);
    exportCmd->add_option("--html", exportArgs->html, "One self-contained HTML report: charts, tables, notes, provenance");
    exportCmd->add_option("--metric", exportArgs->metric, "What the chart's y axis shows (as for report)");
    exportCmd->add_option("--x", exportArgs->x, "The x axis of charts and the HTML report: clients, rate (the offered rate) or "
                                               "scale (the data's); default: as the runs call for (docs/sweeps.md)")
        ->check(CLI::IsMember({"clients", "rate", "scale"}));
    exportCmd->add_flag("--log2", exportArgs->log2, "The x axis in log2 (suits doubling client counts or rates)");
    exportCmd->add_option("--error-bars", exportArgs->errorBars, "ci (confidence interval, default), sd, minmax");
    exportCmd->add_option("--confidence", exportArgs->confidence, "Confidence level of the intervals")->check(CLI::Range(0.5, 0.9999));
    exportCmd->add_flag("--usl", exportArgs->usl, "Draw the USL fit of each series (throughput metrics)");
    exportCmd->add_option("--series", exportArgs->series, "Draw only this series (repeat for more); default: all");
    exportCmd->add_option("--compare", exportArgs->compare, "HTML report: compare series B against baseline A "
                                                           "(default: the first two series drawn)")->expected(2);
    exportCmd->add_option("--ratio", exportArgs->ratio, "Chart (PNG, SVG) series B / A by clients with its confidence "
                                                       "interval instead of the series (repeatable)")
        ->expected(2)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    exportCmd->add_option("--equivalence", exportArgs->equivalence, "HTML report with --compare: the same within this "
                                                                   "margin, e.g. 2%");
    exportCmd->add_option("--distribution", exportArgs->distribution,
                          "Chart (PNG, SVG) the latency distribution of the series at this client count: percentiles "
                          "p0 to p99.99 and the maximum, rounds merged")
        ->check(CLI::PositiveNumber);
    exportCmd->add_option("--rounds", exportArgs->rounds,
                          "Chart (PNG, SVG) this latency percentile of each round as box plots by clients: p50, p90, "
                          "p95, p99, p99.9 or max");
    exportCmd->add_option("--latency-tps", exportArgs->latencyTps,
                          "Chart (PNG, SVG) this latency percentile against achieved tps, points labelled with their "
                          "offered rate (or client count), the knee and -L skips marked: p50, p90, p95, p99, p99.9 or max");
    exportCmd->add_option("--against-tps", exportArgs->againstTps,
                          "Chart (PNG, SVG) this latency percentile or run metric against achieved tps, as --latency-tps: "
                          "p50 ... max, latency_mean, logical_reads, cpu_busy or server_cpu");
    exportCmd->add_flag("--log-latency", exportArgs->logLatency,
                        "With --latency-tps or --against-tps: the y axis in log10");
    exportCmd->add_flag("--paired", exportArgs->paired, "HTML report and --ratio: compare by repetition round");
    exportCmd->add_option("--with", exportArgs->with, "Add the series of another experiment (file or store location), "
                                                     "named \"LABEL [NAME]\" (repeatable)")->check(experimentCheck());
    exportCmd->add_option("--width", exportArgs->width, "Chart width in pixels")->check(CLI::Range(200, 10000));
    exportCmd->add_option("--height", exportArgs->height, "Chart height in pixels")->check(CLI::Range(150, 10000));
    exportCmd->add_option("--scale", exportArgs->scale, "PNG pixel density: 1 or 2")->check(CLI::Range(1, 2));
    line.takesStore(exportCmd, {&exportArgs->experiment});
    return {exportCmd, [exportArgs] { return runExportCommand(*exportArgs); }};
}

} // namespace scalelab::app
