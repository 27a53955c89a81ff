#include "metrics/ProcessCpu.h"

#include <fstream>
#include <sstream>

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

} // namespace scalelab
