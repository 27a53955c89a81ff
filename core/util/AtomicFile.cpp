#include "util/AtomicFile.h"

#include "util/Error.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace scalelab {

FILE* createTemporaryFor(const std::string& path, std::string& temp, unsigned mode) {
    temp = path + ".partial-" + std::to_string(getpid());
    int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, static_cast<mode_t>(mode));
    if (fd < 0) return nullptr;
    FILE* f = fdopen(fd, "w");
    if (!f) ::close(fd);
    return f;
}

void writeFileAtomically(const std::string& path, const std::string& text, unsigned mode) {
    std::string temp;
    FILE* f = createTemporaryFor(path, temp, mode);
    if (!f) throw Error("cannot write " + path + ": " + std::strerror(errno));
    bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    ok = std::fflush(f) == 0 && ok;
    int err = errno;
    ok = std::fclose(f) == 0 && ok;
    if (ok && std::rename(temp.c_str(), path.c_str()) != 0) ok = false, err = errno;
    if (!ok) {
        std::remove(temp.c_str());
        throw Error("cannot write " + path + ": " + std::strerror(err ? err : EIO));
    }
}

} // namespace scalelab
