#pragma once
// How many simulated experiments a promise test runs (tests/unit/Adaptive*Test.cpp): the full
// count in the main pass, a few under the sanitizers, where only the code paths are the point
// (the promise itself is checked by the main pass); and the standard error of a rate.
#include <cmath>

namespace scalelab::test {

constexpr int simulatedExperiments([[maybe_unused]] int full) {
#ifdef SCALELAB_SANITIZED
    return 150;
#else
    return full;
#endif
}

// The standard error of a rate p measured over n experiments.
inline double rateSe(double p, double n) { return std::sqrt(p * (1 - p) / n); }

} // namespace scalelab::test
