#include "server/ServerUser.h"

#include "util/Error.h"

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

void prepareServerDirectory(const fs::path& dir, const std::optional<UserIdentity>& owner, fs::perms mode) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw Error("cannot create directory " + dir.string() + ": " + ec.message());
    if (owner) {
        struct stat st {};
        if (stat(dir.c_str(), &st) != 0)
            throw Error("cannot inspect directory " + dir.string() + ": " + strerror(errno));
        if (st.st_uid != owner->uid && chown(dir.c_str(), owner->uid, owner->gid) != 0)
            throw Error("cannot give " + dir.string() + " to user '" + owner->name + "': " + strerror(errno));
    }
    fs::permissions(dir, mode, fs::perm_options::replace, ec);
    if (ec) throw Error("cannot set the permissions of " + dir.string() + ": " + ec.message());

    checkServerCanUse(dir, owner);
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
