// libFuzzer: any text as the files ScaleLab's metrics and server code read: /proc/stat,
// /proc/diskstats, /proc/pressure/io, /proc/PID/stat and postmaster.pid. A parser may refuse
// the text (an Error, or nothing); nothing crashes, hangs or reads out of bounds.
#include "metrics/CpuStat.h"
#include "metrics/DiskStats.h"
#include "metrics/Pressure.h"
#include "metrics/ProcessCpu.h"
#include "server/DataDirectory.h"
#include "util/Error.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace scalelab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string text(reinterpret_cast<const char*>(data), size);
    auto guarded = [](auto&& parse) {
        try {
            parse();
        } catch (const Error&) {
        }
    };
    guarded([&] { (void)parseCpuStat(text); });
    guarded([&] { (void)parseDiskStats(text); });
    guarded([&] { (void)parsePressure(text); });
    guarded([&] { (void)parsePidStat(text); });
    guarded([&] { (void)parsePostmasterPid(text); });
    return 0;
}
