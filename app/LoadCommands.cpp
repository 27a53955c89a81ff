#include "LoadCommands.h"
#include "CommandErrors.h"
#include "MetricsListen.h"

#include "Interrupts.h"

#include "load/hosts/LoadCoordinator.h"
#include "load/hosts/LoadResultJson.h"
#include "load/LoadRun.h"
#include "load/data/PgbenchData.h"
#include "load/data/TpccLoad.h"
#include "load/data/TpccResults.h"
#include "load/data/TpccScripts.h"
#include "metrics/RemoteMachine.h"
#include "metrics/SystemSampler.h"
#include "load/script/Random.h"
#include "server/ConnectionCapacity.h"
#include "topo/PlacementScope.h"
#include "util/AtomicFile.h"
#include "util/Clock.h"
#include "util/Error.h"
#include "util/Format.h"
#include "util/HostCommand.h"


#include <pthread.h>
#include <unistd.h>
#include <signal.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>

namespace scalelab::app {
namespace {

void note(const std::string& line) { std::cerr << "scalelab: " << line << "\n"; }

Workload buildWorkload(const RunArgs& a) {
    if (!a.replay.empty()) {
        if (!a.builtins.empty() || !a.files.empty() || a.selectOnly || a.skipSomeUpdates)
            throw Error("--replay runs a log of statements on its own: drop -b, -f, -S and -N");
        return Workload::replayFile(a.replay, a.shuffle);
    }
    if (a.shuffle) throw Error("--shuffle applies to --replay only");
    if (a.keyingThinking > 0 && a.workload != "tprocc")
        throw Error("--keying-thinking gives TPROC-C's transactions their terminal times: it goes with --workload tprocc");
    Workload w;
    if (a.workload == "tprocc") {
        if (!a.builtins.empty() || !a.files.empty() || a.selectOnly || a.skipSomeUpdates)
            throw Error("--workload tprocc runs its own scripts: drop -b, -f, -S and -N");
        tpcc::addScripts(w, a.keyingThinking);  // their variables come from the data, once the target is open
        for (const auto& d : a.defines) w.define(d);
        return w;
    }
    if (a.selectOnly) w.addBuiltin("select-only");
    if (a.skipSomeUpdates) w.addBuiltin("simple-update");
    for (const auto& b : a.builtins) w.addBuiltin(b);
    for (const auto& f : a.files) w.addScriptFile(f);
    if (w.scripts.empty()) w.addBuiltin("tpcb-like");
    for (const auto& d : a.defines) w.define(d);
    return w;
}

bool usesBuiltin(const RunArgs& a) {
    return a.replay.empty() && a.workload != "tprocc" && (a.selectOnly || a.skipSomeUpdates || !a.builtins.empty() || a.files.empty());
}

std::string fmt(const char* format, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

// iostat's summary: the machine it is of, avg-cpu, then a line per device, then process CPU and
// server counters.
void printSystemSummary(const SystemSample& m, const MetricsMachine* machine) {
    if (machine) std::printf("machine: %s\n", machine->describe().c_str());
    const CpuUsage& c = m.cpu.total;
    if (m.cpuMeasured())
        std::printf("avg-cpu:  %%user   %%nice %%system %%iowait  %%steal   %%idle\n         %6.2f  %6.2f  %6.2f  %6.2f  %6.2f  %6.2f\n",
                    c.user, c.nice, c.system + c.irq + c.softirq, c.iowait, c.steal, c.idle);
    else
        std::printf("avg-cpu:  missing\n");
    // What could not be read is said, with why: a missing figure is never shown as 0 (issue 60.5).
    for (const auto& [kind, why] : m.missing)
        std::printf("warning: the run's %s figures are missing: %s\n", kind.c_str(), why.c_str());
    if (m.slowReadings)
        std::printf("warning: slow-metrics: a reading of the measured machine took %.0f ms, over %.0f%% of the sample "
                    "interval: the intervals around it, and the run's start, were delayed\n",
                    m.slowestReadingMs, kSlowReadingShare * 100);
    if (!m.disks.empty()) {
        std::printf("Device            r/s      w/s    rMB/s    wMB/s  await  %%util\n");
        for (const auto& d : m.disks)
            std::printf("%-12s %8.2f %8.2f %8.2f %8.2f %6.2f %6.2f\n", d.name.c_str(), d.readsPerSec, d.writesPerSec,
                        d.readMBps, d.writeMBps, d.awaitMs, d.utilPct);
    }
    // A process not measured here (the clients on load hosts, a server elsewhere) is left out,
    // never shown as 0.
    std::string processes;
    if (m.loadGeneratorCpuPct) processes += "load generator " + fmt("%.1f", *m.loadGeneratorCpuPct) + "%";
    if (m.serverCpuPct) processes += (processes.empty() ? "" : ", ") + std::string("server ") + fmt("%.1f", *m.serverCpuPct) + "%";
    if (!processes.empty()) std::printf("CPU: %s (100%% = one PU)\n", processes.c_str());
    if (m.server)
        std::printf("server per second: commits %.1f, rollbacks %.1f, blks_hit %.1f, blks_read %.1f, logical reads %.1f\n",
                    m.server->commits, m.server->rollbacks, m.server->blksHit, m.server->blksRead, m.server->logicalReads);
    if (m.clientBound)
        std::printf("warning: client-bound: the load generator used %.0f%% CPU, over 90%% of the PUs it may run on; "
                    "this point measures the client, not the server\n", m.loadGeneratorCpuPct.value_or(0));
}

// -r's lines of one script: mean latency in ms, failures (and retries with --max-tries), the
// command's first line.
void printCommands(const LoadSpec& spec, const LoadResult& r, int script, const char* prefix) {
    std::cout << prefix
              << (spec.maxTries == 1 ? "statement latencies in milliseconds and failures:"
                                     : "statement latencies in milliseconds, failures and retries:")
              << "\n";
    for (const auto& c : r.commands) {
        if (c.script != script) continue;
        if (spec.maxTries == 1)
            std::printf("   %11.3f  %10llu  %s\n", c.meanMs, static_cast<unsigned long long>(c.failures), c.text.c_str());
        else
            std::printf("   %11.3f  %10llu  %10llu  %s\n", c.meanMs, static_cast<unsigned long long>(c.failures),
                        static_cast<unsigned long long>(c.retries), c.text.c_str());
        std::fflush(stdout);
    }
}

// pgbench's section per script when a run has several (its per_script_stats), each with its
// -r lines; with one script, -r's lines alone. ScaleLab adds each script's latency percentiles.
void printPerScript(const LoadSpec& spec, const LoadResult& r) {
    if (r.scripts.empty()) {  // one script, or a replay's statements (no per-script counts)
        if (!spec.reportPerCommand) return;
        const auto& scripts = spec.workload.scripts;
        for (size_t i = 0; i < scripts.size(); ++i) {
            if (scripts.size() > 1) std::cout << "SQL script " << i + 1 << ": " << scripts[i].name << "\n - weight: " << scripts[i].weight << "\n";
            printCommands(spec, r, static_cast<int>(i), scripts.size() > 1 ? " - " : "");
        }
        return;
    }
    uint64_t all = 0;
    int totalWeight = 0;
    for (const auto& s : r.scripts) all += s.ended(), totalWeight += s.weight;
    for (size_t i = 0; i < r.scripts.size(); ++i) {
        const ScriptReport& s = r.scripts[i];
        uint64_t ended = s.ended();
        auto pct = [](uint64_t n, uint64_t of, const char* f) { return of ? fmt(f, 100.0 * static_cast<double>(n) / static_cast<double>(of)) : std::string("-"); };
        std::cout << "SQL script " << i + 1 << ": " << s.name << "\n"
                  << " - weight: " << s.weight << " (targets " << pct(static_cast<uint64_t>(s.weight), static_cast<uint64_t>(totalWeight), "%.1f")
                  << "% of total)\n"
                  << " - " << ended << " transactions (" << pct(ended, all, "%.1f") << "% of total)\n";
        if (ended > 0) {
            std::cout << " - number of transactions actually processed: " << s.transactions << " (tps = "
                      << fmt("%f", r.measuredSeconds > 0 ? static_cast<double>(s.transactions) / r.measuredSeconds : 0.0) << ")\n"
                      << " - number of failed transactions: " << s.failures.total() << " (" << pct(s.failures.total(), ended, "%.3f") << "%)\n";
            if (spec.failuresDetailed)
                std::cout << " - number of serialization failures: " << s.failures.serialization << " ("
                          << pct(s.failures.serialization, ended, "%.3f") << "%)\n"
                          << " - number of deadlock failures: " << s.failures.deadlock << " (" << pct(s.failures.deadlock, ended, "%.3f") << "%)\n"
                          << " - number of other failures: " << s.failures.other << " (" << pct(s.failures.other, ended, "%.3f") << "%)\n";
            if (spec.maxTries != 1)
                std::cout << " - number of transactions retried: " << s.retriedTransactions << " (" << pct(s.retriedTransactions, ended, "%.3f")
                          << "%)\n"
                          << " - total number of retries: " << s.retries << "\n";
            if (spec.rate > 0 && spec.latencyLimitMs > 0)
                std::cout << " - number of transactions skipped: " << s.skipped << " (" << pct(s.skipped, ended, "%.3f") << "%)\n";
        }
        const LatencySummary& l = s.latency;
        if (l.count == 0) std::cout << " - latency: none (no transaction completed)\n";
        else
            std::cout << " - latency average = " << fmt("%.3f", l.meanMs) << " ms\n"
                      << " - latency stddev = " << fmt("%.3f", l.stddevMs) << " ms\n"
                      << " - latency percentiles: p50 = " << fmt("%.3f", l.p50Ms) << ", p90 = " << fmt("%.3f", l.p90Ms)
                      << ", p95 = " << fmt("%.3f", l.p95Ms) << ", p99 = " << fmt("%.3f", l.p99Ms) << ", p99.9 = " << fmt("%.3f", l.p999Ms)
                      << ", max = " << fmt("%.3f", l.maxMs) << " ms\n";
        if (spec.reportPerCommand) printCommands(spec, r, static_cast<int>(i), " - ");
    }
}

void printReport(const LoadSpec& spec, const LoadResult& r, const std::string& placement, const MetricsMachine* machine = nullptr) {
    std::cout << "transaction type: " << r.workload << "\n"
              << "scaling factor: " << r.scale << "\n"
              << "query mode: " << queryModeName(r.mode) << "\n"
              << "number of clients: " << r.clients << "\n"
              << "number of threads: " << r.threads << "\n"
              << "placement: " << placement << "\n"
              << "maximum number of tries: " << spec.maxTries << "\n";
    if (spec.durationS > 0) std::cout << "duration: " << spec.durationS << " s\n";
    else std::cout << "number of transactions per client: " << spec.transactionsPerClient << "\n";
    if (spec.warmupS > 0) std::cout << "warm-up: " << spec.warmupS << " s (not counted)\n";
    if (spec.durationS > 0) std::cout << "number of transactions actually processed: " << r.transactions << "\n";
    else
        std::cout << "number of transactions actually processed: " << r.transactions << "/"
                  << spec.transactionsPerClient * r.clients << "\n";
    uint64_t failed = r.failures.total();
    uint64_t all = r.transactions + r.skipped + failed;
    auto pctOf = [all](uint64_t n) { return all ? fmt("%.3f", 100.0 * static_cast<double>(n) / static_cast<double>(all)) : std::string("0.000"); };
    std::cout << "number of failed transactions: " << failed << " (" << pctOf(failed) << "%)\n";
    if (spec.failuresDetailed)
        std::cout << "number of serialization failures: " << r.failures.serialization << " (" << pctOf(r.failures.serialization)
                  << "%)\n"
                  << "number of deadlock failures: " << r.failures.deadlock << " (" << pctOf(r.failures.deadlock) << "%)\n"
                  // pgbench 19's line (other failures end transactions only under --continue-on-error)
                  << "number of other failures: " << r.failures.other << " (" << pctOf(r.failures.other) << "%)\n";
    if (failed)
        std::cout << "  serialization failures: " << r.failures.serialization << ", deadlock failures: " << r.failures.deadlock
                  << ", other failures: " << r.failures.other << "\n"
                  << "  first error: " << r.firstErrorMessage << "\n";
    if (spec.maxTries != 1)  // pgbench: retries are said whenever a transaction may be tried again
        std::cout << "number of transactions retried: " << r.retriedTransactions << " (" << pctOf(r.retriedTransactions) << "%)\n"
                  << "total number of retries: " << r.retries << "\n";
    if (spec.rate > 0 && spec.latencyLimitMs > 0)
        std::cout << "number of transactions skipped: " << r.skipped << " (" << pctOf(r.skipped) << "%)\n";
    if (spec.latencyLimitMs > 0)
        std::cout << "number of transactions above the " << fmt("%.1f", spec.latencyLimitMs) << " ms latency limit: " << r.late
                  << "/" << r.transactions << " ("
                  << fmt("%.3f", r.transactions ? 100.0 * static_cast<double>(r.late) / static_cast<double>(r.transactions) : 0.0)
                  << "%)\n";
    const auto& l = r.latency;
    if (l.count == 0) std::cout << "latency: none (no transaction completed)\n";
    else std::cout << "latency average = " << fmt("%.3f", l.meanMs) << " ms\n"
              << "latency stddev = " << fmt("%.3f", l.stddevMs) << " ms\n"
              << "latency percentiles: p50 = " << fmt("%.3f", l.p50Ms) << ", p90 = " << fmt("%.3f", l.p90Ms)
              << ", p95 = " << fmt("%.3f", l.p95Ms) << ", p99 = " << fmt("%.3f", l.p99Ms) << ", p99.9 = " << fmt("%.3f", l.p999Ms)
              << ", max = " << fmt("%.3f", l.maxMs) << " ms\n";
    if (spec.rate > 0)
        std::cout << "rate limit schedule lag: avg " << fmt("%.3f", r.lagMeanMs) << " (max " << fmt("%.3f", r.lagMaxMs) << ") ms\n";
    if (r.system) printSystemSummary(*r.system, machine);
    if (spec.connectPerTransaction) {
        uint64_t ended = r.transactions + failed;
        std::cout << "average connection time = "
                  << (ended ? fmt("%.3f", r.connectionSecondsTotal * 1000 / static_cast<double>(ended)) : std::string("-")) << " ms\n"
                  << "tps = " << fmt("%f", r.tps) << " (including reconnection times)\n";
    } else {
        std::cout << "initial connection time = " << fmt("%.3f", r.connectSeconds * 1000) << " ms\n"
                  << "tps = " << fmt("%f", r.tps) << " (without initial connection time)\n";
    }
    for (const auto& line : tpcc::reportLines(r)) std::cout << line << "\n";
    printPerScript(spec, r);
    if (!r.engine.empty())
        std::cout << "engine: " << r.engine << (r.engineWhy.empty() ? "" : " (libpq: " + r.engineWhy + ")") << "\n";
    std::cout << "status: " << runStatusName(r.status) << "\n";
    if (r.status == RunStatus::Failed) std::cout << "error: " << r.error << "\n";
    if (r.abortedClients > 0) std::cerr << "scalelab: Run was aborted; the above results are incomplete.\n";
}

// The words of an --ssh-command, split at spaces (no quoting: a path with spaces goes in
// ~/.ssh/config instead).
std::vector<std::string> words(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> out;
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

void printHosts(const LoadHostsResult& r) {
    for (const auto& h : r.hosts) {
        std::cout << "load host " << h.share.host << (h.hostname.empty() ? "" : " (" + h.hostname + ")") << ": "
                  << h.share.clients << " clients, " << h.share.threads << " threads, " << fmt("%.1f", h.result.tps) << " tps";
        if (h.cpuBusyPct) std::cout << ", CPU busy " << fmt("%.0f", *h.cpuBusyPct) << "%";
        if (h.loadGeneratorCpuPct) std::cout << " (load generator " << fmt("%.0f", *h.loadGeneratorCpuPct) << "% of a PU)";
        if (h.rxMBps) std::cout << ", network in " << fmt("%.2f", *h.rxMBps) << " MB/s out " << fmt("%.2f", *h.txMBps) << " MB/s";
        // Its start was moved by this much (the hosts start at one moment on this machine's clock).
        std::cout << ", clock " << formatSigned(static_cast<double>(h.clock.offsetNs) / 1e6, 1) << " ms (+-"
                  << fmt("%.1f", static_cast<double>(h.clock.uncertaintyNs) / 1e6) << ")";
        if (h.clientBound) std::cout << " [client-bound: this host limits the result]";
        if (h.result.status != RunStatus::Completed) std::cout << " [" << runStatusName(h.result.status) << "]";
        std::cout << "\n";
    }
    std::cout << "coordinator: " << fmt("%.0f", r.coordinatorCpuS * 1000) << " ms of CPU for " << r.hosts.size()
              << (r.hosts.size() == 1 ? " host" : " hosts") << " over " << fmt("%.1f", r.merged.measuredSeconds) << " s\n";
}

// A metrics host that went silent during the run: said on stderr (the report above has the
// figures read until then). True when it did; an otherwise good run then exits 1.
bool saidMachineLost(const RemoteMachine* machine) {
    if (!machine || machine->lost().empty()) return false;
    std::fprintf(stderr, "scalelab: error: %s: the machine's figures stop there\n", machine->lost().c_str());
    return true;
}

// How --metrics-host is reached: the load hosts' --ssh-command and --remote-scalelab.
HostCommand metricsHostCommand(const RunArgs& a) {
    HostCommand command;
    if (!a.sshCommand.empty()) command.ssh = words(a.sshCommand);
    command.remoteProgram = a.remoteScalelab;
    return command;
}

// --cpu-profile FILE: the counted window's folded stacks, or why there are none (the run's
// figures are reported either way; a missing profile is an error, never an empty file).
bool writeCpuProfile(const std::string& file, const LoadResult& result) {
    std::optional<CpuProfile> profile = result.system ? result.system->cpuProfile : std::nullopt;
    if (!profile) {
        std::fprintf(stderr, "scalelab: error: --cpu-profile: the run ended before its counted window did\n");
        return false;
    }
    if (!profile->available()) {
        std::fprintf(stderr, "scalelab: error: --cpu-profile: no profile: %s\n", profile->unavailable.c_str());
        return false;
    }
    writeFileAtomically(file, foldedText(profile->folded));
    note("CPU profile: " + std::to_string(profile->samples) + " samples of the server's processes (" + profile->source +
         ") written to " + file + " as folded stacks");
    return true;
}

int runOnLoadHosts(const RunArgs& a, const LoadSpec& spec, const std::function<void(const LoadSample&)>& progress,
                   MetricsPublisher* live) {
    LoadHostsOptions options;
    options.hosts = a.loadHosts;
    if (!a.sshCommand.empty()) options.ssh = words(a.sshCommand);
    options.remoteProgram = a.remoteScalelab;
    LoadCoordinator coordinator(options, spec);
    // With a metrics host, the server's machine over the run (docs/hosts.md): read before the
    // hosts start and after the last result; the clients run elsewhere ("local" among them: here too).
    std::unique_ptr<SystemSampler> metrics;
    std::optional<SystemSnapshot> before;
    if (!a.metricsHost.empty()) {
        MetricsSources sources = MetricsSources::forThisProcess(spec.conninfo, 0, 0);
        sources.loadGenerator = 0;
        sources.clientsHere = std::find(a.loadHosts.begin(), a.loadHosts.end(), "local") != a.loadHosts.end();
        sources.disks.only = a.devices;
        sources.disks.partitions = a.partitions;
        sources.machine = std::make_shared<RemoteMachine>(a.metricsHost, metricsHostCommand(a));
        metrics = std::make_unique<SystemSampler>(sources);
        before = metrics->snapshot();
    }
    LoadHostsResult result;
    int interrupted = 0;
    {
        InterruptToStop interrupts("stopping: every load host finishes its transactions in flight",
                                   [&coordinator] { coordinator.requestStop(); });
        result = coordinator.run(progress);
        interrupted = interrupts.exitCode();
    }
    if (metrics) {
        result.merged.system = metrics->between(*before, metrics->finalSnapshot(5000));
        for (const auto& h : result.hosts)
            if (h.clientBound) result.merged.system->clientBound = true;
    }
    if (live) live->runEnded(result.merged);
    for (const auto& h : result.merged.housekeeping)
        note("before the run: " + h.statement + (h.error.empty() ? "" : " (failed, ignored as pgbench does: " + h.error + ")"));
    if (a.json) {
        nlohmann::json j = toJson(result.merged);
        j.erase("histogram");
        nlohmann::json hosts = nlohmann::json::array();
        for (const auto& h : result.hosts) hosts.push_back(toJson(h));
        j["load_hosts"] = hosts;
        j["coordinator_cpu_s"] = result.coordinatorCpuS;
        if (metrics) j["metrics_machine"] = toJson(metrics->machine());
        for (auto& s : j["samples"]) s.erase("histogram");
        std::cout << j.dump(2) << "\n";
    } else {
        size_t n = result.hosts.size();
        printReport(spec, result.merged, "none here: the clients ran on " + std::to_string(n) + (n == 1 ? " load host" : " load hosts"),
                    metrics ? &metrics->machine() : nullptr);
        printHosts(result);
    }
    if (metrics && saidMachineLost(metrics->sources().machine.get()) && !interrupted && result.merged.abortedClients == 0 &&
        result.merged.status != RunStatus::Failed)
        return 1;
    if (interrupted) return interrupted;  // reported and kept, but not a finished run
    if (result.merged.abortedClients > 0) return 2;
    return result.merged.status == RunStatus::Failed ? 1 : 0;
}

} // namespace

static int runTpccInit(const InitArgs& args) {
    tpcc::InitOptions o;
    o.warehouses = args.warehouses;
    o.jobs = args.jobs;
    std::optional<uint64_t> seed = parseRandomSeed(args.seed.empty() ? "time" : args.seed);
    o.seed = seed ? *seed : static_cast<uint64_t>(realtimeNs() / 1000);
    o.reinit = args.reinit;
    o.note = note;
    tpcc::checkInitOptions(o);
    Target target = openTarget(args.target);
    note("TPROC-C data seed: " + std::to_string(o.seed));
    tpcc::initData(target.conninfo, o);
    return 0;
}

int runInitCommand(const InitArgs& args) {
    return runCommand([&] {
        if (!args.otherWorkloadOptions.empty()) {
            std::string which;
            for (const auto& name : args.otherWorkloadOptions) which += (which.empty() ? "" : ", ") + name;
            throw Error(which + (args.otherWorkloadOptions.size() == 1 ? " is an option" : " are options") + " of " +
                        (args.workload == "tprocc" ? "--workload pgbench" : "--workload tprocc") + ", not of --workload " +
                        args.workload);
        }
        if (args.workload == "tprocc") return runTpccInit(args);
        PgbenchInitOptions o;
        o.scale = args.scale;
        o.fillfactor = args.fillfactor;
        o.steps = args.steps;
        o.partitions = args.partitions;
        if (!args.partitionMethod.empty()) o.partitionMethod = parsePartitionMethod(args.partitionMethod);
        o.unloggedTables = args.unloggedTables;
        o.foreignKeys = args.foreignKeys;
        o.noVacuum = args.noVacuum;
        o.quiet = args.quiet;
        o.reinit = args.reinit;
        o.note = note;
        checkInitOptions(o);  // before anything starts: a typo must not cost an initdb
        Target target = openTarget(args.target);
        initPgbenchData(target.conninfo, o);
        return 0;
    });
}

// -b list and --show-script NAME: pgbench prints them on stderr and exits 0; an unknown name
// is an error, followed by the list.
std::optional<int> printBuiltinScripts(const RunArgs& a) {
    if (std::find(a.builtins.begin(), a.builtins.end(), "list") != a.builtins.end()) {
        std::fputs(builtinScriptList().c_str(), stderr);
        return 0;
    }
    if (a.showScript.empty()) return std::nullopt;
    std::string description;
    const char* text = builtinScriptText(a.showScript, description);
    if (!text) {
        std::fprintf(stderr, "scalelab: error: %s\n%s", unknownBuiltin(a.showScript).c_str(), builtinScriptList().c_str());
        return 1;
    }
    std::string name = a.showScript;
    for (const auto& n : builtinScriptNames())
        if (n.rfind(a.showScript, 0) == 0) name = n;  // a unique prefix names it whole, as pgbench
    std::fprintf(stderr, "-- %s: %s\n%s\n", name.c_str(), description.c_str(), text);
    return 0;
}

// --random-seed, else PGBENCH_RANDOM_SEED (pgbench reads it first, the option overrides it),
// else the clock.
std::optional<uint64_t> runSeed(const RunArgs& a) {
    if (!a.seed.empty()) return parseRandomSeed(a.seed);
    const char* env = std::getenv("PGBENCH_RANDOM_SEED");
    if (!env) return std::nullopt;
    try {
        return parseRandomSeed(env);
    } catch (const Error& e) {
        throw Error(std::string(e.what()) + "\nerror while setting random seed from PGBENCH_RANDOM_SEED environment variable");
    }
}

int runRunCommand(const RunArgs& a) {
    if (std::optional<int> listed = printBuiltinScripts(a)) return *listed;
    return runCommand([&] {
        LoadSpec spec;
        spec.seed = runSeed(a);  // first, as pgbench reads PGBENCH_RANDOM_SEED before anything else
        if (spec.seed) note("setting random seed to " + std::to_string(*spec.seed));
        static_cast<RunSettings&>(spec) = a.settings;  // every run setting as the options gave it
        spec.workload = buildWorkload(a);
        spec.clients = a.clients;
        spec.threads = a.threads;
        spec.rate = a.rate;
        spec.vacuum = a.noVacuum ? RunVacuum::None : a.vacuumAll ? RunVacuum::All : RunVacuum::Pgbench;
        // pgbench's housekeeping is of pgbench's tables; TPROC-C's are left as they are.
        if (a.workload == "tprocc") spec.vacuum = RunVacuum::None;
        // pgbench's rules for the log options, in its words.
        if (!a.log && !a.logPrefix.empty()) throw Error("log file prefix (--log-prefix) is allowed only when logging transactions (-l)");
        if (!a.log && a.samplingRate != 0) throw Error("log sampling (--sampling-rate) is allowed only when logging transactions (-l)");
        if (!a.log && a.aggregateInterval != 0) throw Error("log aggregation is allowed only when actually logging transactions");
        if (a.progressTimestamp && a.progress <= 0) throw Error("--progress-timestamp is allowed only under --progress");
        if (a.samplingRate < 0 || a.samplingRate > 1) throw Error("invalid sampling rate: \"" + std::to_string(a.samplingRate) + "\"");
        if (a.log) {
            LoadSpec::TransactionLog l;
            if (!a.logPrefix.empty()) l.prefix = a.logPrefix;
            l.samplingRate = a.samplingRate;
            l.aggregateIntervalS = a.aggregateInterval;
            spec.log = l;
        }
        if (a.progress > 0) spec.sampleIntervalS = a.progress;
        if (spec.durationS == 0 && spec.transactionsPerClient == 0) spec.transactionsPerClient = 10;  // pgbench's default
        validate(spec);  // before anything starts: a typo must not cost an initdb
        // The hosts as a plan's are checked (issue 60.8: --load-hosts -oProxyCommand=... ran a command).
        for (const auto& h : a.loadHosts)
            if (std::string why = sshDestinationProblem(h); !why.empty() && h != "local") throw UsageError("--load-hosts: " + why);
        if (std::string why = sshDestinationProblem(a.metricsHost); !a.metricsHost.empty() && !why.empty())
            throw UsageError("--metrics-host: " + why);
        if (std::string why = remoteProgramProblem(a.remoteScalelab); !a.remoteScalelab.empty() && !why.empty())
            throw UsageError("--remote-scalelab: " + why);
        if (!a.metricsHost.empty() && a.target.conninfo.empty())
            throw UsageError("--metrics-host is for a server of yours on another machine (--conninfo); the embedded server "
                             "runs here, and its machine is measured here");
        if (!a.loadHosts.empty()) {
            if (!a.placement.empty() || a.separate || a.realSmt || a.offlineCpus)
                throw UsageError("--placement, --separate, --real-smt and --offline-cpus place this machine's load generator: with --load-hosts the clients run elsewhere");
            if (a.log) throw UsageError("-l writes each thread's log on its own machine: not available with --load-hosts");
            if (spec.exitOnAbort || spec.debug)
                throw UsageError("--exit-on-abort and --debug act in one process: not available with --load-hosts");
        }
        if (!a.placement.empty()) parsePlacement(a.placement, a.separate);  // a typo must not start a server
        CpuMethod cpuMethod = cpuMethodOf(a.realSmt, a.offlineCpus);
        if (cpuMethod != CpuMethod::Bind && a.placement.empty())
            throw UsageError("--real-smt and --offline-cpus need a --placement");
        // Listening before the server starts: a port in use must not cost an initdb.
        LiveEndpoint live = startLiveEndpoint(a.metricsListen, "");

        Target target = openTarget(a.target);
        spec.conninfo = target.conninfo;
        ensureConnectionsFor(target.embedded.get(), target.conninfo, spec.clients, note);  // before anything runs
        PgbenchDataInfo data;
        if (usesBuiltin(a)) {
            PgbenchDataNeed need;
            need.ownServer = target.embedded != nullptr;
            need.scale = a.initScale;
            need.otherwise = "run `scalelab init --conninfo ... --scale N` (or pgbench -i) first";
            data = ensurePgbenchData(target.conninfo, need, note);
        }  // custom scripts alone do not read the tables' scale (scaleForRun)
        if (a.workload == "tprocc") {
            tpcc::DataInfo tpccData = tpcc::inspectData(target.conninfo);
            uint64_t seed = spec.seed ? *spec.seed : static_cast<uint64_t>(realtimeNs() / 1000);
            tpcc::NurandConstants c = tpcc::defineRunVariables(spec.workload, tpccData, seed);
            note("TPROC-C: " + std::to_string(tpccData.warehouses) + (tpccData.warehouses == 1 ? " warehouse" : " warehouses") +
                 ", the run's NURand constants C_LAST " + std::to_string(c.lastName) + " (the load's " +
                 std::to_string(tpccData.constants.lastName) + "), C_ID " + std::to_string(c.customerId) + ", OL_I_ID " +
                 std::to_string(c.itemId) +
                 (a.keyingThinking > 0 ? "; keying and thinking times x" + formatNumber("%g", a.keyingThinking) +
                                             " TPC-C's (not counted in the latencies)"
                                       : std::string("; no keying or thinking times")));
        }
        spec.scale = scaleForRun(usesBuiltin(a), data, a.scale, note);

        std::function<void(const LoadSample&)> progress;
        if (a.progress > 0)
            progress = [stamp = a.progressTimestamp, live = live.publisher, scriptSet = spec.workload.scriptSet](const LoadSample& s) {
                if (live) live->add(s);
                char when[48];
                if (stamp) {  // pgbench's --progress-timestamp: the wall clock, to the millisecond
                    timespec now{};
                    clock_gettime(CLOCK_REALTIME, &now);
                    std::snprintf(when, sizeof when, "%lld.%03ld", static_cast<long long>(now.tv_sec), now.tv_nsec / 1000000);
                } else {
                    std::snprintf(when, sizeof when, "%.1f", s.endS);
                }
                // TPROC-C's interval NOPM after pgbench's fields, which stay as pgbench prints them.
                std::string nopm;
                if (auto n = tpcc::sampleNewOrdersPerMinute(scriptSet, s)) nopm = formatNumber(", %.0f NOPM", *n);
                std::fprintf(stderr, "progress: %s s, %.1f tps, lat %.3f ms stddev %.3f, %llu failed%s%s\n", when, s.tps,
                             s.latency.meanMs, s.latency.stddevMs, static_cast<unsigned long long>(s.failures), nopm.c_str(),
                             s.warmup ? " (warm-up)" : "");
            };
        else if (live.publisher)
            progress = [live = live.publisher](const LoadSample& s) { live->add(s); };
        if (live.publisher) live.publisher->runStarted(spec.clients, spec.workload.scriptSet);
        if (!a.cpuProfile.empty() && (!a.loadHosts.empty() || !a.metricsHost.empty()))
            throw UsageError("--cpu-profile records a server on this machine, with the clients here: drop --load-hosts and "
                             "--metrics-host");
        if (!a.loadHosts.empty()) {
            if (target.embedded)
                for (const auto& h : a.loadHosts)
                    if (h != "local")
                        throw UsageError("the embedded server listens on this machine only: give --conninfo of a server the load host " +
                                         h + " can reach");
            return runOnLoadHosts(a, spec, progress, live.publisher.get());
        }
        PlacementScope placement(a.placement, a.separate, cpuMethod,
                                 target.embedded ? target.embedded->status().pid : 0, note);
        spec.onWorkerStart = placement.bindWorkers();
        MetricsSources sources = MetricsSources::forThisProcess(
            target.conninfo, target.embedded ? target.embedded->status().pid : 0, placement.loadGeneratorPus());
        sources.disks.only = a.devices;
        sources.disks.partitions = a.partitions;
        if (!a.metricsHost.empty()) sources.machine = std::make_shared<RemoteMachine>(a.metricsHost, metricsHostCommand(a));
        sources.cpuProfile = !a.cpuProfile.empty();
        SystemSampler metrics(sources);
        if (sources.cpuProfile && !metrics.profileRefusal().empty())
            throw Error("--cpu-profile: " + metrics.profileRefusal());
        if (!metrics.machine().server && !a.json)
            note("CPU, disk and pressure figures are from " + metrics.machine().describe() + ": " + metrics.machine().why);
        LoadRun run(spec, progress, &metrics);
        LoadResult result;
        int interrupted = 0;
        {
            InterruptToStop interrupts("stopping: finishing the transactions in flight", [&run] { run.requestStop(true); });
            result = run.run();
            interrupted = interrupts.exitCode();
        }
        if (live.publisher) live.publisher->runEnded(result);
        for (const auto& h : result.housekeeping)
            note("before the run: " + h.statement + (h.error.empty() ? "" : " (failed, ignored as pgbench does: " + h.error + ")"));
        if (result.exitedOnAbort) {
            // pgbench --exit-on-abort: the client's words, the thread, exit status 2, no results.
            std::fprintf(stderr, "scalelab: error: %s\nscalelab: error: Run was aborted due to an error in thread %d\n",
                         result.firstAbort.c_str(), *result.exitedOnAbort);
            return 2;
        }
        if (a.json) {
            nlohmann::json j = toJson(result);
            j["placement"] = toJson(placement.record());
            j["metrics_machine"] = toJson(metrics.machine());
            std::cout << j.dump(2) << "\n";
        } else {
            printReport(spec, result, placement.record().describe(), &metrics.machine());
        }
        if (saidMachineLost(sources.machine.get()) && !interrupted && result.abortedClients == 0 && result.status != RunStatus::Failed)
            return 1;
        if (sources.cpuProfile && !writeCpuProfile(a.cpuProfile, result) && !interrupted) return 1;
        // Stopped by SIGINT or SIGTERM: 130 or 143, after the report (pgbench dies of the
        // signal, which a shell reports the same way). Else pgbench's exit status: 2 when
        // clients aborted (the results are incomplete), 1 when the run could not go on at all.
        if (interrupted) return interrupted;
        if (result.abortedClients > 0) return 2;
        return result.status == RunStatus::Failed ? 1 : 0;
    });
}

} // namespace scalelab::app
