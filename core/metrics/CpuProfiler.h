#pragma once
// Records where a local PostgreSQL server's CPU goes over a run's counted window (issue 62):
// `perf record -g` on the cpu-clock event (a software clock: it works where the machine has no
// PMU, as virtual machines often do) attached to the postmaster and every child it has when the
// window starts; children forked later (an autovacuum worker, a new connection) are followed
// (perf's inherit). At the window's end perf stops (SIGINT), `perf script` symbolizes the
// samples and they are folded into stacks (metrics/CpuProfile.h), each rooted at its process's
// kind read from the process title.
#include "metrics/CpuProfile.h"

#include <sys/types.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace scalelab {

class PipedProcess;
class TempDir;

// Why a CPU profile of the server whose postmaster is `postmaster` (0: not on this machine)
// cannot be recorded, in words that say what to do ("perf is not installed: apt-get install
// linux-perf"); "" when it can. Checks what can be checked before a sweep starts: perf present
// and runnable, perf_event_paranoid for a user that is not root, the server's processes visible
// and owned by this user (or this user root).
std::string cpuProfileRefusal(pid_t postmaster);
// The part of that which needs no server: perf present and runnable, perf_event_paranoid.
std::string perfRefusal();

class CpuProfiler {
public:
    // Throws Error with cpuProfileRefusal's words when it cannot work.
    CpuProfiler(pid_t postmaster, double hz);
    ~CpuProfiler();
    CpuProfiler(const CpuProfiler&) = delete;
    CpuProfiler& operator=(const CpuProfiler&) = delete;

    // Starts perf on the server's processes (again from now when already recording). Never
    // throws: a failure to start is the profile's `unavailable` at stop().
    void start();
    // Stops perf and folds what it recorded; unavailable, with why, when perf failed or
    // recorded nothing (never an empty profile in place of a missing one).
    CpuProfile stop();
    bool running() const { return perf_ != nullptr || !startError_.empty(); }

private:
    pid_t postmaster_;
    double hz_;
    std::string perfPath_;
    bool kernelFrames_ = false;
    std::unique_ptr<TempDir> dir_;
    std::unique_ptr<PipedProcess> perf_;
    std::mutex stderrMutex_;
    std::vector<std::string> stderr_;  // perf record's lines (its reader thread appends)
    std::map<pid_t, std::string> kinds_;
    double startS_ = 0;
    std::string startError_;
};

} // namespace scalelab
