// TPC-C's random data rules (core/load/data/TpccRandom.h), against the specification's clauses.
#include "load/data/TpccRandom.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <vector>

using namespace scalelab;

TEST(TpccRandom, LastNamesAreTheSyllablesOfTheNumbersDigits) {
    EXPECT_EQ(tpcc::lastName(371), "PRICALLYOUGHT");  // clause 4.3.2.3's example
    EXPECT_EQ(tpcc::lastName(40), "BARPRESBAR");
    EXPECT_EQ(tpcc::lastName(0), "BARBARBAR");
    EXPECT_EQ(tpcc::lastName(999), "EINGEINGEING");
    EXPECT_EQ(tpcc::lastName(258), "ABLEESEATION");
}

namespace {
// NURand's exact distribution over [x, y]: every (random(0, A), random(x, y)) pair counted.
std::vector<double> exactNurand(int64_t a, int64_t x, int64_t y, int64_t c) {
    int64_t n = y - x + 1;
    std::vector<double> p(static_cast<size_t>(n), 0.0);
    for (int64_t r1 = 0; r1 <= a; ++r1)
        for (int64_t r2 = x; r2 <= y; ++r2) p[static_cast<size_t>(((r1 | r2) + c) % n)] += 1.0;
    for (double& v : p) v /= static_cast<double>((a + 1) * n);
    return p;
}

// Pearson's statistic of `counts` against `p`, neighbouring values pooled until each group
// expects at least 20 draws; `df` gets the groups less one.
double chiSquare(const std::vector<int64_t>& counts, const std::vector<double>& p, double draws, int& df) {
    double stat = 0, observed = 0, expected = 0;
    int groups = 0;
    for (size_t i = 0; i < p.size(); ++i) {
        observed += static_cast<double>(counts[i]);
        expected += p[i] * draws;
        if (expected >= 20 || i + 1 == p.size()) {
            stat += (observed - expected) * (observed - expected) / expected;
            observed = expected = 0;
            ++groups;
        }
    }
    df = groups - 1;
    return stat;
}
} // namespace

// The draws follow NURand's formula for each field's A and range (clause 2.1.6): a chi-square
// test against the exact distribution, fixed seed; the same draws are far from uniform, which
// shows the test can tell.
TEST(TpccRandom, NurandDrawsFollowTheFormulasDistribution) {
    struct Field {
        int64_t a, x, y, c;
    };
    // OL_I_ID's exact distribution would take 8192 x 100,000 pairs: its draws are checked for
    // range below; the formula is the same code.
    for (Field f : {Field{tpcc::kLastNameA, 0, 999, 123}, Field{tpcc::kCustomerIdA, 1, 3000, 259}}) {
        Random rng(20261205);
        const int draws = 400000;
        std::vector<int64_t> counts(static_cast<size_t>(f.y - f.x + 1), 0);
        for (int i = 0; i < draws; ++i) {
            int64_t v = tpcc::nurand(rng, f.a, f.x, f.y, f.c);
            ASSERT_GE(v, f.x);
            ASSERT_LE(v, f.y);
            ++counts[static_cast<size_t>(v - f.x)];
        }
        int df = 0;
        double stat = chiSquare(counts, exactNurand(f.a, f.x, f.y, f.c), draws, df);
        // About the 99.99th percentile of chi-square with df degrees of freedom.
        EXPECT_LT(stat, df + 4 * std::sqrt(2.0 * df)) << "A " << f.a << ": statistic " << stat << " on " << df;
        std::vector<double> uniform(counts.size(), 1.0 / static_cast<double>(counts.size()));
        int udf = 0;
        double ustat = chiSquare(counts, uniform, draws, udf);
        EXPECT_GT(ustat, 10 * (udf + 4 * std::sqrt(2.0 * udf))) << "A " << f.a << ": not told from uniform";
    }
}

TEST(TpccRandom, ItemIdsStayInTheirRange) {
    Random rng(3);
    int64_t lo = 100000, hi = 0;
    for (int i = 0; i < 200000; ++i) {
        int64_t v = tpcc::nurand(rng, tpcc::kItemIdA, 1, 100000, 8191);
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    EXPECT_GE(lo, 1);
    EXPECT_LE(hi, 100000);
    EXPECT_LT(lo, 100) << "the range's ends are reached";
    EXPECT_GT(hi, 99900);
}

TEST(TpccRandom, TheRunsLastNameConstantKeepsClause2161sDistance) {
    EXPECT_TRUE(tpcc::lastNameConstantsAllowed(0, 65));
    EXPECT_TRUE(tpcc::lastNameConstantsAllowed(200, 81));
    EXPECT_FALSE(tpcc::lastNameConstantsAllowed(0, 64));
    EXPECT_FALSE(tpcc::lastNameConstantsAllowed(0, 120));
    EXPECT_FALSE(tpcc::lastNameConstantsAllowed(100, 196));
    EXPECT_FALSE(tpcc::lastNameConstantsAllowed(150, 38));
    Random rng(1);
    for (int i = 0; i < 2000; ++i) {
        tpcc::NurandConstants load = tpcc::loadConstants(rng);
        tpcc::NurandConstants run = tpcc::runConstants(rng, load);
        for (const tpcc::NurandConstants& c : {load, run}) {
            ASSERT_GE(c.lastName, 0);
            ASSERT_LE(c.lastName, tpcc::kLastNameA);
            ASSERT_GE(c.customerId, 0);
            ASSERT_LE(c.customerId, tpcc::kCustomerIdA);
            ASSERT_GE(c.itemId, 0);
            ASSERT_LE(c.itemId, tpcc::kItemIdA);
        }
        ASSERT_TRUE(tpcc::lastNameConstantsAllowed(load.lastName, run.lastName)) << load.lastName << " " << run.lastName;
    }
}

TEST(TpccRandom, StringsHaveTheirLengthsAndCharacters) {
    Random rng(7);
    double total = 0;
    const int n = 20000;
    for (int i = 0; i < n; ++i) {
        std::string a, d, z;
        tpcc::appendAString(rng, 8, 16, a);
        ASSERT_GE(a.size(), 8u);
        ASSERT_LE(a.size(), 16u);
        ASSERT_TRUE(std::all_of(a.begin(), a.end(), [](unsigned char ch) { return std::isalnum(ch) != 0; })) << a;
        total += static_cast<double>(a.size());
        tpcc::appendNString(rng, 16, 16, d);
        ASSERT_EQ(d.size(), 16u);
        ASSERT_TRUE(std::all_of(d.begin(), d.end(), [](unsigned char ch) { return std::isdigit(ch) != 0; })) << d;
        tpcc::appendZip(rng, z);
        ASSERT_EQ(z.size(), 9u);
        ASSERT_EQ(z.substr(4), "11111");
    }
    EXPECT_NEAR(total / n, 12.0, 0.1) << "mean (lo + hi) / 2";
}

// Clause 4.3.3.1: I_DATA and S_DATA are 26 to 50 characters; about 10% hold "ORIGINAL", at
// random positions, the others only by chance (never, with 62 characters and 8 letters).
TEST(TpccRandom, AboutOneRowInTenCarriesOriginal) {
    Random rng(11);
    const int n = 100000;
    int original = 0, atStart = 0, atEnd = 0;
    for (int i = 0; i < n; ++i) {
        std::string data = "x";  // appended after what is there
        bool marked = tpcc::appendData(rng, data);
        ASSERT_EQ(data[0], 'x');
        ASSERT_GE(data.size(), 27u);
        ASSERT_LE(data.size(), 51u);
        size_t at = data.find("ORIGINAL");
        ASSERT_EQ(marked, at != std::string::npos) << data;
        if (!marked) continue;
        ++original;
        atStart += at == 1;
        atEnd += at + 8 == data.size();
    }
    EXPECT_NEAR(original / static_cast<double>(n), 0.10, 0.005);
    EXPECT_GT(atStart, 0);
    EXPECT_GT(atEnd, 0);
}
