#pragma once
// A fresh empty directory under $TMPDIR (or /tmp), removed with everything in it on destruction:
// throwaway clusters, test files, a benchmark's server.
#include <filesystem>
#include <string>

namespace scalelab {

class TempDir {
public:
    explicit TempDir(const std::string& prefix = "scalelab");  // throws Error
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

} // namespace scalelab
