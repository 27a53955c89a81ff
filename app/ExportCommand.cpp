#include "ReportCommand.h"
#include "CommandErrors.h"

#include "GuiCommand.h"

#include "stats/LatencyThroughput.h"
#include "stats/RoundSpread.h"
#include "store/CopyExperiment.h"
#include "report/Export.h"
#include "util/AtomicFile.h"
#include "util/Error.h"

#include <fstream>
#include <iostream>

namespace scalelab::app {

int runExportCommand(const ExportArgs& a) {
    return runCommand([&] {
        if (a.csvDir.empty() && a.json.empty() && a.png.empty() && a.svg.empty() && a.html.empty() && a.to.empty())
            throw UsageError("say what to export: --csv DIR, --json FILE, --png FILE, --svg FILE, --html FILE, --to EXPERIMENT");
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
        auto store = ExperimentStore::open(a.experiment, true);
        if (!a.csvDir.empty())
            for (const auto& f : exportCsv(*store, a.csvDir)) std::fprintf(stderr, "scalelab: wrote %s\n", f.c_str());
        if (!a.json.empty()) {
            writeFileAtomically(a.json, exportJson(*store).dump(2) + "\n");  // whole or not at all
            std::fprintf(stderr, "scalelab: wrote %s\n", a.json.c_str());
        }
        if (!a.png.empty() || !a.svg.empty() || !a.html.empty()) {
            renderExports(a);
            for (const auto& f : {a.png, a.svg, a.html})
                if (!f.empty()) std::fprintf(stderr, "scalelab: wrote %s\n", f.c_str());
        }
        return 0;
    });
}

} // namespace scalelab::app
