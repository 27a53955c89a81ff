#include "load/script/Random.h"

#include "util/Error.h"

#include <sys/random.h>

#include <cmath>
#include <cstdio>

namespace scalelab {
namespace {

uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t splitmix64(uint64_t& x) {
    uint64_t z = (x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

int leftmostOne(uint64_t x) { return 63 - __builtin_clzll(x); }  // x != 0

} // namespace

void Random::reseed(uint64_t seed) {
    s0_ = splitmix64(seed);
    s1_ = splitmix64(seed);
    if (s0_ == 0 && s1_ == 0) {  // the all-zero state is a fixed point (pg_prng_seed_check)
        s0_ = 0x5851f42d4c957f2dull;
        s1_ = 0x14057b7ef767814full;
    }
}

uint64_t Random::next() {
    uint64_t s0 = s0_, sx = s1_ ^ s0;
    uint64_t result = rotl(s0 * 5, 7) * 9;
    s0_ = rotl(s0, 24) ^ sx ^ (sx << 16);
    s1_ = rotl(sx, 37);
    return result;
}

double Random::uniform() { return std::ldexp(static_cast<double>(next() >> 12), -52); }

double Random::normal() {
    double u1 = 1.0 - uniform();  // (0, 1]: log() stays finite
    double u2 = 1.0 - uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::sin(2.0 * M_PI * u2);
}

uint64_t Random::below(uint64_t lo, uint64_t hi) {
    if (hi <= lo) return lo;
    uint64_t range = hi - lo;
    int shift = 63 - leftmostOne(range);
    uint64_t v;
    do {
        v = next() >> shift;
    } while (v > range);
    return lo + v;
}

int64_t Random::between(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(below(0, static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo)));
}

int64_t Random::exponential(int64_t lo, int64_t hi, double parameter) {
    double cut = std::exp(-parameter);
    double u = 1.0 - uniform();                                     // (0, 1]
    double r = -std::log(cut + (1.0 - cut) * u) / parameter;         // [0, 1)
    return lo + static_cast<int64_t>(static_cast<double>(hi - lo + 1) * r);
}

int64_t Random::gaussian(int64_t lo, int64_t hi, double parameter) {
    double z;
    do {
        z = normal();
    } while (z < -parameter || z >= parameter);
    double r = (z + parameter) / (parameter * 2.0);                 // [0, 1)
    return lo + static_cast<int64_t>(static_cast<double>(hi - lo + 1) * r);
}

int64_t Random::zipfian(int64_t lo, int64_t hi, double s) {
    int64_t n = hi - lo + 1;
    if (n <= 1) return lo;
    double b = std::pow(2.0, s - 1.0);
    for (;;) {
        double u = uniform(), v = uniform();
        double x = std::floor(std::pow(u, -1.0 / (s - 1.0)));
        double t = std::pow(1.0 + 1.0 / x, s - 1.0);
        if (v * x * (t - 1.0) / (b - 1.0) <= t / b && x <= static_cast<double>(n))
            return lo - 1 + static_cast<int64_t>(x);
    }
}

int64_t Random::poisson(double center) {
    double u = 1.0 - uniform();
    return static_cast<int64_t>(-std::log(u) * center + 0.5);
}

std::optional<uint64_t> parseRandomSeed(const std::string& text) {
    if (text == "time") return std::nullopt;
    if (text == "rand") {
        uint64_t seed = 0;
        if (getrandom(&seed, sizeof seed, 0) != static_cast<ssize_t>(sizeof seed)) throw Error("could not generate random seed");
        return seed;
    }
    unsigned long long value = 0;
    char garbage = 0;
    if (text.empty() || text[0] == '-' || std::sscanf(text.c_str(), "%llu%c", &value, &garbage) != 1)
        throw Error("unrecognized random seed option \"" + text + "\": expecting an unsigned integer, \"time\" or \"rand\"");
    return static_cast<uint64_t>(value);
}

int64_t hashMurmur2(int64_t value, uint64_t seed) {
    const uint64_t mul = 0xc6a4a7935bd1e995ull;
    const int rot = 47;
    uint64_t result = seed ^ (mul * 8);
    uint64_t k = static_cast<uint64_t>(value);
    k *= mul;
    k ^= k >> rot;
    k *= mul;
    result ^= k;
    result *= mul;
    result ^= result >> rot;
    result *= mul;
    result ^= result >> rot;
    return static_cast<int64_t>(result);
}

int64_t hashFnv1a(int64_t value, uint64_t seed) {
    uint64_t result = 0xcbf29ce484222325ull ^ seed;
    uint64_t v = static_cast<uint64_t>(value);
    for (int i = 0; i < 8; ++i) {
        result ^= v & 0xff;
        v >>= 8;
        result *= 0x100000001b3ull;
    }
    return static_cast<int64_t>(result);
}

// Rounds of multiply, xor and rotate on overlapping lower and upper halves plus a random
// offset, with pgbench's constants and order of draws (pgbench.c, permute()).
int64_t permute(int64_t value, int64_t isize, int64_t seed) {
    if (isize < 2) return 0;
    Random rng(static_cast<uint64_t>(seed));
    uint64_t size = static_cast<uint64_t>(isize);
    uint64_t v = static_cast<uint64_t>(value) % size;
    int masklen = leftmostOne(size);
    uint64_t mask = (uint64_t{1} << masklen) - 1;
    for (int i = 0; i < 6; ++i) {
        uint64_t m = (rng.next() & mask) | 1;
        uint64_t r = rng.next() & mask;
        if (v <= mask) {
            v = ((v * m) ^ r) & mask;
            v = ((v << 1) & mask) | (v >> (masklen - 1));
        }
        m = (rng.next() & mask) | 1;
        r = rng.next() & mask;
        uint64_t t = size - 1 - v;
        if (t <= mask) {
            t = ((t * m) ^ r) & mask;
            t = ((t << 1) & mask) | (t >> (masklen - 1));
            v = size - 1 - t;
        }
        r = rng.below(0, size - 1);
        v = (v + r) % size;
    }
    return static_cast<int64_t>(v);
}

} // namespace scalelab
