// The options of `scalelab init`, `scalelab run` and `scalelab agent`, registered next to
// their handlers (app/CommandLine.h).
#include "CommandLine.h"
#include "LoadCommands.h"

#include "load/RunSettings.h"
#include "load/hosts/LoadAgent.h"
#include "sweep/Provenance.h"
#include "util/Overload.h"

#include <iostream>
#include <stdexcept>
#include <string>
#include <variant>
#include <memory>

namespace scalelab::app {

void addTargetOptions(CLI::App* cmd, TargetArgs& target) {
    cmd->add_option("-d,--conninfo,--dbname", target.conninfo,
                    "libpq connection string of the target server, or a database name as pgbench's -d "
                    "(default: the embedded server); no password in it");
    cmd->add_option("--data", target.dataDir, "Data directory of the embedded server (default as for `scalelab server`)");
    cmd->add_option("--pg-bindir", target.pgBindir, "Directory with initdb, pg_ctl and postgres for the embedded server");
}

namespace {

// Each run setting with a command-line name, from its row (core/load/RunSettings.cpp): a flag, a
// word from its choices, or a number within the row's bounds (checked in the row's words).
void addRunSettingOptions(CLI::App* cmd, RunSettings& settings) {
    for (const RunSettingRow& row : runSettingRows()) {
        if (!*row.cli) continue;
        if (auto m = std::get_if<bool RunSettings::*>(&row.value)) {
            cmd->add_flag(row.cli, settings.**m, row.doc);
            continue;
        }
        if (const auto* c = std::get_if<RunSettingChoice>(&row.value)) {
            std::vector<std::string> words;
            for (const auto& [word, value] : c->names) words.push_back(word);
            cmd->add_option_function<std::string>(
                   row.cli, [&settings, c](const std::string& word) { c->set(settings, *c->valueOf(word)); }, row.doc)
                ->check(CLI::IsMember(words));
            continue;
        }
        // As pgbench, a given value must be a value: "none" is the option left out (-L 0 is refused).
        CLI::Validator bounds(
            [&row](std::string& text) -> std::string {
                double v = 0;
                try {
                    size_t used = 0;
                    v = std::stod(text, &used);
                    if (used != text.size()) return "expected a number, found '" + text + "'";
                } catch (const std::exception&) {
                    return "expected a number, found '" + text + "'";
                }
                return boundProblem(row, v);
            },
            "");
        std::visit(Overload{[](const RunSettingChoice&) {}, [](bool RunSettings::*) {},
                            [&](auto member) { cmd->add_option(row.cli, settings.*member, row.doc)->check(bounds); }},
                   row.value);
    }
}

} // namespace

Command addInitCommand(CommandLine& line) {
    auto init = std::make_shared<InitArgs>();
    auto* initCmd = line.app.add_subcommand("init", "Create and load the pgbench tables (like pgbench -i)");
    addTargetOptions(initCmd, init->target);
    initCmd->add_option("-s,--scale", init->scale, "Scale factor: 100,000 accounts each");
    initCmd->add_option("-F,--fillfactor", init->fillfactor, "Fill factor of the tables (10..100)");
    initCmd->add_option("-I,--init-steps", init->steps,
                        "Steps, as pgbench -I: d drop, t tables, g client-side data, G server-side data, v vacuum, "
                        "p primary keys, f foreign keys (default dtgvp)");
    initCmd->add_option("--partitions", init->partitions, "Partition pgbench_accounts into NUM partitions");
    initCmd->add_option("--partition-method", init->partitionMethod, "range (default) or hash");
    initCmd->add_flag("--unlogged-tables", init->unloggedTables, "Create the tables unlogged");
    initCmd->add_flag("--foreign-keys", init->foreignKeys, "Create foreign keys between the tables (adds step f)");
    initCmd->add_flag("-n,--no-vacuum", init->noVacuum, "Leave out the vacuum step");
    initCmd->add_flag("-q,--quiet", init->quiet, "A progress note every 5 s instead of every 100,000 rows");
    initCmd->add_flag("--reinit", init->reinit, "Drop and re-create tables that ScaleLab created earlier");
    initCmd->add_option("--workload", init->workload, "pgbench (default): pgbench's tables; tprocc: TPC-C's nine tables")
        ->check(CLI::IsMember({"pgbench", "tprocc"}));
    auto* warehouses = initCmd->add_option("-w,--warehouses", init->warehouses, "TPROC-C: warehouses (1..100000), about 500,000 rows each");
    auto* jobs = initCmd->add_option("-j,--jobs", init->jobs, "TPROC-C: connections that load at once (default: one per CPU)");
    auto* seed = initCmd->add_option("--random-seed", init->seed, "TPROC-C: the data's seed, time (default), rand or a number");
    const std::vector<std::string> pgbenchOnly = {"-s", "-F", "-I", "--partitions", "--partition-method", "--unlogged-tables",
                                                  "--foreign-keys", "-n", "-q"};
    return {initCmd, [init, initCmd, pgbenchOnly, warehouses, jobs, seed] {
                // Options of the other workload are refused, not ignored: a user who typed -s 10
                // with --workload tprocc meant something.
                if (init->workload == "tprocc")
                    for (const auto& name : pgbenchOnly)
                        if (initCmd->get_option(name)->count() > 0) init->otherWorkloadOptions.push_back(name);
                if (init->workload == "pgbench")
                    for (auto* o : {warehouses, jobs, seed})
                        if (o->count() > 0) init->otherWorkloadOptions.push_back(o->get_name());
                return runInitCommand(*init);
            }};
}

Command addRunCommand(CommandLine& line) {
    auto run = std::make_shared<RunArgs>();
    auto* runCmd = line.app.add_subcommand("run", "Run a load (like pgbench) and print the report");
    addTargetOptions(runCmd, run->target);
    runCmd->add_option("-c,--client", run->clients, "Number of clients")->check(CLI::PositiveNumber);
    runCmd->add_option("-j,--jobs", run->threads, "Number of worker threads")->check(CLI::PositiveNumber);
    addRunSettingOptions(runCmd, run->settings);
    runCmd->get_option("--transactions")->excludes("--time");
    runCmd->add_flag("-S,--select-only", run->selectOnly, "Built-in select-only script");
    runCmd->add_flag("-N,--skip-some-updates", run->skipSomeUpdates, "Built-in simple-update script");
    runCmd->add_option("--workload", run->workload,
                       "pgbench (default: the scripts of -b, -f, -S, -N) or tprocc: TPC-C's order entry on the tables of "
                       "`scalelab init --workload tprocc`")
        ->check(CLI::IsMember({"pgbench", "tprocc"}));
    runCmd->add_option("--keying-thinking", run->keyingThinking,
                       "TPROC-C: keying and thinking times around each transaction, x TPC-C's (1: its 18 s + 12 s for "
                       "New-Order ...; default 0: none, as HammerDB)")
        ->check(CLI::Range(0.0, 100.0));
    runCmd->add_option("-b,--builtin", run->builtins,
                       "Built-in script NAME[@WEIGHT]: tpcb-like, simple-update, select-only (-b list: list them)");
    runCmd->add_option("--show-script", run->showScript, "Print the built-in script NAME, then exit");
    runCmd->add_option("-f,--file", run->files, "Script file FILE[@WEIGHT] (docs/load.md)");
    runCmd->add_option("--replay", run->replay, "Replay a file of SQL statements, one per transaction");
    runCmd->add_flag("--shuffle", run->shuffle, "Replay: each client in its own random order");
    runCmd->add_option("-P,--progress", run->progress, "Print a progress line every SEC seconds")->check(CLI::PositiveNumber);
    runCmd->add_option("-R,--rate", run->rate, "Target rate in transactions per second (Poisson arrivals)")
        ->check(CLI::PositiveNumber);
    runCmd->add_option("-s,--scale", run->scale, "The :scale of custom scripts (built-ins read it from pgbench_branches)")
        ->check(CLI::PositiveNumber);
    runCmd->add_option("--init-scale", run->initScale, "Embedded server without pgbench tables: initialize this scale")
        ->check(CLI::PositiveNumber);
    runCmd->add_option("--random-seed,--seed", run->seed,
                       "Random seed: time (default), rand, or an unsigned integer; the same seed, clients and threads "
                       "give the same random values as pgbench");
    runCmd->add_option("-D,--define", run->defines, "Variable NAME=VALUE for the scripts (repeatable)");
    runCmd->add_flag("-l,--log", run->log, "Write each transaction to PREFIX.PID[.THREAD] in pgbench's log format");
    runCmd->add_option("--log-prefix", run->logPrefix, "Prefix of the log files (default pgbench_log)");
    runCmd->add_option("--sampling-rate", run->samplingRate, "Share of transactions to log, e.g. 0.01");
    runCmd->add_option("--aggregate-interval", run->aggregateInterval, "Log one line per NUM seconds instead")
        ->check(CLI::PositiveNumber);
    runCmd->add_flag("--progress-timestamp", run->progressTimestamp, "Progress lines carry Unix-epoch times");
    auto* noVacuum = runCmd->add_flag("-n,--no-vacuum", run->noVacuum,
                      "Do not vacuum pgbench_branches/_tellers and truncate pgbench_history before the run");
    runCmd->add_flag("-v,--vacuum-all", run->vacuumAll, "Also VACUUM ANALYZE pgbench_accounts before the run")->excludes(noVacuum);
    runCmd->add_option("--cpu-profile", run->cpuProfile,
                       "Record where the server's CPU goes over the counted window (perf, a server on this machine) "
                       "and write its folded stacks to FILE")
        ->type_name("FILE");
    runCmd->add_flag("--json", run->json, "Print the result as JSON instead of the text report");

    runCmd->add_option("--placement", run->placement, "CPU placement: smt-on, smt-off, cores:N, cores:N+smt, pus:LIST[/LIST]");
    runCmd->add_flag("--separate", run->separate, "Keep the load generator off the server's cores (and their SMT siblings)");
    runCmd->add_flag("--real-smt", run->realSmt, "With smt-on/smt-off: switch SMT in the kernel for real (root), restored after");
    runCmd->add_flag("--offline-cpus", run->offlineCpus,
                     "Take every PU outside the placement offline for the run (root; like booting with maxcpus=N), "
                     "brought back after");

    runCmd->add_option("--load-hosts", run->loadHosts,
                       "Run the clients from these hosts (ssh destinations, or local), comma-separated (docs/load-hosts.md)")
        ->delimiter(',');
    runCmd->add_option("--ssh-command", run->sshCommand, "The ssh command for --load-hosts and --metrics-host (default: ssh -o BatchMode=yes)");
    runCmd->add_option("--remote-scalelab", run->remoteScalelab, "ScaleLab's path on the load hosts and the metrics host (default: scalelab)");
    runCmd->add_option("--metrics-host", run->metricsHost,
                       "The machine of the --conninfo server (ssh destination, or local): its CPU, disks, pressure and "
                       "server processes are read there by ScaleLab's agent (docs/hosts.md)");
    runCmd->add_option("--metrics-listen", run->metricsListen, kMetricsListenHelp);
    runCmd->add_option("--device", run->devices, "Report this block device (repeatable; default: every whole disk)");
    runCmd->add_flag("--partitions", run->partitions, "Report partitions too");
    return {runCmd, [run] { return runRunCommand(*run); }};
}

// A load host's side of `run --load-hosts`, and a server host's agent: started by the
// coordinator (through ssh), it reads its questions on stdin and answers in JSON lines on
// stdout (docs/load-hosts.md, docs/hosts.md).
Command addAgentCommand(CommandLine& line) {
    auto* agentCmd = line.app.add_subcommand("agent", "Serve as a load host for `run --load-hosts` (started by the coordinator)");
    return {agentCmd, [] { return serveLoadAgent(std::cin, std::cout, machineProvenance); }};
}

} // namespace scalelab::app
