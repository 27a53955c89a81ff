#pragma once
// The random numbers of pgbench's script functions: the same generator family
// (xoroshiro128**, as pgbench uses since PostgreSQL 15) and the same transforms from a
// uniform value to random(), random_exponential(), random_gaussian() and random_zipfian(),
// so that a script picks keys with the distribution it would have under pgbench.
#include <cstdint>

namespace scalelab {

class Random {
public:
    explicit Random(uint64_t seed = 0) { reseed(seed); }
    void reseed(uint64_t seed);

    uint64_t next();            // 64 uniform bits
    double uniform();           // [0, 1)
    double normal();            // standard normal (Box-Muller)

    // Uniform integer in [lo, hi], without modulo bias. Requires lo <= hi.
    int64_t between(int64_t lo, int64_t hi);
    // pgbench's random_exponential(lo, hi, parameter): parameter > 0.
    int64_t exponential(int64_t lo, int64_t hi, double parameter);
    // pgbench's random_gaussian(lo, hi, parameter): parameter >= 2.
    int64_t gaussian(int64_t lo, int64_t hi, double parameter);
    // pgbench's random_zipfian(lo, hi, s): 1.001 <= s <= 1000, by rejection sampling
    // (Devroye, "Non-Uniform Random Variate Generation", 1986, X.6).
    int64_t zipfian(int64_t lo, int64_t hi, double s);

    struct State {
        uint64_t s0, s1;
    };
    State state() const { return {s0_, s1_}; }
    void restore(State st) { s0_ = st.s0; s1_ = st.s1; }

private:
    uint64_t s0_ = 0, s1_ = 0;
};

} // namespace scalelab
