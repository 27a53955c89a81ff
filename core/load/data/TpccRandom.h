#pragma once
// The random data rules of the TPC-C specification (revision 5.11) that TPROC-C's data and
// transactions draw from (issue 36): NURand, the customers' last names from syllables, random
// a-strings and n-strings, zip codes, and item and stock data carrying "ORIGINAL". Written from
// the specification's clauses named at each; the numbers come from ScaleLab's Random (pgbench's
// generator), so one seed gives the same data.
#include "load/script/Random.h"

#include <cstdint>
#include <string>

namespace scalelab::tpcc {

// Clause 2.1.6: NURand's A for each field, and their ranges.
constexpr int64_t kLastNameA = 255;    // C_LAST, over [0, 999] (the name's number)
constexpr int64_t kCustomerIdA = 1023; // C_ID, over [1, 3000]
constexpr int64_t kItemIdA = 8191;     // OL_I_ID, over [1, 100000]

// NURand(A, x, y) = (((random(0, A) | random(x, y)) + C) % (y - x + 1)) + x, C a run-time
// constant in [0, A]. Requires 0 <= A, x <= y, 0 <= C <= A.
int64_t nurand(Random& rng, int64_t a, int64_t x, int64_t y, int64_t c);

// The three constants C, one per field, used by every terminal of a run (clause 2.1.6). The
// last name's constant differs between the data's load and the run (clause 2.1.6.1): the
// difference |C_run - C_load| lies in [65, 119] and is neither 96 nor 112.
struct NurandConstants {
    int64_t lastName = 0, customerId = 0, itemId = 0;
};
NurandConstants loadConstants(Random& rng);
// The run's constants from the load's: C_ID and OL_I_ID drawn afresh, C_LAST by clause 2.1.6.1.
NurandConstants runConstants(Random& rng, const NurandConstants& load);
// Whether a run's C_LAST is allowed after a load's (clause 2.1.6.1).
bool lastNameConstantsAllowed(int64_t load, int64_t run);

// Clause 4.3.2.3: the last name of a number in [0, 999], its three digits as syllables
// (BAR OUGHT ABLE PRI PRES ESE ANTI CALLY ATION EING): 371 is PRICALLYOUGHT.
std::string lastName(int number);

// Clause 4.3.2.2: a random a-string [lo, hi] (length uniform in [lo, hi], alphanumeric
// characters: the 62 letters and digits, as HammerDB uses) and n-string (digits), appended to
// `out` (no allocation once its capacity is reached).
void appendAString(Random& rng, int lo, int hi, std::string& out);
void appendNString(Random& rng, int lo, int hi, std::string& out);
// Clause 4.3.2.7: a zip code, a random n-string of 4 digits then "11111".
void appendZip(Random& rng, std::string& out);
// Clause 4.3.3.1: I_DATA and S_DATA, a random a-string [26, 50]; for 10% of rows, chosen at
// random, "ORIGINAL" in 8 consecutive characters at a random position. Returns whether it was.
bool appendData(Random& rng, std::string& out);

} // namespace scalelab::tpcc
