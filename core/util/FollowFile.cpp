#include "util/FollowFile.h"

#include <deque>
#include <fstream>

namespace scalelab {

FollowedLines followFile(const std::filesystem::path& file, std::uintmax_t offset, size_t maxLines) {
    FollowedLines out;
    std::error_code ec;
    std::uintmax_t size = std::filesystem::file_size(file, ec);
    if (ec) return out;
    if (size < offset) offset = 0;
    out.offset = offset;
    std::ifstream in(file, std::ios::binary);
    if (!in) return out;
    in.seekg(static_cast<std::streamoff>(offset));
    // Lines are kept as they come, at most maxLines of them: a log that grew by megabytes since
    // the last call costs one pass, not its size in memory.
    std::deque<std::string> kept;
    for (std::string line; std::getline(in, line);) {
        if (in.eof()) break;  // no newline after it: still being written
        out.offset += line.size() + 1;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        kept.push_back(std::move(line));
        if (kept.size() > maxLines) {
            kept.pop_front();
            ++out.skipped;
        }
    }
    out.lines.assign(std::make_move_iterator(kept.begin()), std::make_move_iterator(kept.end()));
    return out;
}

} // namespace scalelab
