#pragma once
// CPU time from /proc/stat, total and per PU, and the percentages of an interval between
// two snapshots, as mpstat -P ALL shows them.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace scalelab {

// Clock ticks in each state since boot. Guest time is already inside user and nice.
struct CpuTimes {
    uint64_t user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
};

struct CpuStatSnapshot {
    CpuTimes total;
    std::vector<std::pair<int, CpuTimes>> perPu;  // (PU number, times), PUs online at the time
};

// Parses /proc/stat's cpu lines. Old kernels without the steal (or guest) columns read as 0.
CpuStatSnapshot parseCpuStat(const std::string& text);

// Percent of the interval in each state; they add up to 100 when the interval had ticks.
struct CpuUsage {
    double user = 0, nice = 0, system = 0, iowait = 0, irq = 0, softirq = 0, steal = 0, idle = 0;
    // Work done on this machine's behalf; steal (time the hypervisor gave to others) is apart.
    double busy() const { return 100.0 - idle - iowait - steal; }
};

// A counter that went backwards (seen for iowait on some kernels) counts as 0 for the interval.
CpuUsage cpuUsageBetween(const CpuTimes& before, const CpuTimes& after);

struct CpuSample {
    CpuUsage total;
    std::vector<std::pair<int, CpuUsage>> perPu;  // PUs online at both ends of the interval
};

CpuSample cpuBetween(const CpuStatSnapshot& before, const CpuStatSnapshot& after);

} // namespace scalelab
