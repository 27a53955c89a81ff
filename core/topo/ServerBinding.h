#pragma once
// Binding the local PostgreSQL server as a whole: the postmaster and every process it has
// forked (backends forked later inherit the postmaster's binding), verified by reading
// /proc/PID/status back.
#include "topo/CpuSet.h"
#include "topo/Topology.h"

#include <sys/types.h>

#include <vector>

namespace scalelab {

// The postmaster and its children (by the parent pid in /proc/PID/stat).
std::vector<pid_t> serverProcesses(pid_t postmaster);

// Cpus_allowed_list of /proc/PID/status. Throws Error when the process is gone.
CpuSet allowedCpus(pid_t pid);

// Binds every server process to `set` and checks each one's Cpus_allowed_list. A child that
// exits meanwhile is skipped. Throws Error naming a process whose binding did not take.
void bindServer(const Topology& topo, pid_t postmaster, const CpuSet& set);

// Binds the server for a scope: on destruction every server process (including those forked
// meanwhile) is bound back to all of the topology's PUs.
class ServerPlacement {
public:
    ServerPlacement(const Topology& topo, pid_t postmaster, const CpuSet& set);
    ~ServerPlacement();
    ServerPlacement(const ServerPlacement&) = delete;
    ServerPlacement& operator=(const ServerPlacement&) = delete;

private:
    const Topology& topo_;
    pid_t postmaster_;
};

} // namespace scalelab
