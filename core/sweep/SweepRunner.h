#pragma once
// Runs a sweep plan: expands it into runs, applies each series' configuration (server,
// settings, placement), runs, records each finished run in the experiment file before the next
// starts, and reports progress. Pause and stop may be called from any thread.
#include "load/LoadSpec.h"
#include "store/ExperimentStore.h"
#include "load/data/TpccLoad.h"
#include "sweep/SweepPlan.h"
#include "topo/Topology.h"

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <vector>
#include <optional>
#include <string>

namespace scalelab {

class LoadRun;
class RemoteMachine;
class SweepServers;
class PlacementScope;
class SystemSampler;
struct ServerLoss;

// Where a sweep is: preparing a run (server, data), settling before it, running it, paused
// between runs, and at the end finished or stopped by the user.
enum class SweepState { Preparing, Settling, Running, Paused, Finished, Stopped };
const char* sweepStateName(SweepState state);  // "preparing", ... as the CLI and the window show it

struct SweepProgress {
    int run = 0;          // 1-based position of the current run in the plan's order
    int total = 0;
    int done = 0;         // finished runs, including those of an earlier session (resume)
    std::string series;
    int clients = 0;
    double rate = 0;      // offered tps, 0: unthrottled
    int64_t scale = 0;    // the data's scale when the plan has several, else 0
    int repetition = 0;
    double elapsedS = 0;  // this session
    double etaS = 0;      // for the runs left, from this session's pace (or the plan's durations)
    SweepState state = SweepState::Preparing;
    double runS = 0;      // a run's planned length, warm-up included; 0 for runs of N transactions
    std::string metricsMachine;  // the machine the CPU, disk and pressure figures are from (MetricsMachine::describe)
    std::vector<CoreInfo> metricsMachineCores;  // that machine's cores when it is a metrics host; empty: this machine
    std::string scriptSet;  // the plan's script set ("tprocc"): samples then have TPROC-C's NOPM
};

// Called on the sweep's thread; must not block for long (the GUI queues a signal).
class SweepObserver {
public:
    virtual ~SweepObserver() = default;
    virtual void onProgress(const SweepProgress&) {}
    virtual void onSample(const SweepProgress&, const LoadSample&) {}
    virtual void onRunFinished(const RunRecord&) {}
    virtual void onNote(const std::string&) {}  // warnings (client-bound, unstable, no SMT) and steps
    // A server host's new log lines, as they come (docs/hosts.md): called on a thread of the
    // sweep's own, not the sweep's; the embedded server here has its log file to tail instead.
    virtual void onServerLog(const std::vector<std::string>&) {}
};

class SweepRunner {
public:
    // resume: continue the plan already in `store` (it must be the same plan). Without it the
    // store must not hold a plan yet.
    SweepRunner(SweepPlan plan, ExperimentStore& store, SweepObserver* observer, bool resume);
    ~SweepRunner();

    // Blocks until every run is done or stop() was called. Throws Error for what prevents the
    // sweep from starting or going on (a different plan, a server that does not start, an
    // unknown setting), and TargetGone when a server of the user's stays away longer than
    // target.reconnect. A server that dies fails the run in progress, not the sweep.
    void run();
    void pause();
    void resume();
    void stop();  // the current run ends cleanly and is kept, marked stopped
    // The caller ran preflightSweep(plan) itself (`scalelab sweep`, before creating the file):
    // run() does not check again (a second `postgres --describe-config`, a second connection).
    void preflightDone() { preflightDone_ = true; }

    int totalRuns() const { return total_; }

private:
    struct Session;  // what run() carries from run to run (SweepRunner.cpp)
    enum class Next { Go, Stop };
    // One planned run: its server, data and settle, placement, load, metrics and record. Stop
    // when the sweep was stopped meanwhile. It and its steps: core/sweep/SweepRunOne.cpp.
    Next runOne(Session& s, const PlannedRun& planned);
    struct RunTarget {
        std::string conninfo;
        int64_t scale = 0;                  // the run's :scale
        std::optional<double> builtS;       // seconds, when the data was built for this run
        std::optional<tpcc::DataInfo> tpcc; // TPROC-C's data, for a plan of workload.kind "tprocc"
    };
    bool announce(Session& s, const PlannedRun& planned);  // false: stopped while paused
    // nullopt: stopped, or the server went away (the run is recorded failed).
    std::optional<RunTarget> prepareTarget(Session& s, const PlannedRun& planned, const SeriesSpec& series);
    std::unique_ptr<SystemSampler> samplerFor(Session& s, const PlannedRun& planned, const std::string& conninfo,
                                              pid_t postmaster, const PlacementScope& placement);
    std::optional<ServerLoss> judge(Session& s, RunRecord& record);
    void sayFlags(Session& s, const PlannedRun& planned, const RunRecord& record, const LoadResult& result);
    LoadSpec loadSpecFor(const Session& s, const PlannedRun& planned, const RunTarget& target,
                         const PlacementScope& placement) const;
    bool addRound(Session& s);  // the precision rule's next round, queued; false when none
    void remember(Session& s, const RunRecord& r);
    int expectedExtra(const Session& s) const;
    void failed(Session& s, const RunRecord& record, const PlannedRun& planned, const std::optional<ServerLoss>& loss);
    void failedBeforeRun(Session& s, const PlannedRun& planned, const std::string& why, const std::optional<ServerLoss>& loss);
    void takeProvenance(Session& s, const std::string& conninfo);
    void sayWhatIsMeasured(Session& s, const SystemSampler& sampler);
    void waitWhilePaused();
    bool pausedNow();
    bool waitFor(double seconds);  // false when stopped meanwhile
    void settle(const std::string& conninfo, const SweepServers& servers);
    void report(SweepProgress p);
    // `p` with its elapsed time brought to now and its ETA shortened by as much: a line drawn
    // during a long wait, settle or run is not left at the time the run was prepared.
    SweepProgress current(SweepProgress p) const;
    void reportShortPoints(const std::vector<PlannedRun>& runs, SweepServers& servers);
    int64_t save(const RunRecord& record, const std::vector<StoredSample>& samples);
    // One run's load: here (LoadRun), or from the plan's load hosts (LoadCoordinator), whose
    // shares go into `hosts`. A load host that fails makes a failed run, not a failed sweep.
    LoadResult runLoad(LoadSpec spec, SystemSampler& sampler, const SweepProgress& progress, nlohmann::json& hosts);
    void setStopCurrent(std::function<void()> stop);
    std::string resumeHint() const;
    // The plan's metrics host, its agent started (docs/hosts.md). Throws Error in its words.
    std::shared_ptr<RemoteMachine> startMetricsHost() const;
    // The server host's (or metrics host's) agent, a new one when the last was lost.
    std::shared_ptr<RemoteMachine> serverAgent();
    void refuseServerHostPlacements();
    void refuseAgentProfile();

    SweepPlan plan_;
    ExperimentStore& store_;
    SweepObserver* observer_;
    bool resume_;
    bool preflightDone_ = false;
    int total_ = 0;
    std::mutex mutex_;
    std::condition_variable changed_;
    bool paused_ = false;
    std::atomic<bool> stopped_{false};
    std::chrono::steady_clock::time_point sessionStart_{};  // set by run()
    std::function<void()> stopCurrent_;  // stops the run in progress; guarded by mutex_
    std::shared_ptr<RemoteMachine> metricsHost_;  // kept from run to run; started again once lost
    // Guards metricsHost_'s changes (the sweep's thread) against the server log's follower
    // reading it (its own thread).
    mutable std::mutex agentMutex_;
};

} // namespace scalelab
