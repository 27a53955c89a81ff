#pragma once
// What a running ScaleLab shows to Prometheus (and so to Grafana) while it measures: the run in
// progress, the sweep's progress and counters over the whole process. The publisher is fed on
// the sweep's (or run's) thread, once a sample interval, never from the load's hot path; the
// endpoint's thread copies a LiveMetrics value out under a short lock (docs/metrics-endpoint.md).
#include "load/LoadSpec.h"
#include "store/ExperimentStore.h"
#include "sweep/SweepRunner.h"

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace scalelab {

// Who a figure belongs to: the labels of every per-run series. Empty parts (a single `run` has
// no experiment, series or round) are left out of the labels.
struct LiveRunIdentity {
    std::string experiment, series;
    int clients = 0, round = 0;
};

struct LiveSweep {
    int total = 0, done = 0;
    double elapsedS = 0, etaS = 0;
    SweepState state = SweepState::Preparing;
    std::string measuredMachine;  // MetricsMachine::describe() of the CPU and disk figures' machine
};

struct LiveFinishedRun {
    LiveRunIdentity run;
    RunStatus status = RunStatus::Completed;
    std::optional<double> tps, p95Ms;  // none when the run has no such figure (failed before a commit)
};

struct LiveMetrics {
    std::string experiment;           // the label of the process-wide counters
    std::optional<LiveSweep> sweep;   // none for a single `run`
    // The run in progress and its latest sample interval; none between runs, so that a
    // dashboard never shows the last run's tps as the current one.
    std::optional<LiveRunIdentity> run;
    std::optional<LoadSample> sample;
    std::string scriptSet;            // of that run: "tprocc" gives the sample its NOPM (scalelab_nopm)
    // Since this process started, over every run, warm-up included: they only grow.
    uint64_t transactions = 0, failures = 0, retries = 0;
    std::map<RunStatus, uint64_t> runsFinished;
    std::optional<LiveFinishedRun> lastRun;
};

// The experiment label of an output: a file's name without .slab, a results store's NAME.
std::string experimentLabelOf(const std::string& output);

// Fed by a sweep as its observer, or by a single run through runStarted/add/runEnded. Every
// method may be called from any thread; snapshot() copies the state out.
class MetricsPublisher : public SweepObserver {
public:
    explicit MetricsPublisher(std::string experiment = {});
    void setExperiment(const std::string& experiment);  // a new sweep in the same window

    void onProgress(const SweepProgress& p) override;
    void onSample(const SweepProgress& p, const LoadSample& s) override;
    void onRunFinished(const RunRecord& r) override;

    // A single `run` (no sweep around it).
    void runStarted(int clients, const std::string& scriptSet = {});  // scriptSet: the workload's ("tprocc")
    void add(const LoadSample& s);
    void runEnded(const LoadResult& result);

    LiveMetrics snapshot() const;

private:
    void addLocked(const LoadSample& s);
    void finishLocked(const LiveFinishedRun& run);  // a run ended: its result kept, its gauges gone
    mutable std::mutex mutex_;
    LiveMetrics m_;
};

} // namespace scalelab
