#include "load/hosts/LoadAgent.h"

#include "load/hosts/LoadJob.h"
#include "load/hosts/LoadResultJson.h"
#include "load/LoadRun.h"
#include "metrics/MachineAgent.h"
#include "metrics/MachineReading.h"
#include "metrics/SystemSampler.h"
#include "server/ClusterAgent.h"
#include "server/Conninfo.h"
#include "util/AtomicFile.h"
#include "util/Clock.h"
#include "util/Error.h"
#include "util/JsonParse.h"
#include "util/TempDir.h"
#include "util/Versions.h"

#include <unistd.h>

#include <chrono>
#include <fstream>
#include <memory>
#include <istream>
#include <mutex>
#include <ostream>
#include <sstream>
#include <string>
#include <thread>

namespace scalelab {
namespace {

// Bytes received and sent by every interface but loopback (/proc/net/dev).
std::pair<uint64_t, uint64_t> networkBytes() {
    std::ifstream in("/proc/net/dev");
    std::string line;
    uint64_t rx = 0, tx = 0;
    while (std::getline(in, line)) {
        size_t colon = line.find(':');
        if (colon == std::string::npos) continue;
        std::string name = line.substr(0, colon);
        name.erase(0, name.find_first_not_of(' '));
        if (name == "lo") continue;
        std::istringstream fields(line.substr(colon + 1));
        uint64_t v[9] = {};
        for (auto& x : v) fields >> x;
        rx += v[0];
        tx += v[8];
    }
    return {rx, tx};
}

class Agent {
public:
    Agent(std::istream& in, std::ostream& out, std::function<nlohmann::json()> provenance)
        : in_(in), out_(out), provenance_(std::move(provenance)) {}

    int serve() {
        std::string line;
        if (!std::getline(in_, line)) return fail("no job on standard input");
        nlohmann::json job;
        try {
            job = parseJson(line);
        } catch (const nlohmann::json::exception& e) {
            return fail(std::string("the job is not JSON: ") + e.what());
        } catch (const Error& e) {
            return fail(std::string("the job is ") + e.what());
        }
        send({{"hello", {{"version", scalelabVersion()}, {"host", thisHostName()}, {"protocol", kLoadAgentProtocol}}}});
        try {
            if (job.value("protocol", 0) != kLoadAgentProtocol)
                return fail("this agent speaks protocol " + std::to_string(kLoadAgentProtocol) + ", the coordinator " +
                            std::to_string(job.value("protocol", 0)));
            if (job.value("version", std::string()) != scalelabVersion())
                return fail("this host runs ScaleLab " + scalelabVersion() + ", the coordinator " + job.value("version", std::string("?")));
            if (job.contains("machine")) {
                // A metrics host, and a server host too: the embedded server there, on request.
                ClusterAgent clusters;
                auto cluster = [&](const nlohmann::json& q) {
                    return q.contains("cluster") ? clusters.answer(q) : nlohmann::json();
                };
                return serveMachineAgent(in_, [this](const nlohmann::json& m) { send(m); }, provenance_, "/", cluster);
            }
            LoadSpec spec = loadSpecFromJob(job.at("job"));
            // A server host's password for the run (docs/hosts.md): a 0600 file of this agent's,
            // removed with it, named by the conninfo; never on a command line.
            std::unique_ptr<TempDir> passwords;
            if (job.contains("pgpass")) {
                passwords = std::make_unique<TempDir>("scalelab-agent");
                std::string file = (passwords->path() / "pgpass").string();
                writeFileAtomically(file, job["pgpass"].get<std::string>(), 0600);
                spec.conninfo = conninfoWith(spec.conninfo, "passfile", file);
            }
            const auto& share = job.at("share");
            spec.clients = share.at("clients").get<int>();
            spec.threads = share.at("threads").get<int>();
            spec.clientIdOffset = share.at("client_id_offset").get<int>();
            spec.clientsInAll = share.at("clients_in_all").get<int>();
            // The job's rate is the whole run's: this host offers its clients' part of it (the
            // hosts together offer the rate once, not once each).
            if (spec.clientsInAll > 0) spec.rate *= static_cast<double>(spec.clients) / spec.clientsInAll;
            spec.vacuum = RunVacuum::None;  // the coordinator did it, once
            spec.keepHistograms = true;
            return run(std::move(spec));
        } catch (const std::exception& e) {
            return fail(e.what());
        }
    }

private:
    int run(LoadSpec spec) {
        // This host's CPU, for the coordinator to show (a saturated load host is visible).
        SystemSampler metrics(MetricsSources::forThisProcess("", 0, 0));
        // The run the stop watcher may stop: gone (null) once run() returned.
        struct Running {
            std::mutex mutex;
            LoadRun* run = nullptr;
        };
        auto running = std::make_shared<Running>();
        std::pair<uint64_t, uint64_t> netBefore;
        int64_t startNs = 0;
        spec.beforeStart = [&] {
            send({{"ready", nlohmann::json::object()}});
            std::string line;
            nlohmann::json go;
            for (;;) {  // the coordinator reads this host's clock, then says when to start
                if (!std::getline(in_, line)) throw Error("the coordinator went away before the start");
                go = parseJsonOrDiscarded(line);
                if (!go.is_object() || !go.contains("clock")) break;
                send({{"clock", {{"unix_ns", realtimeNs()}}}});
            }
            if (!go.is_object() || !go.contains("go")) throw Error("the coordinator stopped the run before it started");
            int64_t at = go["go"].at("at_unix_ns").get<int64_t>();
            netBefore = networkBytes();
            while (realtimeNs() < at) std::this_thread::sleep_for(std::chrono::nanoseconds(std::min<int64_t>(at - realtimeNs(), 50'000'000)));
            startNs = realtimeNs();
            // From now on a "stop" or the end of input stops the run (Ctrl-C on the coordinator).
            std::thread([this, running] {
                std::string more;
                while (std::getline(in_, more))
                    if (more.find("\"stop\"") != std::string::npos) break;
                std::lock_guard<std::mutex> lock(running->mutex);
                if (running->run) running->run->requestStop(true);
            }).detach();
        };
        LoadRun load(spec, [this](const LoadSample& s) { send({{"sample", toJson(s)}}); }, &metrics);
        {
            std::lock_guard<std::mutex> lock(running->mutex);
            running->run = &load;
        }
        LoadResult result = load.run();
        {
            std::lock_guard<std::mutex> lock(running->mutex);
            running->run = nullptr;
        }
        auto netAfter = networkBytes();
        double seconds = startNs ? static_cast<double>(realtimeNs() - startNs) / 1e9 : 0;
        nlohmann::json hostLoad = {{"rx_bytes", netAfter.first - netBefore.first}, {"tx_bytes", netAfter.second - netBefore.second},
                                   {"seconds", seconds}};
        if (result.system) {
            if (result.system->cpuMeasured()) hostLoad["cpu_busy_pct"] = result.system->cpu.total.busy();
            if (result.system->loadGeneratorCpuPct) hostLoad["load_generator_cpu_pct"] = *result.system->loadGeneratorCpuPct;
            hostLoad["client_bound"] = result.system->clientBound;
        }
        result.system.reset();  // the host's side: what the coordinator shows is in "host_load"
        result.samples.clear();  // sent one by one already
        send({{"result", toJson(result)}, {"host_load", hostLoad}});
        return 0;
    }

    int fail(const std::string& why) {
        send({{"error", why}});
        return 1;
    }

    void send(const nlohmann::json& message) {
        std::lock_guard<std::mutex> lock(mutex_);
        out_ << message.dump() << '\n' << std::flush;
    }

    std::istream& in_;
    std::ostream& out_;
    std::function<nlohmann::json()> provenance_;
    std::mutex mutex_;  // samples come from the run's sampling thread
};

} // namespace

int serveLoadAgent(std::istream& in, std::ostream& out, std::function<nlohmann::json()> provenance) {
    return Agent(in, out, std::move(provenance)).serve();
}

} // namespace scalelab
