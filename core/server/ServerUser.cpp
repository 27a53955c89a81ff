#include "server/ServerUser.h"

#include "util/Error.h"

#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace fs = std::filesystem;

namespace scalelab {

std::optional<UserIdentity> lookupUser(const std::string& name) {
    std::vector<char> buf(16384);
    passwd pw{};
    passwd* found = nullptr;
    if (getpwnam_r(name.c_str(), &pw, buf.data(), buf.size(), &found) != 0 || found == nullptr)
        return std::nullopt;
    UserIdentity id;
    id.name = name;
    id.uid = pw.pw_uid;
    id.gid = pw.pw_gid;
    int count = 64;
    id.groups.resize(static_cast<size_t>(count));
    if (getgrouplist(name.c_str(), pw.pw_gid, id.groups.data(), &count) < 0) {
        id.groups.resize(static_cast<size_t>(count));
        getgrouplist(name.c_str(), pw.pw_gid, id.groups.data(), &count);
    }
    id.groups.resize(static_cast<size_t>(count));
    return id;
}

std::optional<UserIdentity> serverUserFor(bool runningAsRoot, const std::string& accountName) {
    if (!runningAsRoot) return std::nullopt;
    auto user = lookupUser(accountName);
    if (!user)
        throw Error("ScaleLab runs as root, and PostgreSQL refuses to run as root, but there is no '" +
                    accountName + "' system user to run it as. Install the server package "
                    "(apt-get install postgresql-15 creates that user) or run ScaleLab as a normal user.");
    return user;
}

std::optional<UserIdentity> serverUserForThisProcess() { return serverUserFor(geteuid() == 0); }

namespace {

bool writableByOthers(const fs::path& dir) {
    struct stat st {};
    return lstat(dir.c_str(), &st) == 0 && (st.st_mode & (S_IWGRP | S_IWOTH)) != 0;
}

} // namespace

// Every step acts on the directory it made or checked, never on a path that could be swapped:
// mkdir for a new one; for one that exists, open with O_NOFOLLOW and fstat, then fchown and
// fchmod on that descriptor. A symbolic link in a directory others can write (/tmp) may have
// been planted to make root hand its target to the server: refused. A directory someone else
// made (not this user, not the server's) is not taken over: refused.
void prepareServerDirectory(const fs::path& dir, const std::optional<UserIdentity>& owner, fs::perms mode) {
    std::error_code ec;
    fs::create_directories(dir.parent_path(), ec);
    if (ec) throw Error("cannot create directory " + dir.parent_path().string() + ": " + ec.message());
    fs::path target = dir;
    struct stat lst {};
    if (lstat(dir.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode)) {
        if (writableByOthers(dir.parent_path()))
            throw Error(dir.string() + " is a symbolic link in " + dir.parent_path().string() +
                        ", where others can write: someone may have planted it to make ScaleLab hand its target to "
                        "the server. ScaleLab does not follow it; remove it (or give the directory's real path)");
        target = fs::canonical(dir, ec);  // the user's own link, in a directory only they write
        if (ec) throw Error("cannot follow " + dir.string() + ": " + ec.message());
    }
    bool made = mkdir(target.c_str(), 0700) == 0;
    if (!made && errno != EEXIST) throw Error("cannot create directory " + target.string() + ": " + strerror(errno));
    int fd = open(target.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ELOOP || errno == ENOTDIR)
            throw Error(target.string() + " is not a directory (a symbolic link appeared there, or a file): ScaleLab does "
                        "not follow it; remove it");
        throw Error("cannot open directory " + target.string() + ": " + strerror(errno));
    }
    struct stat st {};
    std::string problem;
    if (fstat(fd, &st) != 0) problem = "cannot inspect directory " + target.string() + ": " + strerror(errno);
    else if (!made && st.st_uid != geteuid() && (!owner || st.st_uid != owner->uid))
        problem = target.string() + " exists and belongs to uid " + std::to_string(st.st_uid) +
                  ", neither to you nor to the server's user: ScaleLab does not take over a directory someone else "
                  "made; remove it, or choose another";
    else if (owner && st.st_uid != owner->uid && fchown(fd, owner->uid, owner->gid) != 0)
        problem = "cannot give " + target.string() + " to user '" + owner->name + "': " + strerror(errno);
    else if (fchmod(fd, static_cast<mode_t>(mode)) != 0)
        problem = "cannot set the permissions of " + target.string() + ": " + strerror(errno);
    close(fd);
    if (!problem.empty()) throw Error(problem);

    checkServerCanUse(target, owner);
}

void checkServerCanUse(const fs::path& dir, const std::optional<UserIdentity>& owner) {
    if (!owner) return;
    // Walk down from the root so the message names the first directory in the way.
    fs::path prefix;
    for (const auto& part : fs::absolute(dir)) {
        prefix /= part;
        if (!accessibleAs(*owner, prefix.string(), X_OK))
            throw Error("PostgreSQL runs as user '" + owner->name + "', who cannot enter " + prefix.string() +
                        " on the way to " + dir.string() +
                        ". Choose a directory every parent of which that user may traverse "
                        "(for example under /var/lib/scalelab or /tmp), or allow it with chmod o+x.");
    }
    if (!accessibleAs(*owner, dir.string(), R_OK | W_OK | X_OK))
        throw Error("PostgreSQL runs as user '" + owner->name + "', who cannot write to " + dir.string());
}

} // namespace scalelab
