#pragma once
// Whom the PostgreSQL server runs as. initdb and postgres refuse to run as root,
// so when ScaleLab runs as root it hands them to the `postgres` system user and
// makes sure that user owns, and can reach, the directories they use.
#include "util/Subprocess.h"

#include <filesystem>
#include <optional>
#include <string>

namespace scalelab {

// The account to switch to: none when ScaleLab is not root, `accountName` when it is.
// Throws Error, naming the account and the fix, when root and the account does not exist.
std::optional<UserIdentity> serverUserFor(bool runningAsRoot, const std::string& accountName = "postgres");
std::optional<UserIdentity> serverUserForThisProcess();

// Looks an account up by name; empty when there is none.
std::optional<UserIdentity> lookupUser(const std::string& name);

// Creates `dir` (and parents) if missing, gives it to `owner` when set, and sets `mode`.
// Then checks, as below, that the owner can use it. Safe in /tmp: a symbolic link in a
// directory others can write is refused, as is an existing directory that belongs to neither
// this user nor `owner`; ownership and mode are set through a descriptor opened O_NOFOLLOW.
void prepareServerDirectory(const std::filesystem::path& dir, const std::optional<UserIdentity>& owner,
                            std::filesystem::perms mode);

// Verifies that `user` can reach `dir` (every parent traversable) and write in it.
// Throws Error naming the first directory that blocks the way. No-op without a user.
void checkServerCanUse(const std::filesystem::path& dir, const std::optional<UserIdentity>& user);

} // namespace scalelab
