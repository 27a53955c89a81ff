#pragma once
// Database tests need real PostgreSQL server programs. Without them a developer's
// run skips with the reason; under CI=true it fails, so CI never passes on skipped tests.
#include "server/PgBinaries.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace scalelab::test {

inline bool runningInCi() {
    const char* ci = std::getenv("CI");
    return ci && (std::strcmp(ci, "true") == 0 || std::strcmp(ci, "1") == 0);
}

// Empty when the server programs are there, else why not.
inline std::string missingServerPrograms() {
    try {
        findPgBinaries();
        return {};
    } catch (const std::exception& e) {
        return e.what();
    }
}

} // namespace scalelab::test

#define SCALELAB_REQUIRE_SERVER()                                                  \
    do {                                                                           \
        std::string why_ = ::scalelab::test::missingServerPrograms();              \
        if (!why_.empty()) {                                                       \
            if (::scalelab::test::runningInCi()) FAIL() << why_;                   \
            GTEST_SKIP() << why_;                                                  \
        }                                                                          \
    } while (0)

// The same for a QTest slot: fails under CI=true, skips elsewhere.
#define SCALELAB_QREQUIRE_SERVER()                                                 \
    do {                                                                           \
        std::string why_ = ::scalelab::test::missingServerPrograms();              \
        if (!why_.empty()) {                                                       \
            if (::scalelab::test::runningInCi()) QFAIL(why_.c_str());              \
            QSKIP(why_.c_str());                                                   \
        }                                                                          \
    } while (0)
