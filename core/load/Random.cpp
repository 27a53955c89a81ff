#include "load/Random.h"

#include <cmath>

namespace scalelab {
namespace {

uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t splitmix64(uint64_t& x) {
    uint64_t z = (x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

} // namespace

void Random::reseed(uint64_t seed) {
    s0_ = splitmix64(seed);
    s1_ = splitmix64(seed);
    if (s0_ == 0 && s1_ == 0) s1_ = 1;  // the all-zero state is a fixed point
}

uint64_t Random::next() {
    uint64_t a = s0_, b = s1_;
    uint64_t result = rotl(a * 5, 7) * 9;
    b ^= a;
    s0_ = rotl(a, 24) ^ b ^ (b << 16);
    s1_ = rotl(b, 37);
    return result;
}

double Random::uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

double Random::normal() {
    double u1 = 1.0 - uniform();  // (0, 1]: log() stays finite
    double u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::sin(2.0 * M_PI * u2);
}

int64_t Random::between(int64_t lo, int64_t hi) {
    uint64_t range = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
    if (range == UINT64_MAX) return static_cast<int64_t>(next());
    uint64_t span = range + 1;
    // Reject the incomplete top slice of the 64-bit range so every value is equally likely.
    uint64_t limit = UINT64_MAX - (UINT64_MAX % span + 1) % span;
    uint64_t v;
    do {
        v = next();
    } while (v > limit);
    return static_cast<int64_t>(static_cast<uint64_t>(lo) + v % span);
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

} // namespace scalelab
