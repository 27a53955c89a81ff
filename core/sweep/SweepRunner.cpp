#include "sweep/SweepRunner.h"

#include "metrics/RemoteMachine.h"
#include "sweep/AdaptiveRounds.h"
#include "sweep/RunRecordOf.h"
#include "sweep/ServerLogFollower.h"
#include "sweep/SweepEstimate.h"
#include "sweep/SweepPreflight.h"
#include "sweep/SweepServers.h"
#include "sweep/SweepSession.h"
#include "util/Error.h"
#include "util/Format.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <map>
#include <set>
#include <pqxx/pqxx>

namespace scalelab {

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
    if (plan_.agentHost() && plan_.cpuProfile) refuseAgentProfile();
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
    s.progress.scriptSet = plan_.scriptSet;
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

// A CPU profile the server's machine cannot record (perf missing or not allowed there) is
// refused before the file is written, in that machine's words.
void SweepRunner::refuseAgentProfile() {
    nlohmann::json a = metricsHost_->ask({{"profile", {{"check", true}}}}, "profile", "whether perf can profile there");
    std::string refusal = a.is_object() && a.contains("refusal") && a["refusal"].is_string() ? a["refusal"].get<std::string>()
                                                                                             : "its agent answered " + a.dump();
    if (!refusal.empty()) throw Error("$.diagnostics.cpu_profile: on " + metricsHost_->host() + ": " + refusal);
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
