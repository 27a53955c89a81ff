#pragma once
// Reading a growing file as `tail -f` does, one call at a time, by byte offset: the server
// log of a server host, read by its agent for the window's live tail (docs/hosts.md).
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace scalelab {

struct FollowedLines {
    std::vector<std::string> lines;  // the last `maxLines` complete lines since the offset
    std::uintmax_t offset = 0;       // where the next call starts: after the last complete line
    size_t skipped = 0;              // complete lines before those, left out
};

// The complete lines of `file` from byte `offset` on. A line still being written (no newline
// yet) is left for the next call. A file now shorter than `offset` was replaced or truncated
// (a new cluster, a rotated log): it is read from its start. A missing file gives nothing, at
// offset 0.
FollowedLines followFile(const std::filesystem::path& file, std::uintmax_t offset, size_t maxLines);

} // namespace scalelab
