// One run's load for the sweep runner: here, or from the plan's load hosts.
#include "sweep/SweepRunner.h"

#include "load/hosts/LoadCoordinator.h"
#include "server/Conninfo.h"
#include "load/LoadRun.h"

namespace scalelab {

void SweepRunner::setStopCurrent(std::function<void()> stop) {
    std::lock_guard<std::mutex> lock(mutex_);
    stopCurrent_ = std::move(stop);
    if (stopCurrent_ && stopped_) stopCurrent_();
}

LoadResult SweepRunner::runLoad(LoadSpec spec, SystemSampler& sampler, const SweepProgress& progress, nlohmann::json& hosts) {
    auto onSample = [&](const LoadSample& s) {
        if (observer_) observer_->onSample(current(progress), s);
    };
    if (!plan_.loadHosts) {
        LoadRun load(spec, onSample, &sampler);
        setStopCurrent([&load] { load.requestStop(true); });
        LoadResult result = load.run();
        setStopCurrent({});
        return result;
    }
    LoadHostsOptions options;
    options.hosts = plan_.loadHosts->hosts;
    if (!plan_.loadHosts->sshCommand.empty()) options.ssh = plan_.loadHosts->sshCommand;
    if (!plan_.loadHosts->scalelab.empty()) options.remoteProgram = options.localProgram = plan_.loadHosts->scalelab;
    spec.onWorkerStart = {};  // the clients are not placed on load hosts (a placement is a server host's)
    // A server host's password goes to each load host for the run (docs/hosts.md).
    if (plan_.serverHost) options.sharedPassfile = conninfoValue(spec.conninfo, "passfile");
    SystemSnapshot before = sampler.snapshot();
    sampler.addStatements(before, false);
    sampler.startWaits();
    sampler.startProfile();
    // This machine's system sample for each interval (the server's CPU, disks and counters when
    // the server is here), taken as the hosts' merged interval arrives: the interval as this
    // machine saw it, later by the hosts' network latency. A metrics source that fails ends
    // the samples (missing from then on), not the run.
    std::optional<SystemSnapshot> previous = before;
    std::vector<std::optional<SystemSample>> intervalSystem;
    auto onMergedSample = [&](const LoadSample& merged) {
        LoadSample s = merged;
        if (previous) {
            try {
                SystemSnapshot now = sampler.snapshot();
                s.system = sampler.between(*previous, now);
                previous = now;
            } catch (const std::exception&) {
                previous.reset();
            }
        }
        intervalSystem.push_back(s.system);
        onSample(s);
    };
    LoadHostsResult run;
    try {
        LoadCoordinator coordinator(options, spec);
        setStopCurrent([&coordinator] { coordinator.requestStop(); });
        run = coordinator.run(onMergedSample);
        setStopCurrent({});
    } catch (const std::exception& e) {
        setStopCurrent({});
        LoadResult failed;
        failed.status = RunStatus::Failed;
        failed.error = e.what();
        failed.clients = spec.clients;
        failed.threads = spec.threads;
        failed.rate = spec.rate;
        failed.mode = spec.mode;
        failed.workload = spec.workload.describe();
        return failed;
    }
    // This machine's side over the run (the server's CPU and counters when it is here); each
    // host's own CPU is in `hosts`, and one client-bound host makes the run client-bound.
    std::optional<WaitProfile> waits = sampler.stopWaits();
    std::optional<CpuProfile> profile = sampler.stopProfile();
    SystemSnapshot after = sampler.finalSnapshot(5000);
    sampler.addStatements(after, true);
    run.merged.system = sampler.between(before, after);
    run.merged.system->waits = waits;
    run.merged.system->cpuProfile = profile;
    hosts = nlohmann::json::array();
    for (const auto& h : run.hosts) {
        hosts.push_back(toJson(h));
        if (h.clientBound) run.merged.system->clientBound = true;
    }
    // The stored samples are the live ones, merged again from each host's full list: the same
    // intervals in the same order.
    if (intervalSystem.size() == run.merged.samples.size())
        for (size_t i = 0; i < intervalSystem.size(); ++i) run.merged.samples[i].system = intervalSystem[i];
    // The run's merged histogram is stored with it (its latency distribution); the samples'
    // are not.
    for (auto& s : run.merged.samples) s.histogram.reset();
    return run.merged;
}

} // namespace scalelab
