#pragma once
// Block devices from /proc/diskstats and the per-second rates of an interval, as iostat -x.
#include <cstdint>
#include <string>
#include <vector>

namespace scalelab {

struct DiskCounters {
    std::string name;
    uint64_t reads = 0, sectorsRead = 0, msReading = 0;
    uint64_t writes = 0, sectorsWritten = 0, msWriting = 0;
    uint64_t msDoingIo = 0;
};

std::vector<DiskCounters> parseDiskStats(const std::string& text);

struct DiskFilter {
    bool partitions = false;           // whole disks only by default
    std::vector<std::string> only;     // when not empty: just these names
};

struct DiskSample {
    std::string name;
    double readsPerSec = 0, writesPerSec = 0;
    double readMBps = 0, writeMBps = 0;  // MB = 2^20 bytes, like iostat -m
    double awaitMs = 0;                  // average time per I/O (queue + service)
    double utilPct = 0;                  // time with I/O in progress
};

// Devices present at both ends and passing the filter. `isWholeDisk(name)` tells disks from
// partitions (a name under /sys/block is a disk). Loop, ram and zram devices are left out
// unless named in the filter.
std::vector<DiskSample> disksBetween(const std::vector<DiskCounters>& before, const std::vector<DiskCounters>& after,
                                     double seconds, const DiskFilter& filter,
                                     bool (*isWholeDisk)(const std::string& name, const void* ctx), const void* ctx);

} // namespace scalelab
