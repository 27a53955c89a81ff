#include "util/TempDir.h"

#include "util/Error.h"

#include <cstdlib>
#include <unistd.h>

namespace scalelab {

TempDir::TempDir(const std::string& prefix) {
    const char* tmp = std::getenv("TMPDIR");
    std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/" + prefix + "-XXXXXX";
    if (!mkdtemp(templ.data())) throw Error("cannot create a temporary directory " + templ);
    path_ = templ;
}

TempDir::~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
}

} // namespace scalelab
