#include "metrics/Pressure.h"

#include <charconv>
#include <sstream>

namespace scalelab {

std::optional<PressureTotals> parsePressure(const std::string& text) {
    PressureTotals t;
    bool some = false;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        auto at = line.find("total=");
        if (at == std::string::npos) continue;
        // A line without a number after "total=" is not the kernel's: skipped (found by the
        // fuzzer: std::stoull threw out of the metrics thread).
        uint64_t total = 0;
        const char* begin = line.data() + at + 6;
        if (std::from_chars(begin, line.data() + line.size(), total).ec != std::errc()) continue;
        if (line.rfind("some", 0) == 0) {
            t.someUs = total;
            some = true;
        } else if (line.rfind("full", 0) == 0) {
            t.fullUs = total;
        }
    }
    if (!some) return std::nullopt;
    return t;
}

PressureSample pressureBetween(const PressureTotals& a, const PressureTotals& b, double seconds) {
    PressureSample s;
    if (seconds <= 0) return s;
    auto pct = [&](uint64_t x, uint64_t y) { return y > x ? 100.0 * static_cast<double>(y - x) / (seconds * 1e6) : 0.0; };
    s.somePct = pct(a.someUs, b.someUs);
    s.fullPct = pct(a.fullUs, b.fullUs);
    return s;
}

} // namespace scalelab
