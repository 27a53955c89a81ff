#include "metrics/SystemSampler.h"

#include <sys/stat.h>
#include <unistd.h>
#include <time.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace scalelab {
namespace {

std::string slurp(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

double nowSeconds() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

bool underSysBlock(const std::string& name, const void* root) {
    struct stat st {};
    return stat((*static_cast<const fs::path*>(root) / "sys/block" / name).c_str(), &st) == 0;
}

std::optional<ProcStat> readPidStat(const fs::path& dir) {
    std::ifstream in(dir / "stat");
    std::string line;
    if (!std::getline(in, line)) return std::nullopt;
    return parsePidStat(line);
}

// /proc/PID/stat of the postmaster and every process whose parent it is. A child reaped while
// /proc is being scanned would be counted in neither its own line nor the postmaster's cutime:
// the scan is repeated until the postmaster's reaped-children time is the same before and after.
std::vector<ProcStat> serverProcessStats(const fs::path& proc, pid_t postmaster) {
    const fs::path self = proc / std::to_string(postmaster);
    for (int attempt = 0;; ++attempt) {
        auto before = readPidStat(self);
        if (!before) return {};
        std::vector<ProcStat> out;
        std::error_code ec;
        for (const auto& entry : fs::directory_iterator(proc, ec)) {
            const std::string name = entry.path().filename().string();
            if (name.empty() || !std::all_of(name.begin(), name.end(), ::isdigit)) continue;
            if (auto p = readPidStat(entry.path()); p && p->ppid == postmaster) out.push_back(*p);
        }
        auto after = readPidStat(self);
        if (!after) return {};
        bool steady = before->cutime == after->cutime && before->cstime == after->cstime;
        if (steady || attempt == 4) {
            out.push_back(*after);
            return out;
        }
    }
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
}

SystemSampler::~SystemSampler() = default;

SystemSnapshot SystemSampler::snapshot() {
    SystemSnapshot s = readSystem();
    if (counters_) s.counters = counters_->read();
    return s;
}

SystemSnapshot SystemSampler::finalSnapshot(int timeoutMs) {
    std::optional<ServerCounterSnapshot> counters;
    if (counters_) counters = counters_->readAfterLoadLeft(timeoutMs);
    SystemSnapshot s = readSystem();
    s.counters = counters;
    return s;
}

SystemSnapshot SystemSampler::readSystem() {
    fs::path root = sources_.root;
    SystemSnapshot s;
    s.seconds = nowSeconds();
    s.cpu = parseCpuStat(slurp(root / "proc/stat"));
    s.disks = parseDiskStats(slurp(root / "proc/diskstats"));
    if (sources_.loadGenerator) {
        std::ifstream in(root / "proc" / std::to_string(sources_.loadGenerator) / "stat");
        std::string line;
        if (std::getline(in, line))
            if (auto p = parsePidStat(line)) s.loadGeneratorTicks = p->utime + p->stime;
    }
    if (sources_.serverPostmaster)
        s.serverTicks = serverTreeTicks(sources_.serverPostmaster, serverProcessStats(root / "proc", sources_.serverPostmaster));
    s.cpuPressure = parsePressure(slurp(root / "proc/pressure/cpu"));
    s.ioPressure = parsePressure(slurp(root / "proc/pressure/io"));
    return s;
}

SystemSample SystemSampler::between(const SystemSnapshot& a, const SystemSnapshot& b) const {
    SystemSample out;
    out.seconds = b.seconds - a.seconds;
    out.cpu = cpuBetween(a.cpu, b.cpu);
    fs::path root = sources_.root;
    out.disks = disksBetween(a.disks, b.disks, out.seconds, sources_.disks, underSysBlock, &root);
    if (sources_.loadGenerator)
        out.loadGeneratorCpuPct = cpuPercent(a.loadGeneratorTicks, b.loadGeneratorTicks, out.seconds, sources_.ticksPerSecond);
    if (sources_.serverPostmaster)
        out.serverCpuPct = cpuPercent(a.serverTicks, b.serverTicks, out.seconds, sources_.ticksPerSecond);
    if (a.cpuPressure && b.cpuPressure) out.cpuPressure = pressureBetween(*a.cpuPressure, *b.cpuPressure, out.seconds);
    if (a.ioPressure && b.ioPressure) out.ioPressure = pressureBetween(*a.ioPressure, *b.ioPressure, out.seconds);
    if (a.counters && b.counters) {
        // A reset is marked, and the interval has no server rates: never a real-looking 0.
        if (countersWereReset(*a.counters, *b.counters)) out.serverCountersReset = true;
        else out.server = ratesBetween(*a.counters, *b.counters, out.seconds);
    }
    int pus = sources_.loadGeneratorPus > 0 ? sources_.loadGeneratorPus : std::max<int>(1, static_cast<int>(b.cpu.perPu.size()));
    out.clientBound = out.loadGeneratorCpuPct && *out.loadGeneratorCpuPct > kClientBoundShare * 100.0 * pus;
    return out;
}


} // namespace scalelab
