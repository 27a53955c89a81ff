#include "load/hosts/LoadCoordinator.h"

#include "load/hosts/LoadAgent.h"
#include "load/hosts/LoadJob.h"
#include "load/hosts/LoadResultJson.h"
#include "load/data/PgbenchData.h"
#include "server/Conninfo.h"
#include "util/Clock.h"
#include "util/Error.h"
#include "util/HostCommand.h"
#include "util/JsonParse.h"
#include "util/PipedProcess.h"
#include "util/Versions.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <fstream>
#include <iterator>

namespace scalelab {
struct LoadCoordinator::Host {
    HostShare share;
    std::unique_ptr<PipedProcess> process;
    std::mutex errMutex;
    std::deque<std::string> stderrTail;  // the last lines the host wrote on stderr (ssh's words)
    bool hello = false, ready = false, done = false;
    std::vector<LoadSample> samples;
    HostOutcome outcome;

    std::string tail() {
        std::lock_guard<std::mutex> lock(errMutex);
        std::string t;
        for (const auto& l : stderrTail) t += (t.empty() ? "" : " / ") + l;
        return t;
    }
};

namespace {
// How long a host command may take to exit once its output ended or its result came.
constexpr std::chrono::seconds kExitLimit{10};

double processCpuSeconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

} // namespace

nlohmann::json toJson(const HostOutcome& h) {
    auto opt = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); };
    return {{"host", h.share.host},
            {"hostname", h.hostname},
            {"version", h.version},
            {"clients", h.share.clients},
            {"threads", h.share.threads},
            {"first_client", h.share.clientIdOffset},
            {"status", runStatusName(h.result.status)},
            {"error", h.result.error},
            {"transactions", h.result.transactions},
            {"tps", h.result.tps},
            {"cpu_busy_pct", opt(h.cpuBusyPct)},
            {"load_generator_cpu_pct", opt(h.loadGeneratorCpuPct)},
            {"client_bound", h.clientBound},
            {"network_rx_MB_s", opt(h.rxMBps)},
            {"network_tx_MB_s", opt(h.txMBps)},
            {"clock_offset_ms", static_cast<double>(h.clock.offsetNs) / 1e6},
            {"clock_uncertainty_ms", static_cast<double>(h.clock.uncertaintyNs) / 1e6}};
}

LoadCoordinator::LoadCoordinator(LoadHostsOptions options, LoadSpec spec) : options_(std::move(options)), spec_(std::move(spec)) {
    if (!spec_.seed) spec_.seed = static_cast<uint64_t>(monotonicNs() / 1000);  // one sequence for every host
    if (spec_.log) throw Error("-l (the transaction log) is not available with load hosts: each host would write its own files");
    if (spec_.onWorkerStart) throw Error("CPU placement is not available with load hosts: each host is its own machine");
}

LoadCoordinator::~LoadCoordinator() {
    // Ending the agents' input stops any still running; each PipedProcess waits for its own.
    for (auto& h : hosts_)
        if (h->process) h->process->closeInput();
    hosts_.clear();
}

std::vector<std::string> LoadCoordinator::agentCommand(const std::string& host) const {
    return HostCommand{options_.ssh, options_.remoteProgram, options_.localProgram}.agentArgv(host);
}

void LoadCoordinator::post(Event e) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        events_.push_back(std::move(e));
    }
    changed_.notify_all();
}

LoadCoordinator::Event LoadCoordinator::next(int timeoutS, const std::string& waitingFor) {
    std::unique_lock<std::mutex> lock(mutex_);
    auto ready = [&] { return !events_.empty(); };
    if (timeoutS > 0) {
        if (!changed_.wait_for(lock, std::chrono::seconds(timeoutS), ready))
            throw Error("load hosts: no answer within " + std::to_string(timeoutS) + " s while waiting for " + waitingFor);
    } else {
        changed_.wait(lock, ready);
    }
    Event e = std::move(events_.front());
    events_.pop_front();
    return e;
}

void LoadCoordinator::sendAll(const std::string& line) {
    std::lock_guard<std::mutex> lock(sendMutex_);
    for (auto& h : hosts_)
        if (h->process && !h->done) h->process->writeLine(line);
}

// Three exchanges while every host waits for the start (its clients connected, nothing else
// to say); the shortest round trip counts (clockOffset).
void LoadCoordinator::measureClock(size_t host) {
    Host& h = *hosts_[host];
    std::vector<ClockReading> readings;
    for (int k = 0; k < 3; ++k) {
        ClockReading r;
        r.sentNs = realtimeNs();
        {
            std::lock_guard<std::mutex> lock(sendMutex_);
            h.process->writeLine(R"({"clock":true})");
        }
        Event e = next(options_.answerTimeoutS, "the clock of " + h.share.host);
        r.receivedNs = realtimeNs();
        if (e.host != host || e.end) hostFailed(e.host, e.end ? "disconnected before the start" : "spoke out of turn: " + e.line.substr(0, 200));
        nlohmann::json m = lineOf(e);
        if (!m.contains("clock") || !m["clock"].is_object() || !m["clock"].contains("unix_ns") ||
            !m["clock"]["unix_ns"].is_number_integer())
            hostFailed(host, m.contains("error") ? peerText(m["error"]) : "answered the clock with " + e.line.substr(0, 200));
        r.hostNs = m["clock"]["unix_ns"].get<int64_t>();
        readings.push_back(r);
    }
    h.outcome.clock = clockOffset(readings);
}

nlohmann::json LoadCoordinator::lineOf(const Event& e) {
    nlohmann::json m;
    try {
        m = parseJson(e.line, false);
    } catch (const Error& err) {
        hostFailed(e.host, std::string("sent ") + err.what());
    }
    if (!m.is_object()) hostFailed(e.host, "sent something that is not JSON: " + e.line.substr(0, 200));
    return m;
}

void LoadCoordinator::requestStop() { sendAll(R"({"stop":true})"); }

void LoadCoordinator::hostFailed(size_t host, const std::string& why) {
    requestStop();  // the others finish and exit; their results would be part of a broken run
    throw Error("load host " + hosts_[host]->share.host + ": " + why);
}

LoadHostsResult LoadCoordinator::run(std::function<void(const LoadSample&)> observer) {
    std::vector<HostShare> shares = shareClients(options_.hosts, spec_.clients, spec_.threads);
    // pgbench's housekeeping, once, before any host connects (each agent is told not to).
    std::vector<HousekeepingStep> housekeeping;
    try {
        housekeeping = prepareForRun(spec_.conninfo, spec_.vacuum);
    } catch (const Error& e) {
        housekeeping.push_back({"connect", e.what()});
    }
    nlohmann::json job = loadJobJson(spec_);
    std::string passwords;
    if (!options_.sharedPassfile.empty()) {
        std::ifstream in(options_.sharedPassfile);
        passwords.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        if (!in && !in.eof()) throw Error("cannot read " + options_.sharedPassfile);
        job["conninfo"] = conninfoWith(spec_.conninfo, "passfile", "");  // the host names its own copy
    }
    for (size_t i = 0; i < shares.size(); ++i) {
        auto h = std::make_unique<Host>();
        h->share = shares[i];
        h->outcome.share = shares[i];
        Host* raw = h.get();
        hosts_.push_back(std::move(h));
        try {
            raw->process = std::make_unique<PipedProcess>(
                agentCommand(shares[i].host), [this, i](const std::string& line) { post({i, false, line}); },
                [this, i] { post({i, true, {}}); },
                [raw](const std::string& line) {
                    std::lock_guard<std::mutex> lock(raw->errMutex);
                    raw->stderrTail.push_back(line);
                    if (raw->stderrTail.size() > 8) raw->stderrTail.pop_front();
                });
        } catch (const Error& e) {
            hostFailed(i, e.what());
        }
        nlohmann::json share = {{"host", shares[i].host}, {"clients", shares[i].clients}, {"threads", shares[i].threads},
                                {"client_id_offset", shares[i].clientIdOffset}, {"clients_in_all", spec_.clients}};
        nlohmann::json message = {{"protocol", kLoadAgentProtocol}, {"version", scalelabVersion()}, {"job", job}, {"share", share}};
        if (!passwords.empty()) message["pgpass"] = passwords;
        raw->process->writeLine(message.dump());
    }

    // Until every host is connected: hello (the version), then ready.
    auto message = [&](const Event& e) -> nlohmann::json {
        Host& h = *hosts_[e.host];
        if (e.end) {
            int status = h.process->wait(kExitLimit);
            std::string tail = h.tail();
            hostFailed(e.host, "disconnected (exit status " + std::to_string(status) + ")" + (tail.empty() ? "" : ": " + tail));
        }
        nlohmann::json m = lineOf(e);
        if (m.contains("error")) hostFailed(e.host, peerText(m["error"]));
        return m;
    };
    size_t ready = 0;
    while (ready < hosts_.size()) {
        Event e = next(options_.answerTimeoutS, "every host to connect its clients");
        nlohmann::json m = message(e);
        Host& h = *hosts_[e.host];
        if (m.contains("hello")) {
            // A hello of another shape is said with the host's name (issue 60.10).
            const auto& hello = m["hello"];
            if (!hello.is_object() || (hello.contains("version") && !hello["version"].is_string()) ||
                (hello.contains("host") && !hello["host"].is_string()))
                hostFailed(e.host, "sent a hello ScaleLab cannot read: " + e.line.substr(0, 200));
            h.outcome.version = hello.value("version", std::string());
            h.outcome.hostname = hello.value("host", std::string());
            if (h.outcome.version != scalelabVersion())
                hostFailed(e.host, "runs ScaleLab " + h.outcome.version + ", this is " + scalelabVersion() +
                                       ": install the same version on every host");
            h.hello = true;
        } else if (m.contains("ready")) {
            if (!h.hello) hostFailed(e.host, "said ready before hello");
            h.ready = true;
            ++ready;
        } else if (m.contains("result")) {
            // Its run ended before the start (its clients could not connect, or it was stopped).
            std::string why = m["result"].is_object() && m["result"].contains("error") && m["result"]["error"].is_string()
                                  ? m["result"]["error"].get<std::string>()
                                  : std::string();
            hostFailed(e.host, "its run ended before the start" + (why.empty() ? std::string() : ": " + why));
        } else {
            hostFailed(e.host, "sent an unexpected message before the start: " + e.line.substr(0, 200));
        }
    }
    for (size_t i = 0; i < hosts_.size(); ++i) measureClock(i);
    double cpuAtStart = processCpuSeconds();
    // One moment on this machine's clock, told to each host on its own clock.
    int64_t at = realtimeNs() + static_cast<int64_t>(options_.startMarginS * 1e9);
    {
        std::lock_guard<std::mutex> lock(sendMutex_);
        for (auto& h : hosts_)
            h->process->writeLine(nlohmann::json{{"go", {{"at_unix_ns", at + h->outcome.clock.offsetNs}}}}.dump());
    }

    // The run: samples as they come (merged once every host has sent interval i, or is done),
    // then each host's result.
    size_t done = 0, merged = 0;
    auto mergeReady = [&] {
        for (;;) {
            std::vector<const LoadSample*> at_i;
            bool all = true, any = false;
            for (auto& h : hosts_) {
                if (merged < h->samples.size()) {
                    at_i.push_back(&h->samples[merged]);
                    any = true;
                } else if (!h->done) {
                    all = false;
                }
            }
            if (!all || !any) return;
            if (observer) observer(mergeHostSamples(at_i));
            ++merged;
        }
    };
    // Every host sends a sample each interval: a long silence is a host lost without a word
    // (a network cut that breaks no connection).
    const int silenceS = std::max(60, static_cast<int>(10 * spec_.sampleIntervalS));
    while (done < hosts_.size()) {
        std::string waiting;
        for (auto& h : hosts_)
            if (!h->done) waiting += (waiting.empty() ? "" : ", ") + h->share.host;
        Event e = next(silenceS, "the results of " + waiting);
        if (e.end && hosts_[e.host]->done) continue;  // it sent its result and exited
        nlohmann::json m = message(e);
        Host& h = *hosts_[e.host];
        try {
            if (m.contains("sample")) {
                h.samples.push_back(loadSampleFromJson(m["sample"]));
            } else if (m.contains("result")) {
                const auto& r = m["result"];
                h.outcome.result = loadResultFromJson(r);
                h.outcome.result.samples = h.samples;  // they came one by one
                const auto& load = m.value("host_load", nlohmann::json::object());
                if (load.contains("cpu_busy_pct")) h.outcome.cpuBusyPct = load["cpu_busy_pct"].get<double>();
                if (load.contains("load_generator_cpu_pct")) h.outcome.loadGeneratorCpuPct = load["load_generator_cpu_pct"].get<double>();
                h.outcome.clientBound = load.value("client_bound", false);
                double s = load.value("seconds", 0.0);
                if (s > 0) {
                    h.outcome.rxMBps = load.value("rx_bytes", 0.0) / s / 1e6;
                    h.outcome.txMBps = load.value("tx_bytes", 0.0) / s / 1e6;
                }
                h.done = true;
                ++done;
                // Its input ends: a host command that reads it to its end (an ssh wrapper) exits.
                std::lock_guard<std::mutex> lock(sendMutex_);
                h.process->closeInput();
            } else {
                hostFailed(e.host, "sent an unexpected message during the run: " + e.line.substr(0, 200));
            }
        } catch (const Error& err) {
            hostFailed(e.host, err.what());
        } catch (const nlohmann::json::exception& err) {
            hostFailed(e.host, std::string("sent a message ScaleLab cannot read (") + err.what() + ")");
        }
        mergeReady();
    }

    LoadHostsResult out;
    std::vector<LoadResult> parts;
    out.coordinatorCpuS = processCpuSeconds() - cpuAtStart;
    for (auto& h : hosts_) {
        // The result is in; a host command that does not end within the limit is ended (its
        // process group), and the result stands.
        h->process->wait(kExitLimit);
        parts.push_back(h->outcome.result);
        out.hosts.push_back(h->outcome);
    }
    out.merged = mergeHostResults(parts);
    out.merged.housekeeping = housekeeping;
    for (const auto& h : out.hosts)
        if (h.result.status == RunStatus::Failed) {
            out.merged.error = "load host " + h.share.host + ": " + h.result.error;
            break;
        }
    return out;
}

} // namespace scalelab
