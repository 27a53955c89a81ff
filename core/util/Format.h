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

// A client count with its noun: "1 client", "8 clients".
inline std::string clientsText(long long n) { return std::to_string(n) + (n == 1 ? " client" : " clients"); }

} // namespace scalelab
