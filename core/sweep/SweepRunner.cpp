#include "sweep/SweepRunner.h"

#include "load/hosts/LoadResultJson.h"
#include "load/LoadRun.h"
#include "load/data/PgbenchData.h"
#include "metrics/MetricsJson.h"
#include "metrics/RemoteMachine.h"
#include "metrics/SystemSampler.h"
#include "store/StatementTexts.h"
#include "server/AlterSystem.h"
#include "server/ConnectionCapacity.h"
#include "server/EmbeddedServer.h"
#include "sweep/AdaptiveRounds.h"
#include "sweep/RunRecordOf.h"
#include "sweep/Provenance.h"
#include "sweep/RemoteCluster.h"
#include "sweep/ServerLogFollower.h"
#include "sweep/SweepEstimate.h"
#include "sweep/SweepPreflight.h"
#include "sweep/SweepServers.h"
#include "topo/PlacementScope.h"
#include "util/Error.h"
#include "util/Format.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <map>
#include <set>
#include <tuple>
#include <pqxx/pqxx>

namespace scalelab {
namespace {

double secondsSince(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

} // namespace

const char* sweepStateName(SweepState state) {
    switch (state) {
    case SweepState::Preparing: return "preparing";
    case SweepState::Settling: return "settling";
    case SweepState::Running: return "running";
    case SweepState::Paused: return "paused";
    case SweepState::Finished: return "finished";
    case SweepState::Stopped: return "stopped";
    }
    return "?";
}

SweepRunner::SweepRunner(SweepPlan plan, ExperimentStore& store, SweepObserver* observer, bool resume)
    : plan_(std::move(plan)), store_(store), observer_(observer), resume_(resume) {}

SweepRunner::~SweepRunner() = default;

// At the end of a sweep: every point with fewer completed rounds than planned, said plainly
// (a resume runs them again).
void SweepRunner::reportShortPoints(const std::vector<PlannedRun>& runs, SweepServers& servers) {
    std::set<int64_t> completed = store_.finishedRunIndexes();
    // (series, clients, rate, scale) -> (completed, planned)
    std::map<std::tuple<int, int, double, int64_t>, std::pair<int, int>> rounds;
    for (const auto& r : runs) {
        auto& c = rounds[{r.series, r.clients, r.rate, r.scale}];
        ++c.second;
        if (completed.count(r.index)) ++c.first;
    }
    for (const auto& [point, c] : rounds)
        if (c.first < c.second)
            servers.note(plan_.series[static_cast<size_t>(std::get<0>(point))].label + " at " +
                         runPointText(std::get<1>(point), std::get<2>(point),
                                      plan_.scales.size() > 1 ? std::get<3>(point) : 0) +
                         ": " + std::to_string(c.first) + " of " + std::to_string(c.second) +
                         " rounds completed; `scalelab sweep --resume` runs the missing ones again");
}

void SweepRunner::report(SweepProgress p) {
    if (observer_) observer_->onProgress(current(std::move(p)));
}

SweepProgress SweepRunner::current(SweepProgress p) const {
    if (sessionStart_ == std::chrono::steady_clock::time_point{}) return p;
    double now = secondsSince(sessionStart_);
    p.etaS = std::max(0.0, p.etaS - (now - p.elapsedS));
    p.elapsedS = now;
    return p;
}

void SweepRunner::pause() {
    std::lock_guard<std::mutex> lock(mutex_);
    paused_ = true;
    changed_.notify_all();
}

void SweepRunner::resume() {
    std::lock_guard<std::mutex> lock(mutex_);
    paused_ = false;
    changed_.notify_all();
}

void SweepRunner::stop() {
    std::lock_guard<std::mutex> lock(mutex_);
    stopped_ = true;
    if (stopCurrent_) stopCurrent_();
    changed_.notify_all();
}

bool SweepRunner::pausedNow() {
    std::lock_guard<std::mutex> lock(mutex_);
    return paused_ && !stopped_;
}

void SweepRunner::waitWhilePaused() {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return !paused_ || stopped_; });
}

bool SweepRunner::waitFor(double seconds) {
    std::unique_lock<std::mutex> lock(mutex_);
    return !changed_.wait_for(lock, std::chrono::duration<double>(seconds), [&] { return stopped_.load(); });
}

// CHECKPOINT and pause when the plan asks; a server that dies meanwhile is noticed within a
// quarter of a second, not when the next run fails to connect.
void SweepRunner::settle(const std::string& conninfo, const SweepServers& servers) {
    if (plan_.checkpoint) {
        pqxx::connection c(conninfo);
        pqxx::nontransaction tx(c);
        tx.exec("CHECKPOINT");
    }
    auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(plan_.pauseS);
    for (;;) {
        if (!servers.alive()) throw Error("the server went away during the pause between runs");
        double left = std::chrono::duration<double>(until - std::chrono::steady_clock::now()).count();
        if (left <= 0 || !waitFor(std::min(left, 0.25))) return;
    }
}

namespace {

// A planned run that could not start because its server went away while it was prepared.
RunRecord notStarted(const PlannedRun& planned, const SeriesSpec& series, const std::string& error) {
    RunRecord r;
    r.runIndex = planned.index;
    r.series = series.label;
    r.clients = planned.clients;
    r.repetition = planned.repetition;
    r.status = RunStatus::Failed;
    r.error = error;
    r.startedAt = r.endedAt = utcTimestamp();
    r.latency = missingLatency();
    r.detail["rate"] = planned.rate;  // its point on an offered-load axis
    r.detail["data_scale"] = planned.scale;
    return r;
}

} // namespace

std::string SweepRunner::resumeHint() const { return "`scalelab sweep PLAN -o " + store_.path() + " --resume`"; }

// A run that cannot be stored stops the sweep: what it measured is said in the message (it
// is not in the file), and every run stored before it is intact (one transaction per run).
int64_t SweepRunner::save(const RunRecord& record, const std::vector<StoredSample>& samples) {
    try {
        return store_.saveRun(record, samples);
    } catch (const FileRewritten& e) {
        throw FileRewritten(std::string(e.what()) + ". The sweep stops here; " + resumeHint() + " continues it.");
    } catch (const std::exception& e) {
        char measured[160];
        std::snprintf(measured, sizeof measured, "%s, %.1f tps, %llu transactions", runStatusName(record.status), record.tps,
                      static_cast<unsigned long long>(record.transactions));
        throw Error("run " + std::to_string(record.runIndex.value_or(-1) + 1) + " (" + record.series + " at " +
                    clientsText(record.clients) + ", round " + std::to_string(record.repetition) + ": " +
                    measured + ") could not be stored: " + e.what() + ". Every run stored before it is intact; " +
                    "when the file can be written again, " + resumeHint() + " runs the rest.");
    }
}

// What one call of run() carries from run to run: the queue, the counts behind the progress
// and its ETA, the servers, what was said once, the texts of the statements seen.
struct SweepRunner::Session {
    Session(SweepRunner& runner, uint64_t planSeed)
        : seed(planSeed),
          workload(runner.plan_.workload()),
          servers(
              runner.plan_, [&runner](const std::string& s) { if (runner.observer_) runner.observer_->onNote(s); },
              [&runner](double seconds) { return runner.waitFor(seconds); },
              [&runner] { return runner.serverAgent(); }) {}
    uint64_t seed;
    Workload workload;
    SweepServers servers;
    std::vector<PlannedRun> planned;
    int plannedCount = 0;
    std::set<int64_t> finished;  // run indexes completed before this session (resume)
    int done = 0, doneThisSession = 0, extraExpected = 0, maxClients = 0;
    bool usesPgbenchTables = false;
    std::chrono::steady_clock::time_point started;
    SweepProgress progress;
    // Failed runs go to the back of the queue to run again (plan.retries times), so a point
    // disturbed by a server that died still gets its rounds, interleaved order kept.
    std::deque<PlannedRun> queue;
    std::map<int, int> retriesLeft;
    // The runs kept as they finish (without their detail), for the precision rule's ETA:
    // reading the file after every run would cost O(runs^2) over a sweep.
    std::vector<RunRecord> seen;
    StatementTexts texts;
    bool provenanceTaken = false;
    bool metricsMachineSaid = false;  // the Messages say once where the machine figures come from
    bool statementsSaid = false;      // and once what pg_stat_statements gives
    // A server host's log, followed live; last, so it stops before the servers go.
    std::unique_ptr<ServerLogFollower> follower;
};

void SweepRunner::run() {
    // The plan and its seed: recorded on a fresh file, compared on resume.
    auto stored = store_.plan();
    uint64_t seed = 0;
    if (stored) {
        if (!resume_)
            throw Error(store_.path() + " already holds a sweep; continue it with --resume, or write to another file");
        if (stored->first != plan_.json)
            throw Error("the plan differs from the one " + store_.path() +
                        " was started with; --resume continues the same plan only");
        seed = stored->second;
    } else {
        seed = plan_.seed ? *plan_.seed : static_cast<uint64_t>(std::chrono::system_clock::now().time_since_epoch().count()) | 1;
    }
    Session s(*this, seed);
    // Misspelt settings, and a server of the user's without connections for the largest client
    // count, are refused now, before the file is written: not when their series starts.
    if (!preflightDone_) preflightSweep(plan_);
    // A metrics or server host that cannot be reached stops the sweep before its first run, in
    // its words; a placement the server host cannot apply, before the file is written.
    if (plan_.agentHost() && !metricsHost_) {
        auto agent = startMetricsHost();
        std::lock_guard<std::mutex> lock(agentMutex_);
        metricsHost_ = std::move(agent);
    }
    if (plan_.serverHost) refuseServerHostPlacements();
    if (plan_.serverHost && observer_)
        s.follower = std::make_unique<ServerLogFollower>(
            [this] {
                std::lock_guard<std::mutex> lock(agentMutex_);
                return metricsHost_;
            },
            [this](const std::vector<std::string>& lines) { observer_->onServerLog(lines); });
    for (size_t i = 0; i < plan_.series.size(); ++i) store_.ensureSeries(plan_.series[i].label, plan_.json["series"][i]);
    if (!stored) store_.savePlan(plan_.json, seed);

    s.planned = expandPlan(plan_, seed);
    s.plannedCount = static_cast<int>(s.planned.size());
    s.finished = store_.finishedRunIndexes();
    s.done = static_cast<int>(s.finished.size());
    // Runs of added rounds (precision rule) finished before a resume count in the total too.
    total_ = s.plannedCount + static_cast<int>(std::count_if(s.finished.begin(), s.finished.end(),
                                                             [&](int64_t i) { return i >= s.plannedCount; }));
    s.usesPgbenchTables = !plan_.builtins.empty();
    s.maxClients = *std::max_element(plan_.clients.begin(), plan_.clients.end());
    s.started = std::chrono::steady_clock::now();
    sessionStart_ = s.started;
    s.texts = statementTexts(store_);
    s.progress.total = total_;
    s.progress.done = s.done;
    s.progress.runS = plan_.durationS > 0 ? plan_.warmupS + plan_.durationS : 0;
    s.queue.assign(s.planned.begin(), s.planned.end());
    if (plan_.precision)
        for (const auto& r : store_.runs()) remember(s, r);
    s.extraExpected = expectedExtra(s);

    try {
        for (;;) {
            if (s.queue.empty() && !addRound(s)) break;
            const PlannedRun planned = s.queue.front();
            s.queue.pop_front();
            if (stopped_) break;
            if (s.finished.count(planned.index)) continue;
            if (runOne(s, planned) == Next::Stop) break;
        }
        if (!stopped_) reportShortPoints(s.planned, s.servers);
        if (!stopped_ && plan_.precision)
            for (const auto& n : pointsShortAtLimit(plan_, store_.runs()))
                s.servers.note(plan_.series[static_cast<size_t>(n.series)].label + " at " + gridPointText(plan_, n.at) +
                               ": " + std::to_string(n.rounds) + " rounds, the precision rule's limit, and still " +
                               n.reason);
        if (!stopped_ && plan_.precision && !plan_.precision->baseline.empty())
            for (const auto& sentence : comparisonAtEnd(plan_, store_.runs())) s.servers.note(sentence);
    } catch (const TargetGone& e) {
        s.servers.restore();
        throw TargetGone(std::string(e.what()) + ". The sweep stops here; every finished run is in " + store_.path() +
                         "; when the server is back, " + resumeHint() + " runs the rest.");
    } catch (...) {
        s.servers.restore();
        throw;
    }
    s.servers.restore();
    s.progress.elapsedS = secondsSince(s.started);
    s.progress.etaS = 0;
    s.progress.state = stopped_ ? SweepState::Stopped : SweepState::Finished;
    report(s.progress);
}

// After the planned rounds: one more interleaved round of the points that miss the plan's
// precision target (or whose comparison is undecided), decided from the file's runs, until
// none does or each is at the limit.
bool SweepRunner::addRound(Session& s) {
    if (!plan_.precision || stopped_) return false;
    std::vector<RunRecord> fileRuns = store_.runs();
    std::vector<PointNeed> needs = pointsNeedingRounds(plan_, fileRuns);
    if (needs.empty()) return false;
    int round = plan_.repetitions, first = s.plannedCount;
    for (const auto& r : fileRuns)
        if (r.runIndex) round = std::max(round, r.repetition), first = std::max<int>(first, static_cast<int>(*r.runIndex) + 1);
    for (const auto& r : s.queue) first = std::max(first, r.index + 1);
    std::vector<PlannedRun> extra = extraRound(plan_, needs, first, round + 1, s.seed);
    std::string which;
    for (const auto& n : needs)
        which += "\n  " + plan_.series[static_cast<size_t>(n.series)].label + " at " + gridPointText(plan_, n.at) +
                 " (" + std::to_string(n.rounds) + " so far): " + n.reason;
    s.servers.note("round " + std::to_string(round + 1) + " added by the precision rule, " + std::to_string(extra.size()) +
                   " run" + (extra.size() == 1 ? "" : "s") + ":" + which);
    s.queue.insert(s.queue.end(), extra.begin(), extra.end());
    s.progress.total = total_ += static_cast<int>(extra.size());
    return true;
}

void SweepRunner::remember(Session& s, const RunRecord& r) {
    if (!plan_.precision) return;
    s.seen.push_back(r);
    // The rule needs only where the run stands on the grid of the whole result.
    nlohmann::json where = nlohmann::json::object();
    if (double rate = offeredRateOf(r); rate > 0) where["rate"] = rate;
    if (int64_t scale = dataScaleOf(r); scale > 0) where["data_scale"] = scale;
    s.seen.back().detail = std::move(where);
}

// The runs the precision rule may still add beyond those planned or queued: the ETA counts
// them. Estimated after every run from the runs kept as they finish; the rounds themselves
// are decided from the file, once a round.
int SweepRunner::expectedExtra(const Session& s) const {
    if (!plan_.precision) return 0;
    int queuedExtra = static_cast<int>(
        std::count_if(s.queue.begin(), s.queue.end(), [&](const PlannedRun& r) { return r.index >= s.plannedCount; }));
    return std::max(0, estimatedExtraRuns(plan_, s.seen) - queuedExtra);
}

void SweepRunner::failed(Session& s, const RunRecord& record, const PlannedRun& planned, const std::optional<ServerLoss>& loss) {
    int& left = s.retriesLeft.try_emplace(planned.index, plan_.retries).first->second;
    std::string again;
    if (left > 0 && !stopped_) {
        --left;
        s.queue.push_back(planned);
        s.progress.total = ++total_;
        again = "; it runs again at the end of the sweep";
    }
    std::string log;
    if (loss && !loss->log.empty()) {
        log = "\nthe server's log since the run began:";
        for (const auto& line : loss->log) log += "\n  " + line;
    }
    s.servers.note("run " + std::to_string(planned.index + 1) + " failed: " + record.error + again + log);
}

// A run that failed before its load started (its server or metrics host went away): kept,
// said, and run again at the end.
void SweepRunner::failedBeforeRun(Session& s, const PlannedRun& planned, const std::string& why,
                                  const std::optional<ServerLoss>& loss) {
    RunRecord record = notStarted(planned, plan_.series[static_cast<size_t>(planned.series)], "before the run: " + why);
    if (loss && plan_.embedded()) record.detail["server_log"] = loss->log;
    if (planned.index >= s.plannedCount) record.flags.add(RunFlag::ExtraRound);
    record.id = save(record, {});
    remember(s, record);
    if (observer_) observer_->onRunFinished(record);
    failed(s, record, planned, loss);
}

void SweepRunner::takeProvenance(Session& s, const std::string& conninfo) {
    if (s.provenanceTaken) return;
    nlohmann::json provenance = {{"machine", machineProvenance()},
                                 {"server", serverProvenance(conninfo)},
                                 {"scripts", scriptProvenance(s.workload)},
                                 {"statements", !plan_.statements ? "off (target.statements: false)"
                                                : plan_.embedded()
                                                    ? "pg_stat_statements, preloaded by ScaleLab's embedded server"
                                                    : "pg_stat_statements where the server has it"}};
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
    if (!s.statementsSaid && plan_.statements) {
        std::string source = sampler.statementsSource();
        s.servers.note(sampler.statementsAvailable() ? "statements: " + source + ", read at each run's counted window's edges"
                                                     : "statements: none recorded: " + source);
        s.statementsSaid = true;
    }
}

// The plan's load for one planned run, on the placement's load-generator PUs.
LoadSpec SweepRunner::loadSpecFor(const Session& s, const PlannedRun& planned, const std::string& conninfo, int64_t scale,
                                  const PlacementScope& placement) const {
    LoadSpec spec;
    static_cast<RunSettings&>(spec) = plan_;  // every run setting as the plan has it
    spec.conninfo = conninfo;
    spec.workload = s.workload;
    spec.clients = planned.clients;
    spec.threads = plan_.threads.threadsFor(planned.clients, placement.loadGeneratorPus());
    spec.rate = planned.rate;
    spec.scale = scale;
    spec.seed = s.seed ^ (0x9e3779b97f4a7c15ull * static_cast<uint64_t>(planned.index + 1));
    spec.onWorkerStart = placement.bindWorkers();
    spec.keepRunHistogram = true;  // stored with the run: its latency distribution
    return spec;
}

SweepRunner::Next SweepRunner::runOne(Session& s, const PlannedRun& planned) {
    SweepProgress& progress = s.progress;
    if (pausedNow()) {
        progress.state = SweepState::Paused;
        report(progress);
    }
    waitWhilePaused();
    if (stopped_) return Next::Stop;
    const SeriesSpec& series = plan_.series[static_cast<size_t>(planned.series)];
    progress.run = planned.index + 1;
    progress.series = series.label;
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

    // Server, data and settle. A server that goes away meanwhile fails this run (kept, with
    // the server's words) and the sweep goes on; any other error stops the sweep.
    SweepServers& servers = s.servers;
    std::string conninfo;
    int64_t scale = 0;
    std::optional<double> built;  // seconds, when the data was built for this run
    try {
        conninfo = servers.activate(series);
        if (s.follower) s.follower->follow(dynamic_cast<RemoteCluster*>(servers.active()));
        servers.markRunStart();
        if (plan_.embedded())
            sizeEmbeddedServerFor(*servers.active(), s.maxClients, [&](const std::string& line) { servers.note(line); });
        built = servers.ensureData(conninfo, s.usesPgbenchTables, planned.scale);
        takeProvenance(s, conninfo);
        scale = scaleForRun(s.usesPgbenchTables, s.usesPgbenchTables ? inspectPgbenchData(conninfo) : PgbenchDataInfo{},
                            plan_.scriptScale);
        progress.state = SweepState::Settling;
        report(progress);
        settle(conninfo, servers);
    } catch (const TargetGone&) {
        throw;
    } catch (const std::exception& e) {
        if (stopped_) return Next::Stop;
        auto loss = servers.lossSinceRunStart();
        if (!loss) throw;
        failedBeforeRun(s, planned, std::string(e.what()) + "; " + loss->what, loss);
        return Next::Go;
    }
    if (stopped_) return Next::Stop;

    // A server host's postmaster is measured there, by its agent (a pid of that machine).
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
    LoadSpec spec = loadSpecFor(s, planned, conninfo, scale, placement);

    MetricsSources sources = MetricsSources::forThisProcess(conninfo, postmaster, placement.loadGeneratorPus());
    sources.statements = plan_.statements;
    sources.createStatementsExtension = plan_.embedded();
    if (plan_.loadHosts) {
        sources.loadGenerator = 0;  // the clients run elsewhere: each host measures its own
        const auto& h = plan_.loadHosts->hosts;
        sources.clientsHere = std::find(h.begin(), h.end(), "local") != h.end();
    }
    // The metrics host lost during an earlier run is started again; when it cannot be, or is
    // lost again while asked where the server is, this run fails in its words (and runs again
    // at the end), as a run whose server went away.
    std::unique_ptr<SystemSampler> samplerOwner;
    try {
        if (plan_.agentHost()) sources.machine = serverAgent();
        samplerOwner = std::make_unique<SystemSampler>(sources);
    } catch (const std::exception& e) {
        if (!plan_.agentHost() || !metricsHost_ || metricsHost_->lost().empty()) throw;  // not the host's doing
        failedBeforeRun(s, planned, e.what(), std::nullopt);
        return Next::Go;
    }
    SystemSampler& sampler = *samplerOwner;
    sayWhatIsMeasured(s, sampler);

    progress.state = SweepState::Running;
    report(progress);
    std::string startedAt = utcTimestamp();
    nlohmann::json hosts;
    LoadResult result = runLoad(spec, sampler, progress, hosts);
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
    record.detail["metrics_machine"] = toJson(sampler.machine());
    // The metrics host went silent in this run: its machine's figures stop part-way, so the
    // run fails and runs again, as when a load host is lost.
    if (metricsHost_ && !metricsHost_->lost().empty() && record.status == RunStatus::Completed) {
        record.status = RunStatus::Failed;
        record.error = "the run completed, but " + metricsHost_->lost();
    }
    record.detail["threads_rule"] = plan_.json.value("threads", nlohmann::json("pus"));
    // The data it ran on: its point on a data-size axis, and what building it took.
    if (s.usesPgbenchTables) record.detail["data_scale"] = planned.scale;
    if (built) record.detail["data_build_s"] = *built;
    if (!hosts.is_null()) record.detail["load_hosts"] = hosts;
    std::optional<ServerLoss> loss;
    if (record.status == RunStatus::Failed) {
        loss = servers.lossSinceRunStart();
        if (loss) record.error += "; " + loss->what;
    } else if (record.status == RunStatus::Completed && plan_.embedded()) {
        // A run can complete on a server that died under it: sessions keep answering until
        // they next wait and notice their postmaster is gone. Its figures come from a server
        // without its background processes, so it fails (kept, and run again), and the server
        // is started again before the next run.
        loss = servers.lossSinceRunStart();
        if (loss) {
            record.status = RunStatus::Failed;
            record.error = "the run completed, but " + loss->what;
        }
    }
    // What the server said about a failed run (a crash, a FATAL) goes with it.
    if (record.status == RunStatus::Failed && plan_.embedded())
        record.detail["server_log"] = loss ? loss->log : servers.logSinceRunStart();
    if (planned.index >= s.plannedCount) record.flags.add(RunFlag::ExtraRound);
    record.id = save(record, samplesOf(result));
    remember(s, record);
    if (record.flags.has(RunFlag::BelowRate))
        servers.note(series.label + " at " + clientsText(planned.clients) + ", round " + std::to_string(planned.repetition) +
                     ": below the offered rate: offered " + formatNumber("%.0f", result.rate) + " tps, achieved " +
                     formatNumber("%.0f", result.tps) + " (" + formatNumber("%.0f", 100 * result.tps / result.rate) +
                     "%): its latency is that of a queue, not of the service at that load");
    for (RunFlag flag : record.flags.known()) {
        if (flag != RunFlag::ClientBound && flag != RunFlag::Unstable) continue;
        servers.note(series.label + " at " + runPointText(planned.clients, planned.rate, progress.scale) + ", round " +
                     std::to_string(planned.repetition) + ": " +
                     (flag == RunFlag::ClientBound ? "client-bound: the load generator used over 90% of its PUs; "
                                                     "this point measures the client, not the server"
                                                   : "unstable: " + record.detail["steady_state"]["reason"].get<std::string>()));
    }
    if (observer_) observer_->onRunFinished(record);
    if (record.status != RunStatus::Stopped) {
        ++s.done;
        ++s.doneThisSession;
    }
    progress.done = s.done;
    if (record.status == RunStatus::Failed) failed(s, record, planned, loss);
    s.extraExpected = expectedExtra(s);
    return Next::Go;
}

std::shared_ptr<RemoteMachine> SweepRunner::startMetricsHost() const {
    const MetricsHostPlan& h = *plan_.agentHost();
    HostCommand command;
    if (!h.sshCommand.empty()) command.ssh = h.sshCommand;
    if (!h.scalelab.empty()) command.remoteProgram = command.localProgram = h.scalelab;
    return std::make_shared<RemoteMachine>(h.host, command, 60, plan_.serverHost ? "server host" : "metrics host");
}

// Each series' placement, asked of the server host as it is now (a machine with fewer cores, no
// SMT control, no right to switch): refused by the series' member, before any run.
void SweepRunner::refuseServerHostPlacements() {
    for (size_t i = 0; i < plan_.series.size(); ++i) {
        const SeriesSpec& s = plan_.series[i];
        if (s.placement.empty()) continue;
        auto refusal = checkPlacementOnHost(*metricsHost_, plan_.serverHost->host, s.placement, s.separate,
                                            cpuMethodOf(s.realSmt, s.offlineCpus));
        if (refusal) throw Error("$.series[" + std::to_string(i) + "]." + refusal->member + ": " + refusal->why);
    }
}

std::shared_ptr<RemoteMachine> SweepRunner::serverAgent() {
    // A host lost during an earlier run (or between runs) gets a new agent.
    if (!metricsHost_ || !metricsHost_->lost().empty()) {
        auto agent = startMetricsHost();
        std::lock_guard<std::mutex> lock(agentMutex_);
        metricsHost_ = std::move(agent);
    }
    return metricsHost_;
}

} // namespace scalelab
