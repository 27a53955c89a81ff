#include "metrics/Pressure.h"

#include <sstream>

namespace scalelab {

std::optional<PressureTotals> parsePressure(const std::string& text) {
    PressureTotals t;
    bool some = false;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        auto at = line.find("total=");
        if (at == std::string::npos) continue;
        uint64_t total = std::stoull(line.substr(at + 6));
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
