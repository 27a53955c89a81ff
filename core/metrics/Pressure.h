#pragma once
// Pressure stall information (/proc/pressure/cpu, /proc/pressure/io, Linux 4.20+): the share
// of an interval in which some (or all) runnable tasks were stalled waiting for the resource.
#include <cstdint>
#include <optional>
#include <string>

namespace scalelab {

struct PressureTotals {
    uint64_t someUs = 0;
    uint64_t fullUs = 0;  // 0 where the kernel has no "full" line (cpu before 5.13)
};

// Parses the "some ... total=N" and "full ... total=N" lines; nullopt without a "some" line.
std::optional<PressureTotals> parsePressure(const std::string& text);

struct PressureSample {
    double somePct = 0, fullPct = 0;
};

PressureSample pressureBetween(const PressureTotals& before, const PressureTotals& after, double seconds);

} // namespace scalelab
