#pragma once
// One exception type for failures a user must read: the message says what went
// wrong and where, in words that make sense without the source code.
#include <stdexcept>
#include <string>

namespace scalelab {

class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace scalelab
