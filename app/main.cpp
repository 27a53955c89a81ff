// scalelab: the command-line entry point. Thin on purpose: it parses arguments and
// hands the work to core (headless subcommands) or ui.
#include "AboutInfo.h"
#include "CommandErrors.h"
#include "GuiCommand.h"
#include "LoadCommands.h"
#include "Completions.h"
#include "ManPages.h"
#include "ReportCommand.h"
#include "ServerCommand.h"
#include "SweepCommands.h"
#include "TopologyCommand.h"

#include "load/hosts/LoadAgent.h"
#include "sweep/Provenance.h"
#include "server/PgBinaries.h"
#include "store/ExperimentStore.h"
#include "store/PgStore.h"
#include "topo/MachineSwitch.h"
#include "util/Error.h"
#include "util/Versions.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <sstream>

namespace {

using scalelab::app::kUsageError;

std::string versionText() {
    QString server;
    try {
        server = QString::fromStdString(scalelab::findPgBinaries().describe());
    } catch (const std::exception& e) {
        server = QStringLiteral("not found (see `scalelab server status`)");
    }
    return scalelab::ui::aboutText(server).toStdString();
}

// Before any command: put back what a ScaleLab that was killed (or crashed) left switched on
// this machine (SMT control, CPUs offline), and say so; and make Ctrl-C, SIGTERM and SIGHUP
// undo this process's own switches before it ends.
void undoAbandonedSwitches() {
    for (const auto& line : scalelab::recoverAbandonedSwitch()) std::cerr << "scalelab: " << line << "\n";
    scalelab::installMachineRestoreOnSignals();
}

const char* const kExperimentHelp = "Experiment: a file (.slab), a results store location postgresql://HOST/DB#NAME, "
                                    "or NAME with --store";

const char* const kMetricsListenHelp = "Serve live figures to Prometheus at http://ADDR:PORT/metrics (PORT alone: loopback; "
                                       "docs/metrics-endpoint.md)";

// An experiment another option names: an existing file, or a results store location (checked
// when it is opened).
const CLI::Validator kExperimentCheck(
    [](std::string& s) { return scalelab::isStoreLocation(s) ? std::string() : CLI::ExistingFile(s); }, "EXPERIMENT");

void addServerOptions(CLI::App* cmd, scalelab::app::ServerArgs& args) {
    cmd->add_option("--data", args.dataDir, "Data directory of the cluster (default: ~/.local/share/scalelab/cluster; "
                                             "/var/lib/scalelab/cluster for root)");
    cmd->add_option("--pg-bindir", args.pgBindir, "Directory with initdb, pg_ctl and postgres (default: searched)");
}

} // namespace

int main(int argc, char** argv) {
    if (argc == 1) {  // no arguments: the desktop window
        undoAbandonedSwitches();
        return scalelab::app::runGui(argc, argv);
    }

    CLI::App app{"ScaleLab: database scaling experiments (load generation, sweeps, CPU placement, error bars)",
                 "scalelab"};
    bool showVersion = false;
    app.add_flag("--version", showVersion, "Print the versions of ScaleLab and its libraries");
    std::string manPagesDir;  // hidden: the build writes the manual pages with it (app/ManPages.h)
    app.add_option("--man-pages", manPagesDir, "Write the manual pages into this directory")->group("");
    std::string completionShell;  // hidden: the build writes the completion scripts with it (app/Completions.h)
    app.add_option("--completion", completionShell, "Print the completion script for bash or zsh")->group("");

    scalelab::app::ServerArgs server;
    auto* serverCmd = app.add_subcommand("server", "Manage the embedded PostgreSQL server");
    serverCmd->require_subcommand(1);
    auto* start = serverCmd->add_subcommand("start", "Create the cluster if needed and start it (or reuse it if running)");
    addServerOptions(start, server);
    start->add_option("--port", server.port, "Port (default: a free one)")->check(CLI::Range(1, 65535));
    start->add_flag("--tcp", server.tcp, "Also listen on 127.0.0.1, with the superuser's password (kept in DATA/scalelab.pgpass, 0600)");
    start->add_option("--set", server.settings, "Server setting name=value (repeatable), applied with ALTER SYSTEM");
    auto* stop = serverCmd->add_subcommand("stop", "Stop the server (fast shutdown, then immediate)");
    addServerOptions(stop, server);
    auto* status = serverCmd->add_subcommand("status", "Print whether the server runs, and how to connect");
    addServerOptions(status, server);
    status->add_flag("--conninfo", server.conninfoOnly, "Print only the connection string (exit 1 when stopped)");

    scalelab::app::InitArgs init;
    auto* initCmd = app.add_subcommand("init", "Create and load the pgbench tables (like pgbench -i)");
    scalelab::app::addTargetOptions(initCmd, init.target);
    initCmd->add_option("-s,--scale", init.scale, "Scale factor: 100,000 accounts each");
    initCmd->add_option("-F,--fillfactor", init.fillfactor, "Fill factor of the tables (10..100)");
    initCmd->add_option("-I,--init-steps", init.steps,
                        "Steps, as pgbench -I: d drop, t tables, g client-side data, G server-side data, v vacuum, "
                        "p primary keys, f foreign keys (default dtgvp)");
    initCmd->add_option("--partitions", init.partitions, "Partition pgbench_accounts into NUM partitions");
    initCmd->add_option("--partition-method", init.partitionMethod, "range (default) or hash");
    initCmd->add_flag("--unlogged-tables", init.unloggedTables, "Create the tables unlogged");
    initCmd->add_flag("--foreign-keys", init.foreignKeys, "Create foreign keys between the tables (adds step f)");
    initCmd->add_flag("-n,--no-vacuum", init.noVacuum, "Leave out the vacuum step");
    initCmd->add_flag("-q,--quiet", init.quiet, "A progress note every 5 s instead of every 100,000 rows");
    initCmd->add_flag("--reinit", init.reinit, "Drop and re-create pgbench tables that ScaleLab created earlier");

    scalelab::app::RunArgs run;
    auto* runCmd = app.add_subcommand("run", "Run a load (like pgbench) and print the report");
    scalelab::app::addTargetOptions(runCmd, run.target);
    runCmd->add_option("-c,--client", run.clients, "Number of clients")->check(CLI::PositiveNumber);
    runCmd->add_option("-j,--jobs", run.threads, "Number of worker threads")->check(CLI::PositiveNumber);
    auto* timeOpt = runCmd->add_option("-T,--time", run.duration, "Duration in seconds")->check(CLI::PositiveNumber);
    runCmd->add_option("-t,--transactions", run.transactions, "Transactions per client")
        ->check(CLI::PositiveNumber)->excludes(timeOpt);
    runCmd->add_option("-M,--protocol", run.mode, "Query mode: simple, extended or prepared")
        ->check(CLI::IsMember({"simple", "extended", "prepared"}));
    runCmd->add_option("--engine", run.engine,
                       "How the clients speak once connected: auto (wire where it can), wire (ScaleLab reads and "
                       "writes the protocol itself) or libpq; docs/load-engines.md")
        ->check(CLI::IsMember({"auto", "wire", "libpq"}));
    runCmd->add_flag("-S,--select-only", run.selectOnly, "Built-in select-only script");
    runCmd->add_flag("-N,--skip-some-updates", run.skipSomeUpdates, "Built-in simple-update script");
    runCmd->add_option("-b,--builtin", run.builtins,
                       "Built-in script NAME[@WEIGHT]: tpcb-like, simple-update, select-only (-b list: list them)");
    runCmd->add_option("--show-script", run.showScript, "Print the built-in script NAME, then exit");
    runCmd->add_option("-f,--file", run.files, "Script file FILE[@WEIGHT] (docs/load.md)");
    runCmd->add_option("--replay", run.replay, "Replay a file of SQL statements, one per transaction");
    runCmd->add_flag("--shuffle", run.shuffle, "Replay: each client in its own random order");
    runCmd->add_option("-P,--progress", run.progress, "Print a progress line every SEC seconds")->check(CLI::PositiveNumber);
    runCmd->add_option("-R,--rate", run.rate, "Target rate in transactions per second (Poisson arrivals)")
        ->check(CLI::PositiveNumber);
    runCmd->add_option("-L,--latency-limit", run.latencyLimit,
                       "Count transactions above this many ms as late; with -R, skip slots already that late")
        ->check(CLI::PositiveNumber);
    runCmd->add_option("--max-tries", run.maxTries, "Tries of a transaction failing by serialization or deadlock "
                                                    "(0: no limit, with -T or -L)")
        ->check(CLI::NonNegativeNumber);
    runCmd->add_option("--warmup", run.warmup, "Seconds at the start that run but are not counted")
        ->check(CLI::NonNegativeNumber);
    runCmd->add_option("-s,--scale", run.scale, "The :scale of custom scripts (built-ins read it from pgbench_branches)")
        ->check(CLI::PositiveNumber);
    runCmd->add_option("--init-scale", run.initScale, "Embedded server without pgbench tables: initialize this scale")
        ->check(CLI::PositiveNumber);
    runCmd->add_option("--random-seed,--seed", run.seed,
                       "Random seed: time (default), rand, or an unsigned integer; the same seed, clients and threads "
                       "give the same random values as pgbench");
    runCmd->add_option("-D,--define", run.defines, "Variable NAME=VALUE for the scripts (repeatable)");
    runCmd->add_flag("-r,--report-per-command", run.reportPerCommand, "Report latency, failures and retries of each command");
    runCmd->add_flag("-C,--connect", run.connect, "A new connection for each transaction");
    runCmd->add_flag("--failures-detailed", run.failuresDetailed, "Report and log failures by kind (serialization, deadlock)");
    runCmd->add_flag("--verbose-errors", run.verboseErrors, "Print each serialization/deadlock error and what follows it");
    runCmd->add_flag("--continue-on-error", run.continueOnError,
                     "A client goes on after an SQL error other than serialization or deadlock (pgbench 19)");
    runCmd->add_flag("--exit-on-abort", run.exitOnAbort, "End the whole run when any client aborts (pgbench 17)");
    runCmd->add_flag("--debug", run.debug, "Print each client's steps (sending, receiving, executing) on stderr");
    runCmd->add_flag("-l,--log", run.log, "Write each transaction to PREFIX.PID[.THREAD] in pgbench's log format");
    runCmd->add_option("--log-prefix", run.logPrefix, "Prefix of the log files (default pgbench_log)");
    runCmd->add_option("--sampling-rate", run.samplingRate, "Share of transactions to log, e.g. 0.01");
    runCmd->add_option("--aggregate-interval", run.aggregateInterval, "Log one line per NUM seconds instead")
        ->check(CLI::PositiveNumber);
    runCmd->add_flag("--progress-timestamp", run.progressTimestamp, "Progress lines carry Unix-epoch times");
    auto* noVacuum = runCmd->add_flag("-n,--no-vacuum", run.noVacuum,
                      "Do not vacuum pgbench_branches/_tellers and truncate pgbench_history before the run");
    runCmd->add_flag("-v,--vacuum-all", run.vacuumAll, "Also VACUUM ANALYZE pgbench_accounts before the run")->excludes(noVacuum);
    runCmd->add_flag("--json", run.json, "Print the result as JSON instead of the text report");

    runCmd->add_option("--placement", run.placement, "CPU placement: smt-on, smt-off, cores:N, cores:N+smt, pus:LIST[/LIST]");
    runCmd->add_flag("--separate", run.separate, "Keep the load generator off the server's cores (and their SMT siblings)");
    runCmd->add_flag("--real-smt", run.realSmt, "With smt-on/smt-off: switch SMT in the kernel for real (root), restored after");
    runCmd->add_flag("--offline-cpus", run.offlineCpus,
                     "Take every PU outside the placement offline for the run (root; like booting with maxcpus=N), "
                     "brought back after");

    runCmd->add_option("--load-hosts", run.loadHosts,
                       "Run the clients from these hosts (ssh destinations, or local), comma-separated (docs/load-hosts.md)")
        ->delimiter(',');
    runCmd->add_option("--ssh-command", run.sshCommand, "The ssh command for --load-hosts and --metrics-host (default: ssh -o BatchMode=yes)");
    runCmd->add_option("--remote-scalelab", run.remoteScalelab, "ScaleLab's path on the load hosts and the metrics host (default: scalelab)");
    runCmd->add_option("--metrics-host", run.metricsHost,
                       "The machine of the --conninfo server (ssh destination, or local): its CPU, disks, pressure and "
                       "server processes are read there by ScaleLab's agent (docs/hosts.md)");
    runCmd->add_option("--metrics-listen", run.metricsListen, kMetricsListenHelp);
    runCmd->add_option("--device", run.devices, "Report this block device (repeatable; default: every whole disk)");
    runCmd->add_flag("--partitions", run.partitions, "Report partitions too");
    // A load host's side of `run --load-hosts`: started by the coordinator (through ssh), it
    // reads its job on stdin and answers in JSON lines on stdout (docs/load-hosts.md).
    auto* agentCmd = app.add_subcommand("agent", "Serve as a load host for `run --load-hosts` (started by the coordinator)");

    scalelab::app::TopologyArgs topology;
    auto* topoCmd = app.add_subcommand("topology", "Print the CPU topology and the PU sets of each placement scenario");
    auto* synth = topoCmd->add_option("--synthetic", topology.synthetic, "An hwloc synthetic topology, e.g. \"pack:2 core:6 pu:2\"");
    topoCmd->add_option("--xml", topology.xml, "An hwloc XML topology (lstopo --of xml)")->excludes(synth);
    topoCmd->add_option("--save-xml", topology.saveXml, "Also write this machine's topology as hwloc XML to FILE (for --xml elsewhere)");

    scalelab::app::SweepArgs sweep;
    auto* sweepCmd = app.add_subcommand("sweep", "Run a sweep plan (series x clients x repetitions) into an experiment file");
    sweepCmd->add_option("plan", sweep.plan, "Sweep plan (JSON, docs/sweeps.md)")->required()->check(CLI::ExistingFile);
    sweepCmd->add_option("-o,--output", sweep.output, "Experiment to write: a file (.slab), postgresql://HOST/DB#NAME, "
                                                       "or NAME with --store")->required();
    sweepCmd->add_flag("--resume", sweep.resume, "Continue the interrupted sweep in the experiment file");
    sweepCmd->add_flag("-q,--quiet", sweep.quiet, "No progress output");
    sweepCmd->add_option("--metrics-listen", sweep.metricsListen, kMetricsListenHelp);

    std::string runsFile;
    auto* runsCmd = app.add_subcommand("runs", "List the runs of an experiment file");
    runsCmd->add_option("experiment", runsFile, kExperimentHelp)->required();
    std::vector<long long> excludeRuns, includeRuns;
    runsCmd->add_option("--exclude", excludeRuns, "Exclude these runs (ids) from points and statistics; they stay in the file");
    runsCmd->add_option("--include", includeRuns, "Include these excluded runs again");

    std::string noteFile, noteText;
    long long noteRun = 0;
    auto* noteCmd = app.add_subcommand("note", "Show or set the note of an experiment, or of one of its runs");
    noteCmd->add_option("experiment", noteFile, kExperimentHelp)->required();
    auto* noteTextOpt = noteCmd->add_option("text", noteText, "The note (\"\" removes it); without it the notes are shown");
    auto* noteRunOpt = noteCmd->add_option("--run", noteRun, "The run (id, from `scalelab runs`) the note is on")
                           ->check(CLI::PositiveNumber);

    scalelab::app::ImportArgs import;
    auto* importCmd = app.add_subcommand("import", "Import pgbench outputs or a runs CSV into an experiment file");
    importCmd->add_option("files", import.files, "pgbench output files, runs .csv files, or one experiment file (copied whole)")->required()->check(CLI::ExistingFile);
    importCmd->add_option("--series", import.series, "Series the pgbench outputs belong to");
    importCmd->add_option("-o,--output", import.output, "Experiment (a new one, or an existing one with --append): a file, "
                                                         "a store location, or NAME with --store")->required();
    importCmd->add_flag("--append", import.append, "Import into the existing experiment file");
    importCmd->add_flag("--again", import.again, "Import a file whose content is already in the experiment once more");
    auto* importCores = importCmd->add_option("--cores", import.cores, "Cores of the machine the runs were measured on (chart markers)")
                            ->check(CLI::PositiveNumber);
    importCmd->add_option("--pus", import.pus, "PUs (hardware threads) of that machine; default: as many as cores")
        ->check(CLI::PositiveNumber)->needs(importCores);

    scalelab::app::ExportArgs exportArgs;
    auto* exportCmd = app.add_subcommand("export", "Write an experiment as CSV, JSON, a chart (PNG, SVG) or an HTML report");
    exportCmd->add_option("experiment", exportArgs.experiment, kExperimentHelp)->required();
    exportCmd->add_option("--to", exportArgs.to, "Copy the whole experiment to a new file or store location (nothing lost)");
    exportCmd->add_option("--csv", exportArgs.csvDir, "Directory for runs.csv, points.csv, samples.csv, latency-histograms.csv and latency-percentiles.csv");
    exportCmd->add_option("--json", exportArgs.json, "JSON file of the whole experiment");
    exportCmd->add_option("--png", exportArgs.png, "The scaling chart as PNG (no display needed)");
    exportCmd->add_option("--svg", exportArgs.svg, "The scaling chart as SVG");
    exportCmd->add_option("--html", exportArgs.html, "One self-contained HTML report: charts, tables, notes, provenance");
    exportCmd->add_option("--metric", exportArgs.metric, "What the chart's y axis shows (as for report)");
    exportCmd->add_option("--x", exportArgs.x, "The x axis of charts and the HTML report: clients, rate (the offered rate) or "
                                               "scale (the data's); default: as the runs call for (docs/sweeps.md)")
        ->check(CLI::IsMember({"clients", "rate", "scale"}));
    exportCmd->add_flag("--log2", exportArgs.log2, "The x axis in log2 (suits doubling client counts or rates)");
    exportCmd->add_option("--error-bars", exportArgs.errorBars, "ci (confidence interval, default), sd, minmax");
    exportCmd->add_option("--confidence", exportArgs.confidence, "Confidence level of the intervals")->check(CLI::Range(0.5, 0.9999));
    exportCmd->add_flag("--usl", exportArgs.usl, "Draw the USL fit of each series (throughput metrics)");
    exportCmd->add_option("--series", exportArgs.series, "Draw only this series (repeat for more); default: all");
    exportCmd->add_option("--compare", exportArgs.compare, "HTML report: compare series B against baseline A "
                                                           "(default: the first two series drawn)")->expected(2);
    exportCmd->add_option("--ratio", exportArgs.ratio, "Chart (PNG, SVG) series B / A by clients with its confidence "
                                                       "interval instead of the series (repeatable)")
        ->expected(2)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    exportCmd->add_option("--equivalence", exportArgs.equivalence, "HTML report with --compare: the same within this "
                                                                   "margin, e.g. 2%");
    exportCmd->add_option("--distribution", exportArgs.distribution,
                          "Chart (PNG, SVG) the latency distribution of the series at this client count: percentiles "
                          "p0 to p99.99 and the maximum, rounds merged")
        ->check(CLI::PositiveNumber);
    exportCmd->add_option("--rounds", exportArgs.rounds,
                          "Chart (PNG, SVG) this latency percentile of each round as box plots by clients: p50, p90, "
                          "p95, p99, p99.9 or max");
    exportCmd->add_option("--latency-tps", exportArgs.latencyTps,
                          "Chart (PNG, SVG) this latency percentile against achieved tps, points labelled with their "
                          "offered rate (or client count), the knee and -L skips marked: p50, p90, p95, p99, p99.9 or max");
    exportCmd->add_option("--against-tps", exportArgs.againstTps,
                          "Chart (PNG, SVG) this latency percentile or run metric against achieved tps, as --latency-tps: "
                          "p50 ... max, latency_mean, logical_reads, cpu_busy or server_cpu");
    exportCmd->add_flag("--log-latency", exportArgs.logLatency,
                        "With --latency-tps or --against-tps: the y axis in log10");
    exportCmd->add_flag("--paired", exportArgs.paired, "HTML report and --ratio: compare by repetition round");
    exportCmd->add_option("--with", exportArgs.with, "Add the series of another experiment (file or store location), "
                                                     "named \"LABEL [NAME]\" (repeatable)")->check(kExperimentCheck);
    exportCmd->add_option("--width", exportArgs.width, "Chart width in pixels")->check(CLI::Range(200, 10000));
    exportCmd->add_option("--height", exportArgs.height, "Chart height in pixels")->check(CLI::Range(150, 10000));
    exportCmd->add_option("--scale", exportArgs.scale, "PNG pixel density: 1 or 2")->check(CLI::Range(1, 2));

    scalelab::app::ReportArgs report;
    auto* reportCmd = app.add_subcommand("report", "Points, comparisons, USL fits and peaks of an experiment");
    reportCmd->add_option("experiment", report.experiment, kExperimentHelp)->required();
    reportCmd->add_option("--metric", report.metric, "tps, latency_mean, latency_p95, latency_p99, logical_reads, cpu_busy, server_cpu");
    reportCmd->add_option("--x", report.x, "The points' x axis: clients, rate (the offered rate of a plan with a list of rates) "
                                           "or scale (of a plan with a list of data scales); default: as the runs call for")
        ->check(CLI::IsMember({"clients", "rate", "scale"}));
    reportCmd->add_option("--confidence", report.confidence, "Confidence level of the intervals")->check(CLI::Range(0.5, 0.9999));
    reportCmd->add_option("--compare", report.compare, "Compare series B against baseline A")->expected(2);
    reportCmd->add_flag("--paired", report.paired, "Compare runs of the same repetition round pairwise");
    reportCmd->add_option("--detect", report.detectPct, "Run-count advice: the change (% of the baseline) to detect "
                                                        "with 80% power (default 5)")->check(CLI::Range(0.01, 1000.0));
    reportCmd->add_option("--equivalence", report.equivalence, "With --compare: is B the same as A within this "
                                                               "margin, e.g. 2% (two one-sided tests, corrected over "
                                                               "client counts)");
    reportCmd->add_flag("--usl", report.usl, "Fit the Universal Scalability Law per series");
    reportCmd->add_flag("--weighted", report.weighted, "Weight the USL fit by 1/variance of each point");
    reportCmd->add_flag("--peak", report.peak, "Peak table");
    reportCmd->add_option("--baseline", report.baseline, "Series the peak table compares with");
    reportCmd->add_flag("--statements", report.statements, "The statements each point ran (pg_stat_statements), "
                                                          "by time; with --compare, those whose mean time changed");
    reportCmd->add_option("--clients", report.clients, "With --statements: only the points at this x (client count, tps offered or scale, as the axis)")->check(CLI::PositiveNumber);
    reportCmd->add_option("--top", report.top, "With --statements: statements per table (0: all)")->check(CLI::NonNegativeNumber);
    reportCmd->add_option("--csv", report.csvDir, "Also write the tables as CSV files into this directory");
    reportCmd->add_option("--format", report.format,
                          "text (fixed-width, for a mailing list) or markdown (for an issue tracker): the tables with "
                          "a summary of the machine, server, workload and runs, to paste")
        ->check(CLI::IsMember({"text", "markdown"}));
    reportCmd->add_option("--with", report.with, "Add the series of another experiment (file or store location), "
                                                 "named \"LABEL [NAME]\" (repeatable)")->check(kExperimentCheck);

    scalelab::app::GuiArgs gui;
    auto* guiCmd = app.add_subcommand("gui", "Open the desktop window (the same as no arguments)");
    guiCmd->add_option("--open", gui.open, "An experiment to show: a file, a store location, or NAME with --store");
    auto* guiPlan = guiCmd->add_option("--sweep", gui.sweepPlan, "Run this plan through the window")->check(CLI::ExistingFile);
    guiCmd->add_option("--output", gui.sweepOutput, "Experiment file for --sweep")->needs(guiPlan);
    guiCmd->add_option("--screenshots", gui.screenshots, "Save a PNG of each page into this directory, then quit");
    guiCmd->add_option("--size", gui.size, "Window size WIDTHxHEIGHT (default 1400x900)");
    guiCmd->add_option("--metrics-listen", gui.metricsListen, kMetricsListenHelp);

    std::string experimentsStore;
    std::vector<std::string> deleteExperiments;
    auto* experimentsCmd = app.add_subcommand("experiments", "List the experiments in a PostgreSQL results store");
    experimentsCmd->add_option("store", experimentsStore, "The store: postgresql://HOST/DB or \"host=... dbname=...\"")->required();
    experimentsCmd->add_option("--delete", deleteExperiments, "Delete this experiment and all its runs (repeatable)");

    // --store CONNINFO: the experiment names these commands take are experiments in that store.
    std::string store;
    for (auto* cmd : {sweepCmd, runsCmd, noteCmd, importCmd, exportCmd, reportCmd, guiCmd})
        cmd->add_option("--store", store, "A PostgreSQL results store: the experiment named is one in it (docs/results-store.md)");

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // CLI11 quotes the arguments it did not expect: never a password from among them.
        std::ostringstream out, err;
        int rc = app.exit(e, out, err);
        std::cout << out.str();
        std::cerr << scalelab::terminalSafe(scalelab::redactPasswords(err.str()), true);
        return rc == 0 ? 0 : kUsageError;
    }
    if (!store.empty()) {
        try {
            for (std::string* name : {&sweep.output, &runsFile, &noteFile, &import.output, &exportArgs.experiment,
                                      &report.experiment, &gui.open, &gui.sweepOutput})
                if (!name->empty()) *name = scalelab::storeLocation(store, *name);
        } catch (const std::exception& e) {
            std::cerr << "scalelab: error: " << scalelab::terminalSafe(scalelab::redactPasswords(e.what()), true) << "\n";
            return kUsageError;
        }
    }

    if (!completionShell.empty()) {
        try {
            std::cout << scalelab::app::completionScript(app, completionShell);
        } catch (const std::exception& e) {
            std::cerr << "scalelab: error: " << e.what() << "\n";
            return kUsageError;
        }
        return 0;
    }
    if (!manPagesDir.empty()) {
        try {
            scalelab::app::writeManPages(app, manPagesDir, scalelab::scalelabVersion());
        } catch (const std::exception& e) {
            std::cerr << "scalelab: error: " << e.what() << "\n";
            return 1;
        }
        return 0;
    }
    undoAbandonedSwitches();
    if (showVersion) {
        std::cout << versionText();
        return 0;
    }
    if (guiCmd->parsed()) {
        if (!gui.sweepPlan.empty() && gui.sweepOutput.empty()) {
            std::cerr << "scalelab: error: --sweep needs --output EXP.slab\n";
            return kUsageError;
        }
        return scalelab::app::runGui(argc, argv, gui);
    }
    if (initCmd->parsed()) return scalelab::app::runInitCommand(init);
    if (runCmd->parsed()) return scalelab::app::runRunCommand(run);
    if (agentCmd->parsed()) return scalelab::serveLoadAgent(std::cin, std::cout, scalelab::machineProvenance);
    if (topoCmd->parsed()) return scalelab::app::runTopologyCommand(topology);
    if (sweepCmd->parsed()) return scalelab::app::runSweepCommand(sweep);
    if (runsCmd->parsed()) return scalelab::app::runRunsCommand(runsFile, excludeRuns, includeRuns);
    if (noteCmd->parsed())
        return scalelab::app::runNoteCommand(noteFile, noteRunOpt->count() ? std::optional<long long>(noteRun) : std::nullopt,
                                             noteTextOpt->count() ? std::optional<std::string>(noteText) : std::nullopt);
    if (importCmd->parsed()) return scalelab::app::runImportCommand(import);
    if (exportCmd->parsed()) return scalelab::app::runExportCommand(exportArgs);
    if (reportCmd->parsed()) return scalelab::app::runReportCommand(report);
    if (experimentsCmd->parsed()) return scalelab::app::runExperimentsCommand(experimentsStore, deleteExperiments);
    for (auto* cmd : {start, stop, status}) {
        if (cmd->parsed()) {
            server.action = cmd->get_name();
            return scalelab::app::runServerCommand(server);
        }
    }
    std::cerr << app.help();
    return kUsageError;
}
