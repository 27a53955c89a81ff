#pragma once
// A file written whole or not at all: the text goes to a temporary name next to `path`, which
// is renamed to `path` once written and flushed. A failure leaves no partial file behind.
#include <string>

namespace scalelab {

// Throws Error("cannot write PATH: why").
void writeFileAtomically(const std::string& path, const std::string& text);

} // namespace scalelab
