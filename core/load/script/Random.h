#pragma once
// The random numbers of pgbench's script functions, bit for bit: the same generator
// (PostgreSQL's pg_prng: xoroshiro128** seeded through splitmix64), the same transforms from
// uniform bits to random(), random_exponential(), random_gaussian() and random_zipfian(), and
// pgbench's hash and permute functions. With the same seed, a script picks the same keys
// under ScaleLab as under pgbench.
#include <cstdint>
#include <optional>
#include <string>

namespace scalelab {

class Random {
public:
    explicit Random(uint64_t seed = 0) { reseed(seed); }
    void reseed(uint64_t seed);  // pg_prng_seed

    uint64_t next();            // pg_prng_uint64: 64 uniform bits
    double uniform();           // pg_prng_double: [0, 1), 52 bits
    double normal();            // pg_prng_double_normal (Box-Muller)
    uint64_t below(uint64_t lo, uint64_t hi);  // pg_prng_uint64_range: [lo, hi]

    // pgbench's getrand(): uniform integer in [lo, hi]. Requires lo <= hi and hi - lo to fit.
    int64_t between(int64_t lo, int64_t hi);
    // pgbench's random_exponential(lo, hi, parameter): parameter > 0.
    int64_t exponential(int64_t lo, int64_t hi, double parameter);
    // pgbench's random_gaussian(lo, hi, parameter): parameter >= 2.
    int64_t gaussian(int64_t lo, int64_t hi, double parameter);
    // pgbench's random_zipfian(lo, hi, s): 1.001 <= s <= 1000, by rejection sampling
    // (Devroye, "Non-Uniform Random Variate Generation", 1986, X.6).
    int64_t zipfian(int64_t lo, int64_t hi, double s);
    // pgbench's inter-arrival delay for a rate: Poisson around `center`.
    int64_t poisson(double center);

    struct State {
        uint64_t s0, s1;
    };
    State state() const { return {s0_, s1_}; }
    void restore(State st) { s0_ = st.s0; s1_ = st.s1; }

private:
    uint64_t s0_ = 0, s1_ = 0;
};

// pgbench's --random-seed: "time" (empty: the clock at the start of the run), "rand" (from the
// kernel's random source) or an unsigned integer. Throws Error in pgbench's words otherwise.
std::optional<uint64_t> parseRandomSeed(const std::string& text);

// pgbench's hash_murmur2(value, seed) and hash_fnv1a(value, seed).
int64_t hashMurmur2(int64_t value, uint64_t seed);
int64_t hashFnv1a(int64_t value, uint64_t seed);
// pgbench's permute(value, size, seed): a pseudorandom permutation of [0, size). size >= 1.
int64_t permute(int64_t value, int64_t size, int64_t seed);

} // namespace scalelab
