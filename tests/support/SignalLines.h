#pragma once
// The SigBlk and SigIgn lines of /proc/PID/status, as a child wrote them to a file (`grep -E
// '^Sig(Blk|Ign)' /proc/self/status > FILE`): what a child process started with.
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

namespace scalelab::test {

struct SignalLines {
    uint64_t blocked = ~0ull, ignored = ~0ull;  // all set: the file did not say
};

inline SignalLines readSignalLines(const std::string& path) {
    SignalLines out;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("SigBlk:", 0) == 0) out.blocked = std::stoull(line.substr(7), nullptr, 16);
        if (line.rfind("SigIgn:", 0) == 0) out.ignored = std::stoull(line.substr(7), nullptr, 16);
    }
    return out;
}

// glibc's posix_spawn leaves its own two real-time signals (32 and 33, SIGCANCEL and
// SIGSETXID: no application uses them, and glibc installs their handlers when it needs them)
// ignored in the child; every other signal is at its default.
constexpr uint64_t kGlibcInternalSignals = (1ull << 31) | (1ull << 32);

} // namespace scalelab::test
