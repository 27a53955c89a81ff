#include "metrics/DiskStats.h"

#include <algorithm>
#include <sstream>

namespace scalelab {

std::vector<DiskCounters> parseDiskStats(const std::string& text) {
    std::vector<DiskCounters> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        std::istringstream f(line);
        unsigned major = 0, minor = 0;
        DiskCounters c;
        uint64_t readsMerged = 0, writesMerged = 0, inProgress = 0;
        if (f >> major >> minor >> c.name >> c.reads >> readsMerged >> c.sectorsRead >> c.msReading >> c.writes >>
            writesMerged >> c.sectorsWritten >> c.msWriting >> inProgress >> c.msDoingIo)
            out.push_back(c);
    }
    return out;
}

std::vector<DiskSample> disksBetween(const std::vector<DiskCounters>& before, const std::vector<DiskCounters>& after,
                                     double seconds, const DiskFilter& filter,
                                     bool (*isWholeDisk)(const std::string&, const void*), const void* ctx) {
    std::vector<DiskSample> out;
    if (seconds <= 0) return out;
    auto d = [](uint64_t a, uint64_t b) { return b > a ? static_cast<double>(b - a) : 0.0; };
    for (const auto& now : after) {
        bool named = std::find(filter.only.begin(), filter.only.end(), now.name) != filter.only.end();
        if (!filter.only.empty() && !named) continue;
        bool virtualDevice = now.name.rfind("loop", 0) == 0 || now.name.rfind("ram", 0) == 0 || now.name.rfind("zram", 0) == 0;
        if (!named && (virtualDevice || (!filter.partitions && !isWholeDisk(now.name, ctx)))) continue;
        auto was = std::find_if(before.begin(), before.end(), [&](const DiskCounters& c) { return c.name == now.name; });
        if (was == before.end()) continue;
        DiskSample s;
        s.name = now.name;
        double reads = d(was->reads, now.reads), writes = d(was->writes, now.writes);
        s.readsPerSec = reads / seconds;
        s.writesPerSec = writes / seconds;
        s.readMBps = d(was->sectorsRead, now.sectorsRead) / 2048.0 / seconds;
        s.writeMBps = d(was->sectorsWritten, now.sectorsWritten) / 2048.0 / seconds;
        double ios = reads + writes;
        s.awaitMs = ios > 0 ? (d(was->msReading, now.msReading) + d(was->msWriting, now.msWriting)) / ios : 0;
        s.utilPct = std::min(100.0, d(was->msDoingIo, now.msDoingIo) / (seconds * 1000.0) * 100.0);
        out.push_back(s);
    }
    return out;
}

} // namespace scalelab
