#include "metrics/ProcessCpu.h"

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
    // After ")": state(3) ppid(4) pgrp session tty tpgid flags minflt cminflt majflt cmajflt
    // utime(14) stime(15) cutime(16) cstime(17)
    std::istringstream f(line.substr(close + 1));
    std::string skip;
    f >> p.state >> p.ppid;
    for (int i = 5; i <= 13; ++i) f >> skip;
    if (!(f >> p.utime >> p.stime >> p.cutime >> p.cstime)) return std::nullopt;
    return p;
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
