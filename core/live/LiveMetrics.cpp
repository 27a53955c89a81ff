#include "live/LiveMetrics.h"

#include <cmath>
#include <filesystem>

namespace scalelab {
namespace {

std::optional<double> measured(double v, bool has) {
    if (!has || !std::isfinite(v)) return std::nullopt;
    return v;
}

} // namespace

std::string experimentLabelOf(const std::string& output) {
    if (size_t hash = output.rfind('#'); hash != std::string::npos && output.find("://") != std::string::npos)
        return output.substr(hash + 1);  // postgresql://HOST/DB#NAME
    std::filesystem::path p(output);
    return p.extension() == ".slab" ? p.stem().string() : p.filename().string();
}

MetricsPublisher::MetricsPublisher(std::string experiment) {
    m_.experiment = std::move(experiment);
    for (RunStatus s : {RunStatus::Completed, RunStatus::Failed, RunStatus::Stopped}) m_.runsFinished[s] = 0;
}

void MetricsPublisher::setExperiment(const std::string& experiment) {
    std::lock_guard<std::mutex> lock(mutex_);
    m_.experiment = experiment;
    m_.sweep.reset();
    m_.run.reset();
    m_.sample.reset();
}

void MetricsPublisher::onProgress(const SweepProgress& p) {
    std::lock_guard<std::mutex> lock(mutex_);
    LiveSweep s;
    s.total = p.total;
    s.done = p.done;
    s.elapsedS = p.elapsedS;
    s.etaS = p.etaS;
    s.state = p.state;
    s.measuredMachine = p.metricsMachine.empty() && m_.sweep ? m_.sweep->measuredMachine : p.metricsMachine;
    m_.sweep = s;
    if (p.state == SweepState::Running) {
        LiveRunIdentity id{m_.experiment, p.series, p.clients, p.repetition};
        bool same = m_.run && m_.run->series == id.series && m_.run->clients == id.clients && m_.run->round == id.round;
        if (!same) {
            m_.run = id;
            m_.sample.reset();
        }
    } else if (p.state != SweepState::Paused) {
        // Settling, preparing, finished, stopped: no run is measuring.
        m_.run.reset();
        m_.sample.reset();
    }
}

void MetricsPublisher::onSample(const SweepProgress& p, const LoadSample& s) {
    std::lock_guard<std::mutex> lock(mutex_);
    m_.run = LiveRunIdentity{m_.experiment, p.series, p.clients, p.repetition};
    m_.scriptSet = p.scriptSet;
    addLocked(s);
}

void MetricsPublisher::onRunFinished(const RunRecord& r) {
    std::lock_guard<std::mutex> lock(mutex_);
    finishLocked({LiveRunIdentity{m_.experiment, r.series, r.clients, r.repetition}, r.status,
                  measured(r.tps, r.measuredSeconds > 0), measured(r.latency.p95Ms, r.latency.count > 0)});
}

void MetricsPublisher::runStarted(int clients, const std::string& scriptSet) {
    std::lock_guard<std::mutex> lock(mutex_);
    m_.run = LiveRunIdentity{m_.experiment, "", clients, 0};
    m_.sample.reset();
    m_.scriptSet = scriptSet;
}

void MetricsPublisher::add(const LoadSample& s) {
    std::lock_guard<std::mutex> lock(mutex_);
    addLocked(s);
}

void MetricsPublisher::runEnded(const LoadResult& result) {
    std::lock_guard<std::mutex> lock(mutex_);
    finishLocked({m_.run.value_or(LiveRunIdentity{m_.experiment, "", result.clients, 0}), result.status,
                  measured(result.tps, result.measuredSeconds > 0), measured(result.latency.p95Ms, result.latency.count > 0)});
}

void MetricsPublisher::finishLocked(const LiveFinishedRun& run) {
    m_.lastRun = run;
    ++m_.runsFinished[run.status];
    m_.run.reset();
    m_.sample.reset();
}

void MetricsPublisher::addLocked(const LoadSample& s) {
    m_.sample = s;
    m_.sample->histogram.reset();  // the endpoint shows percentiles; a histogram copy would be kilobytes a second
    m_.transactions += s.transactions;
    m_.failures += s.failures;
    m_.retries += s.retries;
}

LiveMetrics MetricsPublisher::snapshot() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return m_;
}

} // namespace scalelab
