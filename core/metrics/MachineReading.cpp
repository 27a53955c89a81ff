#include "metrics/MachineReading.h"

#include "metrics/ProcessCpu.h"
#include "util/Error.h"

#include <fcntl.h>
#include <unistd.h>
#include <time.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace scalelab {
namespace {

// The file's text, or "" with the kind's reason recorded in `missing`.
std::string readOrNote(const fs::path& p, const char* kind, std::map<std::string, std::string>& missing,
                       bool absentIsFine = false) {
    std::string why;
    std::string text = readProcFile(p.string(), why, absentIsFine);
    if (!why.empty()) missing.emplace(kind, why);
    return text;
}

double nowSeconds() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

nlohmann::json timesJson(int pu, const CpuTimes& t) {
    return {pu, t.user, t.nice, t.system, t.idle, t.iowait, t.irq, t.softirq, t.steal};
}

CpuTimes timesFrom(const nlohmann::json& a) {
    CpuTimes t;
    uint64_t* fields[] = {&t.user, &t.nice, &t.system, &t.idle, &t.iowait, &t.irq, &t.softirq, &t.steal};
    for (size_t i = 0; i < 8; ++i) *fields[i] = a.at(i + 1).get<uint64_t>();
    return t;
}

nlohmann::json pressureJson(const std::optional<PressureTotals>& p) {
    return p ? nlohmann::json::array({p->someUs, p->fullUs}) : nlohmann::json();
}

std::optional<PressureTotals> pressureFrom(const nlohmann::json& j, const char* key) {
    if (!j.contains(key) || j[key].is_null()) return std::nullopt;
    return PressureTotals{j[key].at(0).get<uint64_t>(), j[key].at(1).get<uint64_t>()};
}

} // namespace

MachineReading readMachine(const std::string& rootText, pid_t postmaster) {
    fs::path root = rootText;
    MachineReading r;
    r.seconds = nowSeconds();
    std::string stat = readOrNote(root / "proc/stat", "cpu", r.missing);
    r.cpu = parseCpuStat(stat);
    if (!r.missing.count("cpu") && stat.rfind("cpu ", 0) != 0 && stat.find("\ncpu ") == std::string::npos)
        r.missing.emplace("cpu", (root / "proc/stat").string() + " has no cpu line");
    r.disks = parseDiskStats(readOrNote(root / "proc/diskstats", "disks", r.missing));
    if (postmaster) {
        // The postmaster's own line first: when even that cannot be read, the server's CPU is
        // not known (a postmaster that is gone reads as no processes, as before).
        std::string why;
        readProcFile((root / "proc" / std::to_string(postmaster) / "stat").string(), why, true);
        if (!why.empty()) r.missing.emplace("server", why);
        else r.serverTicks = serverTreeTicks(postmaster, serverProcessStats(root / "proc", postmaster));
    }
    r.cpuPressure = parsePressure(readOrNote(root / "proc/pressure/cpu", "pressure", r.missing, true));
    r.ioPressure = parsePressure(readOrNote(root / "proc/pressure/io", "pressure", r.missing, true));
    if (r.missing.count("pressure")) r.cpuPressure.reset(), r.ioPressure.reset();
    return r;
}

std::string readProcFile(const std::string& path, std::string& why, bool absentIsFine) {
    // open() and read(), not a stream: their errno is the reason said (EMFILE, EACCES, ...).
    why.clear();
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        int error = errno;
        if (!(absentIsFine && error == ENOENT)) why = "cannot read " + path + ": " + std::strerror(error);
        return "";
    }
    std::string text;
    char buf[8192];
    for (;;) {
        ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            why = "cannot read " + path + ": " + std::strerror(errno);
            break;
        }
        if (n == 0) break;
        text.append(buf, static_cast<size_t>(n));
    }
    ::close(fd);
    return text;
}

std::vector<std::string> wholeDisks(const std::string& root) {
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(fs::path(root) / "sys/block", ec)) names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

std::string thisHostName() {
    char name[256] = {0};
    gethostname(name, sizeof name - 1);
    return name;
}

nlohmann::json toJson(const MachineReading& r) {
    nlohmann::json cpu = nlohmann::json::array({timesJson(-1, r.cpu.total)});
    for (const auto& [pu, t] : r.cpu.perPu) cpu.push_back(timesJson(pu, t));
    nlohmann::json disks = nlohmann::json::array();
    for (const auto& d : r.disks)
        disks.push_back({d.name, d.reads, d.sectorsRead, d.msReading, d.writes, d.sectorsWritten, d.msWriting, d.msDoingIo});
    nlohmann::json j = {{"seconds", r.seconds}, {"cpu", cpu}, {"disks", disks}, {"server_ticks", r.serverTicks},
                        {"cpu_pressure", pressureJson(r.cpuPressure)}, {"io_pressure", pressureJson(r.ioPressure)}};
    if (!r.missing.empty()) j["missing"] = r.missing;
    return j;
}

MachineReading machineReadingFromJson(const nlohmann::json& j) {
    try {
        MachineReading r;
        r.seconds = j.at("seconds").get<double>();
        for (const auto& a : j.at("cpu")) {
            int pu = a.at(0).get<int>();
            if (pu < 0) r.cpu.total = timesFrom(a);
            else r.cpu.perPu.emplace_back(pu, timesFrom(a));
        }
        for (const auto& a : j.at("disks")) {
            DiskCounters d;
            d.name = a.at(0).get<std::string>();
            uint64_t* fields[] = {&d.reads, &d.sectorsRead, &d.msReading, &d.writes, &d.sectorsWritten, &d.msWriting, &d.msDoingIo};
            for (size_t i = 0; i < 7; ++i) *fields[i] = a.at(i + 1).get<uint64_t>();
            r.disks.push_back(std::move(d));
        }
        r.serverTicks = j.at("server_ticks").get<uint64_t>();
        r.cpuPressure = pressureFrom(j, "cpu_pressure");
        r.ioPressure = pressureFrom(j, "io_pressure");
        if (j.contains("missing"))  // an agent of this version; older ones sent none
            r.missing = j["missing"].get<std::map<std::string, std::string>>();
        return r;
    } catch (const nlohmann::json::exception& e) {
        throw Error(std::string("a machine reading that is not ScaleLab's: ") + e.what());
    }
}

} // namespace scalelab
