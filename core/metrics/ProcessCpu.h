#pragma once
// CPU time of processes from /proc/PID/stat: the load generator itself, and the server as a
// whole (postmaster, its live children, and the children it has already reaped).
#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace scalelab {

struct ProcStat {
    pid_t pid = 0;
    pid_t ppid = 0;
    std::string comm;  // the command name, between the parentheses
    char state = '?';
    uint64_t utime = 0, stime = 0;    // clock ticks, all threads
    uint64_t cutime = 0, cstime = 0;  // of reaped children
};

// One /proc/PID/stat line; nullopt when it does not parse. The command name may hold spaces
// and parentheses: fields are counted from the last ')'.
std::optional<ProcStat> parsePidStat(const std::string& line);

// The postmaster of the PostgreSQL backend `backend` as the /proc under `root` shows it: the
// backend and its parent both PostgreSQL's server program. Tells whether a server reached over
// a connection runs on this machine (its backend's pid, PQbackendPID, is here). nullopt, with
// `why`, when it does not: the server runs on another machine, or in another PID namespace
// (a container), where the pid names another process or none.
std::optional<pid_t> postmasterOfBackend(const std::string& root, pid_t backend, std::string& why);

// /proc/PID/stat of the postmaster and every process whose parent it is, the postmaster last
// (`proc`: "/proc", or a captured copy); empty when the postmaster is gone.
std::vector<ProcStat> serverProcessStats(const std::filesystem::path& proc, pid_t postmaster);

// Ticks of the process tree rooted at `root` among `processes` (one level: the postmaster's
// children; backends do not fork): own time of the root and its live children, plus the time
// of children the root has reaped.
uint64_t serverTreeTicks(pid_t root, const std::vector<ProcStat>& processes);

// CPU percent (100 = one PU fully busy) from two tick counts `seconds` apart.
double cpuPercent(uint64_t ticksBefore, uint64_t ticksAfter, double seconds, long ticksPerSecond);

} // namespace scalelab
