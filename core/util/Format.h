#pragma once
// One number through a printf format, for the text renderers ("%+.1f%%" and the like).
#include <cstdio>
#include <string>

namespace scalelab {

inline std::string formatNumber(const char* format, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

// A signed figure with `decimals` places ("%+.*f"), but "+0.0", never "-0.0", for one that
// rounds to zero: a tiny negative clock offset is no offset.
inline std::string formatSigned(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%+.*f", decimals, v);
    std::string s = buf;
    if (s[0] == '-' && s.find_first_not_of("-0.") == std::string::npos) s[0] = '+';
    return s;
}

// The first line of a message (libpq's end with a newline and add DETAIL/HINT lines); "" for null.
inline std::string firstLineOf(const char* message) {
    std::string m = message ? message : "";
    return m.substr(0, m.find('\n'));
}

// A client count with its noun: "1 client", "8 clients".
inline std::string clientsText(long long n) { return std::to_string(n) + (n == 1 ? " client" : " clients"); }

// A rate as written: whole ones in full ("5000000", never "5e+06"), others as "%g" ("0.5").
inline std::string rateNumber(double tps) {
    return tps == static_cast<double>(static_cast<long long>(tps)) && tps < 1e15 ? formatNumber("%.0f", tps)
                                                                                 : formatNumber("%g", tps);
}

// An offered rate (pgbench -R): "1000 tps offered".
inline std::string offeredText(double tps) { return rateNumber(tps) + " tps offered"; }

// Where a planned run stands in the grid: "8 clients", "8 clients, 1000 tps offered", "8
// clients, scale 100" (`scale` when the grid has several, else 0).
inline std::string runPointText(long long clients, double rate, long long scale = 0) {
    return clientsText(clients) + (rate > 0 ? ", " + offeredText(rate) : "") +
           (scale > 0 ? ", scale " + std::to_string(scale) : "");
}

} // namespace scalelab
