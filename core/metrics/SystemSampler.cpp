#include "metrics/SystemSampler.h"

#include "util/Format.h"

#include "metrics/MachineReading.h"
#include "metrics/RemoteMachine.h"

#include <sys/stat.h>
#include <unistd.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace scalelab {
namespace {

double nowSeconds() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

bool underSysBlock(const std::string& name, const void* root) {
    struct stat st {};
    return stat((*static_cast<const fs::path*>(root) / "sys/block" / name).c_str(), &st) == 0;
}

bool inRemoteBlock(const std::string& name, const void* machine) {
    return static_cast<const RemoteMachine*>(machine)->isWholeDisk(name);
}

} // namespace

MetricsSources MetricsSources::forThisProcess(const std::string& conninfo, pid_t postmaster, int loadGeneratorPus) {
    MetricsSources s;
    s.loadGenerator = getpid();
    s.serverPostmaster = postmaster;
    s.conninfo = conninfo;
    s.loadGeneratorPus = loadGeneratorPus;
    s.ticksPerSecond = sysconf(_SC_CLK_TCK);
    return s;
}

SystemSampler::SystemSampler(MetricsSources sources) : sources_(std::move(sources)) {
    if (!sources_.conninfo.empty())
        counters_ = std::make_unique<ServerCounters>(sources_.conninfo, sources_.loadApplicationName);
    if (counters_ && sources_.statements)
        statements_ = std::make_unique<StatementStats>(sources_.conninfo, sources_.createStatementsExtension,
                                                       std::vector<std::string>{counters_->statement()});
    if (sources_.waits) {
        // A sampler that cannot connect (max_connections reached) leaves the waits missing, with
        // why, and the run goes on.
        if (!counters_) waitsWhy_ = "no connection to the server";
        else try {
            WaitSamplerOptions o;
            o.source = sources_.waitSource;
            o.ownServer = sources_.createStatementsExtension;
            o.loadReconnects = sources_.loadReconnects;
            waits_ = std::make_unique<WaitSampler>(sources_.conninfo, sources_.loadApplicationName,
                                                   std::vector<int>{counters_->backendPid()}, o);
        } catch (const std::exception& e) {
            waitsWhy_ = e.what();
        }
    }
    machineTicksPerSecond_ = sources_.ticksPerSecond;
    if (sources_.machine) {
        const RemoteMachine& m = *sources_.machine;
        machine_.host = m.host();
        machine_.hostname = m.hostname();
        machine_.loadGenerator = m.host() == "local" && sources_.clientsHere;
        machineTicksPerSecond_ = m.ticksPerSecond();
        if (counters_) {
            int backend = counters_->backendPid();
            std::string why;
            machine_.server = sources_.machine->findServer(backend, why);
            machine_.why = machine_.server ? "the server's backend " + std::to_string(backend) + " runs there"
                                           : "the server's backend " + std::to_string(backend) + " is not there (" + why + ")";
        } else {
            machine_.why = "no connection to the server to tell";
        }
    } else {
        findLocalServer();
    }
    if (sources_.cpuProfile) openProfiler();
}

void SystemSampler::findLocalServer() {
    machine_.host = "local";
    machine_.hostname = thisHostName();
    machine_.loadGenerator = sources_.clientsHere;
    if (sources_.serverPostmaster) {
        machine_.server = true;
        machine_.why = "the server started here (postmaster " + std::to_string(sources_.serverPostmaster) + ")";
    } else if (counters_) {
        int backend = counters_->backendPid();
        std::string why;
        if (auto postmaster = postmasterOfBackend(sources_.root, backend, why)) {
            sources_.serverPostmaster = *postmaster;
            machine_.server = true;
            machine_.why = "the server's backend " + std::to_string(backend) + " runs here";
        } else {
            machine_.why = "the server's backend " + std::to_string(backend) + " is not here (" + why + "): the server runs elsewhere";
        }
    } else {
        machine_.why = "no connection to the server to tell";
    }
}

void SystemSampler::openProfiler() {
    // A server on a metrics or server host is profiled by ScaleLab's agent there, asked at the
    // window's edges; a server it did not find has no profile, with why, and the run goes on.
    if (sources_.machine) {
        if (!machine_.server) profileWhy_ = "the server is not on " + sources_.machine->host() + " (" + machine_.why + ")";
        return;
    }
    try {
        profiler_ = std::make_unique<CpuProfiler>(sources_.serverPostmaster, sources_.profileHz);
    } catch (const std::exception& e) {
        profileWhy_ = e.what();
    }
}

SystemSampler::~SystemSampler() = default;

void SystemSampler::startProfile() {
    if (profiler_) profiler_->start();
    if (!sources_.cpuProfile || !sources_.machine || !profileWhy_.empty()) return;
    try {
        nlohmann::json a = sources_.machine->ask({{"profile", {{"start", {{"hz", sources_.profileHz}}}}}}, "profile",
                                                 "its CPU profile to start");
        remoteStarted_ = a.is_object() && a.value("started", false);
        remoteWhy_ = remoteStarted_ ? "" : a.is_object() && a.contains("unavailable") && a["unavailable"].is_string()
                                               ? a["unavailable"].get<std::string>()
                                               : "the agent answered " + a.dump().substr(0, 200);
    } catch (const std::exception& e) {
        remoteStarted_ = false;
        remoteWhy_ = e.what();
    }
}

std::optional<CpuProfile> SystemSampler::stopProfile() {
    if (!sources_.cpuProfile) return std::nullopt;
    CpuProfile p;
    if (sources_.machine && profileWhy_.empty()) {
        if (!remoteStarted_) {
            p.unavailable = remoteWhy_.empty() ? "not recorded in this window" : remoteWhy_;
            return p;
        }
        remoteStarted_ = false;
        try {
            // perf script on the host takes seconds for a long window: as the local one, 300 s.
            return cpuProfileFromJson(
                sources_.machine->ask({{"profile", {{"stop", true}}}}, "profile", "its CPU profile", 300));
        } catch (const std::exception& e) {
            p.unavailable = std::string("the agent's CPU profile: ") + e.what();
            return p;
        }
    }
    if (!profiler_) {
        p.unavailable = profileWhy_;
        return p;
    }
    if (!profiler_->running()) {
        p.unavailable = "not recorded in this window";
        return p;
    }
    return profiler_->stop();
}

std::string SystemSampler::profileSource() const {
    if (!sources_.cpuProfile) return {};
    if (!profileWhy_.empty()) return "not recorded: " + profileWhy_;
    return "perf record at " + formatNumber("%g", sources_.profileHz) + " Hz" +
           (sources_.machine ? " on " + sources_.machine->host() + ", by ScaleLab's agent there" : "");
}

void SystemSampler::startWaits() {
    if (!waits_) return;
    if (waits_->running()) waits_->stop();
    waits_->start();
}

std::optional<WaitProfile> SystemSampler::stopWaits() {
    if (!sources_.waits) return std::nullopt;
    WaitProfile p;
    if (!waits_) {
        p.unavailable = waitsWhy_;
        return p;
    }
    if (!waits_->running()) {
        p.unavailable = "not sampled in this window";
        return p;
    }
    return waits_->stop();
}

std::string SystemSampler::waitsSource() const {
    if (!sources_.waits) return {};
    if (!waits_) return "not sampled: " + waitsWhy_;
    return waits_->describe();
}

SystemSnapshot SystemSampler::snapshot() {
    SystemSnapshot s = readSystem();
    if (counters_) s.counters = counters_->read();
    if (waits_ && waits_->running()) s.waits = waits_->tally();
    return s;
}

SystemSnapshot SystemSampler::finalSnapshot(int timeoutMs) {
    std::optional<ServerCounterSnapshot> counters;
    if (counters_) counters = counters_->readAfterLoadLeft(timeoutMs);
    SystemSnapshot s = readSystem();
    s.counters = counters;
    return s;
}

void SystemSampler::addStatements(SystemSnapshot& at, bool end) {
    if (!statements_) return;
    try {
        at.statements = statements_->read(end);
    } catch (const std::exception& e) {  // a number pg_stat_statements wrote that is not one
        at.statements = StatementSnapshot{};
        at.statements->unavailable = std::string("cannot read pg_stat_statements: ") + e.what();
    }
}

std::string SystemSampler::statementsSource() const {
    if (!statements_) return "";
    return statements_->available() ? "pg_stat_statements " + statements_->extensionVersion()
                                    : statements_->unavailable();
}

SystemSnapshot SystemSampler::readSystem() {
    fs::path root = sources_.root;
    SystemSnapshot s;
    s.seconds = nowSeconds();
    auto asked = std::chrono::steady_clock::now();
    MachineReading m = sources_.machine ? sources_.machine->read() : readMachine(sources_.root, sources_.serverPostmaster);
    s.readMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - asked).count();
    s.machineSeconds = sources_.machine ? m.seconds : s.seconds;
    s.cpu = std::move(m.cpu);
    s.disks = std::move(m.disks);
    s.serverTicks = m.serverTicks;
    s.cpuPressure = m.cpuPressure;
    s.ioPressure = m.ioPressure;
    s.missing = std::move(m.missing);
    if (sources_.loadGenerator) {
        std::string why;
        std::string line = readProcFile((root / "proc" / std::to_string(sources_.loadGenerator) / "stat").string(), why);
        auto p = why.empty() ? parsePidStat(line.substr(0, line.find('\n'))) : std::nullopt;
        if (p) s.loadGeneratorTicks = p->utime + p->stime;
        else s.missing.emplace("load_generator", why.empty() ? "cannot parse the load generator's /proc stat line" : why);
    }
    return s;
}

SystemSample SystemSampler::between(const SystemSnapshot& a, const SystemSnapshot& b) const {
    SystemSample out;
    out.seconds = b.seconds - a.seconds;
    // The measured machine's rates over its own clock's interval (a metrics host's readings
    // are taken when asked, so both intervals are the same span, each on its own clock).
    double machineSeconds = b.machineSeconds - a.machineSeconds;
    out.slowestReadingMs = std::max(a.readMs, b.readMs);
    out.missing = a.missing;
    out.missing.insert(b.missing.begin(), b.missing.end());
    if (out.cpuMeasured()) out.cpu = cpuBetween(a.cpu, b.cpu);
    fs::path root = sources_.root;
    out.disks = sources_.machine
                    ? disksBetween(a.disks, b.disks, machineSeconds, sources_.disks, inRemoteBlock, sources_.machine.get())
                    : disksBetween(a.disks, b.disks, machineSeconds, sources_.disks, underSysBlock, &root);
    if (out.missing.count("disks")) out.disks.clear();
    if (sources_.loadGenerator && !out.missing.count("load_generator"))
        out.loadGeneratorCpuPct = cpuPercent(a.loadGeneratorTicks, b.loadGeneratorTicks, out.seconds, sources_.ticksPerSecond);
    if (machine_.server && !out.missing.count("server"))
        out.serverCpuPct = cpuPercent(a.serverTicks, b.serverTicks, machineSeconds, machineTicksPerSecond_);
    if (a.cpuPressure && b.cpuPressure) out.cpuPressure = pressureBetween(*a.cpuPressure, *b.cpuPressure, machineSeconds);
    if (a.ioPressure && b.ioPressure) out.ioPressure = pressureBetween(*a.ioPressure, *b.ioPressure, machineSeconds);
    if (b.waits) {
        out.waitsSoFar = b.waits;
        if (a.waits) out.waitSessions = waitSessionsBetween(*a.waits, *b.waits);
    }
    if (a.counters && b.counters) {
        // A reset is marked, and the interval has no server rates: never a real-looking 0.
        if (countersWereReset(*a.counters, *b.counters)) out.serverCountersReset = true;
        else out.server = ratesBetween(*a.counters, *b.counters, out.seconds);
    }
    if (a.statements && b.statements) out.statements = statementsBetween(*a.statements, *b.statements);
    // The PUs of this machine, where the load generator runs (a metrics host's are not).
    int pus = sources_.loadGeneratorPus > 0 ? sources_.loadGeneratorPus
              : sources_.machine           ? std::max<int>(1, static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN)))
                                           : std::max<int>(1, static_cast<int>(b.cpu.perPu.size()));
    out.clientBound = out.loadGeneratorCpuPct && *out.loadGeneratorCpuPct > kClientBoundShare * 100.0 * pus;
    return out;
}


} // namespace scalelab
