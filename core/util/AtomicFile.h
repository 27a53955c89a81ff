#pragma once
// A file written whole or not at all: the text goes to a temporary name next to `path`, which
// is renamed to `path` once written and flushed. A failure leaves no partial file behind.
#include <cstdio>
#include <string>

namespace scalelab {

// Throws Error("cannot write PATH: why"). `mode`: the new file's (less the umask); 0600 for a
// secret, which is then never readable by others, not even while it is written.
void writeFileAtomically(const std::string& path, const std::string& text, unsigned mode = 0644);

// The temporary name next to `path` that an atomic write uses, created new for writing (mode
// 0644 less the umask): never a file or a symlink someone else put there first, which in a
// shared directory (/tmp) could send our bytes to any file they name. nullptr with errno set.
FILE* createTemporaryFor(const std::string& path, std::string& temp, unsigned mode = 0644);

} // namespace scalelab
