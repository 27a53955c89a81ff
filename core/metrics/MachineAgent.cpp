#include "metrics/MachineAgent.h"

#include "metrics/CpuProfiler.h"
#include "metrics/MachineReading.h"
#include "metrics/ProcessCpu.h"
#include "util/JsonParse.h"

#include <unistd.h>

#include <istream>
#include <memory>
#include <string>

namespace scalelab {
namespace {

// The CPU profile of the server here, for the sweep on the other side (metrics/RemoteMachine.h).
nlohmann::json answerProfile(const nlohmann::json& q, pid_t postmaster, std::unique_ptr<CpuProfiler>& profiler,
                             double& profilerHz, pid_t& profilerPostmaster) {
    if (q.contains("check")) return {{"refusal", perfRefusal()}};
    if (q.contains("start") && q["start"].is_object() && q["start"].contains("hz") && q["start"]["hz"].is_number()) {
        const double hz = q["start"]["hz"].get<double>();
        if (!postmaster) return {{"unavailable", "the server's processes were not found on this machine"}};
        // A server started again between runs has a new postmaster: a profiler of its own.
        if (!profiler || profilerPostmaster != postmaster || profilerHz != hz) {
            profiler.reset();
            try {
                profiler = std::make_unique<CpuProfiler>(postmaster, hz);
            } catch (const std::exception& e) {
                return {{"unavailable", e.what()}};
            }
            profilerHz = hz;
            profilerPostmaster = postmaster;
        }
        profiler->start();
        return {{"started", true}};
    }
    if (q.contains("stop")) {
        if (!profiler || !profiler->running()) return {{"unavailable", "not recorded in this window"}};
        return toJson(profiler->stop());
    }
    return nullptr;
}

} // namespace

int serveMachineAgent(std::istream& in, const std::function<void(const nlohmann::json&)>& send,
                      const std::function<nlohmann::json()>& provenance, const std::string& root,
                      const AgentQuestion& more) {
    send({{"machine",
           {{"hostname", thisHostName()},
            {"ticks_per_second", sysconf(_SC_CLK_TCK)},
            {"whole_disks", wholeDisks(root)},
            {"provenance", provenance ? provenance() : nlohmann::json::object()}}}});
    pid_t postmaster = 0;
    std::unique_ptr<CpuProfiler> profiler;
    double profilerHz = 0;
    pid_t profilerPostmaster = 0;
    std::string line;
    while (std::getline(in, line)) {
        nlohmann::json q = parseJsonOrDiscarded(line);
        if (q.is_object() && q.contains("read")) {
            send({{"reading", toJson(readMachine(root, postmaster))}});
        } else if (q.is_object() && q.contains("server") && q["server"].is_object() && q["server"].contains("backend_pid") &&
                   q["server"]["backend_pid"].is_number_integer()) {
            std::string why;
            auto found = postmasterOfBackend(root, q["server"]["backend_pid"].get<pid_t>(), why);
            postmaster = found ? *found : 0;
            if (found) send({{"server", {{"postmaster", *found}}}});
            else send({{"server", {{"why", why}}}});
        } else if (nlohmann::json p = q.is_object() && q.contains("profile") && q["profile"].is_object()
                                          ? answerProfile(q["profile"], postmaster, profiler, profilerHz, profilerPostmaster)
                                          : nlohmann::json();
                   !p.is_null()) {
            send({{"profile", p}});
        } else if (q.is_object() && q.contains("stop")) {
            return 0;
        } else if (nlohmann::json a = q.is_object() && more ? more(q) : nlohmann::json(); !a.is_null()) {
            send(a);
        } else {
            send({{"error", "this agent reads readings of its machine; it does not understand: " + line.substr(0, 200)}});
            return 1;
        }
    }
    return 0;
}

} // namespace scalelab
