#pragma once
// The load generator's clock: CLOCK_MONOTONIC in nanoseconds, one call, no allocation (the
// workers read it on every event; the sampler and the run's window use the same clock).
#include <cstdint>
#include <ctime>

namespace scalelab {

inline int64_t monotonicNs() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// The wall clock in nanoseconds since the epoch: the moment load hosts agree to start at
// (their clocks are kept in step by NTP; the monotonic clocks of two machines are not related).
inline int64_t realtimeNs() {
    timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

} // namespace scalelab
