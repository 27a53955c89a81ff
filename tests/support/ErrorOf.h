#pragma once
// The message of the exception `f` throws, or "(no error)": lets a test compare messages as text.
#include <functional>
#include <string>

namespace scalelab::test {

inline std::string errorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "(no error)";
}

} // namespace scalelab::test
