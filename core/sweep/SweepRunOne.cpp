// One planned run of a sweep (SweepRunner::runOne) and its steps: announce it, prepare its
// server and data, place it, sample it, run its load, judge and store its record.
#include "sweep/SweepRunner.h"

#include "load/data/PgbenchData.h"
#include "load/data/TpccScripts.h"
#include "metrics/MetricsJson.h"
#include "metrics/RemoteMachine.h"
#include "metrics/SystemSampler.h"
#include "server/ConnectionCapacity.h"
#include "store/StatementTexts.h"
#include "sweep/Provenance.h"
#include "sweep/RemoteCluster.h"
#include "sweep/RunRecordOf.h"
#include "sweep/SweepEstimate.h"
#include "sweep/SweepSession.h"
#include "topo/PlacementScope.h"
#include "util/Format.h"

#include <algorithm>

namespace scalelab {
namespace {

std::string waitsProvenance(WaitSource source) {
    const std::string activity = "pg_stat_activity sampled at " + formatNumber("%.0f", kWaitSampleHz) + " Hz";
    const std::string window = " through each run's counted window (each run records its source)";
    switch (source) {
    case WaitSource::WaitSampling: return "pg_wait_sampling's profile" + window;
    case WaitSource::Activity: return activity + window;
    case WaitSource::Auto: break;
    }
    return "pg_wait_sampling's profile where the server loads it, else " + activity + window;
}

} // namespace

void SweepRunner::takeProvenance(Session& s, const std::string& conninfo) {
    if (s.provenanceTaken) return;
    nlohmann::json provenance = {{"machine", machineProvenance()},
                                 {"server", serverProvenance(conninfo)},
                                 {"scripts", scriptProvenance(s.workload)},
                                 {"statements", !plan_.statements ? "off (target.statements: false)"
                                                : plan_.embedded()
                                                    ? "pg_stat_statements, preloaded by ScaleLab's embedded server"
                                                    : "pg_stat_statements where the server has it"},
                                 {"waits", plan_.waits ? waitsProvenance(plan_.waitSource) : "off ($.diagnostics.waits: false)"},
                                 {"cpu_profile", plan_.cpuProfile ? "perf record -g on cpu-clock at " +
                                                                        formatNumber("%g", plan_.profileHz) +
                                                                        " Hz through each run's counted window"
                                                                  : "off ($.diagnostics.cpu_profile: false)"}};
    if (metricsHost_) {  // the server's machine, as its agent described it
        provenance["server_machine"] = metricsHost_->provenance();
        provenance["server_machine"][plan_.serverHost ? "server_host" : "metrics_host"] = metricsHost_->host();
    }
    store_.addProvenance(provenance);
    s.provenanceTaken = true;
}

// Where the machine figures come from, in the progress and (once) in the Messages, and once
// what pg_stat_statements gives.
void SweepRunner::sayWhatIsMeasured(Session& s, const SystemSampler& sampler) {
    s.progress.metricsMachine = sampler.machine().describe();
    s.progress.metricsMachineCores.clear();
    if (metricsHost_ && metricsHost_->provenance().contains("core_pus"))
        for (const auto& c : metricsHost_->provenance()["core_pus"]) {
            CoreInfo core;
            core.package = c.at(0).get<int>();
            core.pus = c.at(1).get<std::vector<int>>();
            s.progress.metricsMachineCores.push_back(std::move(core));
        }
    if (!s.metricsMachineSaid) {
        s.servers.note("CPU, disk and pressure figures are from " + sampler.machine().describe() +
                       (sampler.machine().server ? "" : ": " + sampler.machine().why));
        s.metricsMachineSaid = true;
    }
    if (!s.waitsSaid && plan_.waits) {
        s.servers.note("waits: " + sampler.waitsSource());
        s.waitsSaid = true;
    }
    if (!s.profileSaid && plan_.cpuProfile) {
        s.servers.note("CPU profile: " + sampler.profileSource());
        s.profileSaid = true;
    }
    if (!s.statementsSaid && plan_.statements) {
        std::string source = sampler.statementsSource();
        s.servers.note(sampler.statementsAvailable() ? "statements: " + source + ", read at each run's counted window's edges"
                                                     : "statements: none recorded: " + source);
        s.statementsSaid = true;
    }
}

// The plan's load for one planned run, on the placement's load-generator PUs.
LoadSpec SweepRunner::loadSpecFor(const Session& s, const PlannedRun& planned, const RunTarget& target,
                                  const PlacementScope& placement) const {
    LoadSpec spec;
    static_cast<RunSettings&>(spec) = plan_;  // every run setting as the plan has it
    spec.conninfo = target.conninfo;
    spec.workload = s.workload;
    spec.clients = planned.clients;
    spec.threads = plan_.threads.threadsFor(planned.clients, placement.loadGeneratorPus());
    spec.rate = planned.rate;
    spec.scale = target.scale;
    spec.seed = s.seed ^ (0x9e3779b97f4a7c15ull * static_cast<uint64_t>(planned.index + 1));
    // TPROC-C's :warehouses and the run's NURand constants, from the data and the run's seed.
    if (target.tpcc) tpcc::defineRunVariables(spec.workload, *target.tpcc, *spec.seed);
    spec.onWorkerStart = placement.bindWorkers();
    spec.keepRunHistogram = true;  // stored with the run: its latency distribution
    return spec;
}

// Before the run: paused, then the progress says which run is next and how long the rest takes.
bool SweepRunner::announce(Session& s, const PlannedRun& planned) {
    SweepProgress& progress = s.progress;
    if (pausedNow()) {
        progress.state = SweepState::Paused;
        report(progress);
    }
    waitWhilePaused();
    if (stopped_) return false;
    progress.run = planned.index + 1;
    progress.series = plan_.series[static_cast<size_t>(planned.series)].label;
    progress.clients = planned.clients;
    progress.rate = planned.rate;
    progress.scale = plan_.scales.size() > 1 ? planned.scale : 0;
    progress.repetition = planned.repetition;
    progress.elapsedS = secondsSince(s.started);
    int left = total_ - s.done + s.extraExpected;
    double perRun = s.doneThisSession > 0 ? progress.elapsedS / s.doneThisSession : secondsPerRun(plan_).value_or(0);
    progress.etaS = perRun * left;
    progress.state = SweepState::Preparing;
    report(progress);
    return true;
}

// Server, data and settle. A server that goes away meanwhile fails this run (kept, with the
// server's words) and the sweep goes on; any other error stops the sweep.
std::optional<SweepRunner::RunTarget> SweepRunner::prepareTarget(Session& s, const PlannedRun& planned,
                                                                 const SeriesSpec& series) {
    SweepServers& servers = s.servers;
    RunTarget target;
    try {
        target.conninfo = servers.activate(series);
        if (s.follower) s.follower->follow(dynamic_cast<RemoteCluster*>(servers.active()));
        servers.markRunStart();
        if (plan_.embedded())
            sizeEmbeddedServerFor(*servers.active(), s.maxClients, [&](const std::string& line) { servers.note(line); });
        target.builtS = servers.ensureData(target.conninfo, s.usesPgbenchTables, planned.scale);
        if (plan_.tprocc()) {
            SweepServers::TpccData data = servers.ensureTpccData(target.conninfo, s.seed);
            target.tpcc = data.data;
            target.builtS = data.builtS;
        }
        takeProvenance(s, target.conninfo);
        target.scale = scaleForRun(s.usesPgbenchTables,
                                   s.usesPgbenchTables ? inspectPgbenchData(target.conninfo) : PgbenchDataInfo{}, plan_.scriptScale);
        s.progress.state = SweepState::Settling;
        report(s.progress);
        settle(target.conninfo, servers);
    } catch (const TargetGone&) {
        throw;
    } catch (const std::exception& e) {
        if (stopped_) return std::nullopt;
        auto loss = servers.lossSinceRunStart();
        if (!loss) throw;
        failedBeforeRun(s, planned, std::string(e.what()) + "; " + loss->what, loss);
        return std::nullopt;
    }
    if (stopped_) return std::nullopt;
    return target;
}

// The figures of the run: this machine's, the server's (here, or through the agent of the
// server or metrics host). The metrics host lost during an earlier run is started again; when
// it cannot be, or is lost again while asked where the server is, this run fails in its words
// (and runs again at the end), as a run whose server went away: null then.
std::unique_ptr<SystemSampler> SweepRunner::samplerFor(Session& s, const PlannedRun& planned, const std::string& conninfo,
                                                       pid_t postmaster, const PlacementScope& placement) {
    MetricsSources sources = MetricsSources::forThisProcess(conninfo, postmaster, placement.loadGeneratorPus());
    sources.statements = plan_.statements;
    sources.createStatementsExtension = plan_.embedded();
    sources.waits = plan_.waits;
    sources.waitSource = plan_.waitSource;
    sources.loadReconnects = plan_.connectPerTransaction;
    sources.cpuProfile = plan_.cpuProfile;
    sources.profileHz = plan_.profileHz;
    if (plan_.loadHosts) {
        sources.loadGenerator = 0;  // the clients run elsewhere: each host measures its own
        const auto& h = plan_.loadHosts->hosts;
        sources.clientsHere = std::find(h.begin(), h.end(), "local") != h.end();
    }
    try {
        if (plan_.agentHost()) sources.machine = serverAgent();
        return std::make_unique<SystemSampler>(sources);
    } catch (const std::exception& e) {
        if (!plan_.agentHost() || !metricsHost_ || metricsHost_->lost().empty()) throw;  // not the host's doing
        failedBeforeRun(s, planned, e.what(), std::nullopt);
        return nullptr;
    }
}

// A run that ended as Completed may still be failed: the metrics host went silent in it (its
// machine's figures stop part-way), or the embedded server died under it (sessions keep
// answering until they next wait; its figures come from a server without its background
// processes). Either way it is kept, and runs again. Returns the server's loss, if any.
std::optional<ServerLoss> SweepRunner::judge(Session& s, RunRecord& record) {
    if (metricsHost_ && !metricsHost_->lost().empty() && record.status == RunStatus::Completed) {
        record.status = RunStatus::Failed;
        record.error = "the run completed, but " + metricsHost_->lost();
    }
    std::optional<ServerLoss> loss;
    if (record.status == RunStatus::Failed) {
        loss = s.servers.lossSinceRunStart();
        if (loss) record.error += "; " + loss->what;
    } else if (record.status == RunStatus::Completed && plan_.embedded()) {
        loss = s.servers.lossSinceRunStart();
        if (loss) {
            record.status = RunStatus::Failed;
            record.error = "the run completed, but " + loss->what;
        }
    }
    // What the server said about a failed run (a crash, a FATAL) goes with it.
    if (record.status == RunStatus::Failed && plan_.embedded())
        record.detail["server_log"] = loss ? loss->log : s.servers.logSinceRunStart();
    return loss;
}

// The Messages' words on a stored run's flags: below the offered rate, client-bound, unstable.
void SweepRunner::sayFlags(Session& s, const PlannedRun& planned, const RunRecord& record, const LoadResult& result) {
    const std::string& label = record.series;
    std::string round = ", round " + std::to_string(planned.repetition);
    if (record.flags.has(RunFlag::BelowRate))
        s.servers.note(label + " at " + clientsText(planned.clients) + round + ": below the offered rate: offered " +
                       formatNumber("%.0f", result.rate) + " tps, achieved " + formatNumber("%.0f", result.tps) + " (" +
                       formatNumber("%.0f", 100 * result.tps / result.rate) +
                       "%): its latency is that of a queue, not of the service at that load");
    if (record.flags.has(RunFlag::SystemMissing) && result.system) {
        std::string what;
        for (const auto& [kind, why] : result.system->missing) what += (what.empty() ? "" : "; ") + kind + " (" + why + ")";
        s.servers.note(label + " at " + clientsText(planned.clients) + round +
                       ": some of the machine's figures could not be read and are missing, not 0: " + what);
    }
    if (record.flags.has(RunFlag::SlowMetrics) && result.system)
        s.servers.note(label + " at " + clientsText(planned.clients) + round + ": slow-metrics: a reading of the machine took " +
                       formatNumber("%.0f", result.system->slowestReadingMs) +
                       " ms, over 10% of the sample interval: the intervals around it, and the start, were delayed");
    for (RunFlag flag : record.flags.known()) {
        if (flag != RunFlag::ClientBound && flag != RunFlag::Unstable) continue;
        s.servers.note(label + " at " + runPointText(planned.clients, planned.rate, s.progress.scale) + round + ": " +
                       (flag == RunFlag::ClientBound ? "client-bound: the load generator used over 90% of its PUs; "
                                                       "this point measures the client, not the server"
                                                     : "unstable: " + record.detail["steady_state"]["reason"].get<std::string>()));
    }
}

SweepRunner::Next SweepRunner::runOne(Session& s, const PlannedRun& planned) {
    if (!announce(s, planned)) return Next::Stop;
    const SeriesSpec& series = plan_.series[static_cast<size_t>(planned.series)];
    std::optional<RunTarget> target = prepareTarget(s, planned, series);
    if (!target) return stopped_ ? Next::Stop : Next::Go;

    // A server host's postmaster is measured there, by its agent (a pid of that machine).
    SweepServers& servers = s.servers;
    pid_t postmaster = plan_.embedded() && servers.active()->local() ? servers.active()->status().pid : 0;
    // On a server host the series' placement is the server's there, applied by its agent; the
    // clients here are not placed.
    bool placedThere = plan_.serverHost && !series.placement.empty();
    CpuMethod method = cpuMethodOf(series.realSmt, series.offlineCpus);
    auto sayForSeries = [&](const std::string& line) { servers.note(series.label + ": " + line); };
    PlacementScope placement(placedThere ? "" : series.placement, placedThere ? false : series.separate,
                             placedThere ? CpuMethod::Bind : method, postmaster, sayForSeries);
    std::unique_ptr<ServerHostPlacement> hostPlacement;
    if (placedThere) {
        try {
            hostPlacement = std::make_unique<ServerHostPlacement>(dynamic_cast<RemoteCluster&>(*servers.active()),
                                                                  series.placement, series.separate, method, sayForSeries);
        } catch (const std::exception& e) {
            if (!metricsHost_ || metricsHost_->lost().empty()) throw;  // the host refused: not a lost host
            failedBeforeRun(s, planned, e.what(), std::nullopt);
            return Next::Go;
        }
    }
    std::unique_ptr<SystemSampler> sampler = samplerFor(s, planned, target->conninfo, postmaster, placement);
    if (!sampler) return Next::Go;
    sayWhatIsMeasured(s, *sampler);

    s.progress.state = SweepState::Running;
    report(s.progress);
    std::string startedAt = utcTimestamp();
    nlohmann::json hosts;
    LoadResult result = runLoad(loadSpecFor(s, planned, *target, placement), *sampler, s.progress, hosts);

    RunRecord record = recordOf(result, series.label, planned.repetition);
    record.runIndex = planned.index;
    record.startedAt = startedAt;
    record.endedAt = utcTimestamp();
    if (moveStatementTexts(record.detail, s.texts)) saveStatementTexts(store_, s.texts);
    if (hostPlacement) {
        record.detail["placement"] = hostPlacement->record();
        record.detail["placement"]["client_pus"] = placement.record().clientPus;  // here, not placed
    } else {
        record.detail["placement"] = toJson(placement.record());
    }
    record.detail["metrics_machine"] = toJson(sampler->machine());
    record.detail["threads_rule"] = plan_.json.value("threads", nlohmann::json("pus"));
    // The data it ran on: its point on a data-size axis, and what building it took.
    if (s.usesPgbenchTables) record.detail["data_scale"] = planned.scale;
    if (target->tpcc) record.detail["data_warehouses"] = target->tpcc->warehouses;
    if (target->builtS) record.detail["data_build_s"] = *target->builtS;
    if (!hosts.is_null()) record.detail["load_hosts"] = hosts;
    std::optional<ServerLoss> loss = judge(s, record);
    if (planned.index >= s.plannedCount) record.flags.add(RunFlag::ExtraRound);
    record.id = save(record, samplesOf(result));
    remember(s, record);
    sayFlags(s, planned, record, result);
    if (observer_) observer_->onRunFinished(record);
    if (record.status != RunStatus::Stopped) {
        ++s.done;
        ++s.doneThisSession;
    }
    s.progress.done = s.done;
    if (record.status == RunStatus::Failed) failed(s, record, planned, loss);
    s.extraExpected = expectedExtra(s);
    return Next::Go;
}

} // namespace scalelab
