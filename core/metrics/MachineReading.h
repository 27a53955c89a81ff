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
#include <map>
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
    // Figures that could not be read, by kind ("cpu", "disks", "server", "pressure"), with why
    // ("cannot read /proc/stat: Too many open files"). Such a figure is missing, never 0 (issue
    // 60.5: with every descriptor in use a run reported its CPU as 0.00 and completed).
    std::map<std::string, std::string> missing;
};

// A /proc (or /sys) file's text; "" and `why` set when it cannot be read. A file that does not
// exist leaves `why` empty when `absentIsFine` (pressure on a kernel without PSI).
std::string readProcFile(const std::string& path, std::string& why, bool absentIsFine = false);

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
