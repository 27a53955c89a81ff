#include "load/data/TpccRandom.h"

#include <cstdlib>

namespace scalelab::tpcc {

namespace {
constexpr const char* kSyllables[10] = {"BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"};
constexpr char kAlphanumerics[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
constexpr int kAlphanumericCount = sizeof kAlphanumerics - 1;
} // namespace

int64_t nurand(Random& rng, int64_t a, int64_t x, int64_t y, int64_t c) {
    return (((rng.between(0, a) | rng.between(x, y)) + c) % (y - x + 1)) + x;
}

bool lastNameConstantsAllowed(int64_t load, int64_t run) {
    int64_t delta = std::llabs(run - load);
    return delta >= 65 && delta <= 119 && delta != 96 && delta != 112;
}

NurandConstants loadConstants(Random& rng) {
    NurandConstants c;
    c.lastName = rng.between(0, kLastNameA);
    c.customerId = rng.between(0, kCustomerIdA);
    c.itemId = rng.between(0, kItemIdA);
    return c;
}

NurandConstants runConstants(Random& rng, const NurandConstants& load) {
    NurandConstants c;
    // Every allowed value in [0, 255] has the same chance: draw until one is allowed (at least
    // 52 of the 256 are, for any load constant).
    do c.lastName = rng.between(0, kLastNameA);
    while (!lastNameConstantsAllowed(load.lastName, c.lastName));
    c.customerId = rng.between(0, kCustomerIdA);
    c.itemId = rng.between(0, kItemIdA);
    return c;
}

std::string lastName(int number) {
    return std::string(kSyllables[number / 100]) + kSyllables[number / 10 % 10] + kSyllables[number % 10];
}

void appendAString(Random& rng, int lo, int hi, std::string& out) {
    for (int64_t n = rng.between(lo, hi); n > 0; --n) out.push_back(kAlphanumerics[rng.between(0, kAlphanumericCount - 1)]);
}

void appendNString(Random& rng, int lo, int hi, std::string& out) {
    for (int64_t n = rng.between(lo, hi); n > 0; --n) out.push_back(static_cast<char>('0' + rng.between(0, 9)));
}

void appendZip(Random& rng, std::string& out) {
    appendNString(rng, 4, 4, out);
    out.append("11111");
}

bool appendData(Random& rng, std::string& out) {
    size_t start = out.size();
    appendAString(rng, 26, 50, out);
    if (rng.between(1, 10) != 1) return false;
    size_t length = out.size() - start;
    size_t at = start + static_cast<size_t>(rng.between(0, static_cast<int64_t>(length) - 8));
    out.replace(at, 8, "ORIGINAL");
    return true;
}

} // namespace scalelab::tpcc
