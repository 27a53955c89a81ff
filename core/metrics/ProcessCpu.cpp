#include "metrics/ProcessCpu.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace scalelab {

std::optional<ProcStat> parsePidStat(const std::string& line) {
    auto open = line.find('('), close = line.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close < open) return std::nullopt;
    ProcStat p;
    try {
        p.pid = static_cast<pid_t>(std::stol(line.substr(0, open)));
    } catch (const std::exception&) {
        return std::nullopt;
    }
    p.comm = line.substr(open + 1, close - open - 1);
    // After ")": state(3) ppid(4) pgrp session tty tpgid flags minflt cminflt majflt cmajflt
    // utime(14) stime(15) cutime(16) cstime(17)
    std::istringstream f(line.substr(close + 1));
    std::string skip;
    f >> p.state >> p.ppid;
    for (int i = 5; i <= 13; ++i) f >> skip;
    if (!(f >> p.utime >> p.stime >> p.cutime >> p.cstime)) return std::nullopt;
    return p;
}

namespace {
std::optional<ProcStat> statOf(const std::string& root, pid_t pid) {
    std::ifstream in(root + "/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(in, line)) return std::nullopt;
    return parsePidStat(line);
}

// "postmaster" is the name PostgreSQL's server program had before version 16 as a link.
bool isServerProgram(const std::string& comm) { return comm == "postgres" || comm == "postmaster"; }
} // namespace

std::optional<pid_t> postmasterOfBackend(const std::string& root, pid_t backend, std::string& why) {
    auto self = statOf(root, backend);
    if (!self) {
        why = "no process " + std::to_string(backend);
        return std::nullopt;
    }
    if (!isServerProgram(self->comm)) {
        why = "process " + std::to_string(backend) + " is '" + self->comm + "', not PostgreSQL";
        return std::nullopt;
    }
    auto parent = statOf(root, self->ppid);
    if (!parent || !isServerProgram(parent->comm)) {
        why = "the parent of process " + std::to_string(backend) + " is not a PostgreSQL postmaster";
        return std::nullopt;
    }
    return parent->pid;
}

uint64_t serverTreeTicks(pid_t root, const std::vector<ProcStat>& processes) {
    uint64_t ticks = 0;
    for (const auto& p : processes) {
        if (p.pid == root) ticks += p.utime + p.stime + p.cutime + p.cstime;
        else if (p.ppid == root) ticks += p.utime + p.stime;  // a zombie's time moves to cutime once reaped
    }
    return ticks;
}

double cpuPercent(uint64_t before, uint64_t after, double seconds, long ticksPerSecond) {
    if (seconds <= 0 || ticksPerSecond <= 0 || after < before) return 0;
    return 100.0 * static_cast<double>(after - before) / static_cast<double>(ticksPerSecond) / seconds;
}

namespace {

std::optional<ProcStat> readPidStat(const fs::path& dir) {
    std::ifstream in(dir / "stat");
    std::string line;
    if (!std::getline(in, line)) return std::nullopt;
    return parsePidStat(line);
}

} // namespace

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

} // namespace scalelab
