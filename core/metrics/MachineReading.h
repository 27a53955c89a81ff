#pragma once
// What ScaleLab reads of a machine's /proc at one moment: CPU per PU, disks, pressure, and the
// server's processes. Read here (readMachine), or on another machine by its agent and sent as
// JSON (metrics/RemoteMachine.h), so that the server's machine is measured where it runs.
#include "metrics/CpuStat.h"
#include "metrics/DiskStats.h"
#include "metrics/Pressure.h"

#include <nlohmann/json.hpp>

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace scalelab {

struct MachineReading {
    double seconds = 0;  // that machine's monotonic clock
    CpuStatSnapshot cpu;
    std::vector<DiskCounters> disks;
    uint64_t serverTicks = 0;  // the postmaster's process tree; 0 when no postmaster was given
    std::optional<PressureTotals> cpuPressure, ioPressure;
};

// Files under ROOT/proc (tests give captured ones); `postmaster` 0: no server processes.
MachineReading readMachine(const std::string& root, pid_t postmaster);

// The names under ROOT/sys/block: whole disks (a partition is not there).
std::vector<std::string> wholeDisks(const std::string& root);

// This machine's name (gethostname).
std::string thisHostName();

nlohmann::json toJson(const MachineReading& r);
// Throws Error naming what is missing or malformed.
MachineReading machineReadingFromJson(const nlohmann::json& j);

} // namespace scalelab
