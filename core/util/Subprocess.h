#pragma once
// Runs an external program (initdb, pg_ctl, postgres) and collects its output.
// Optionally as another user: initdb and postgres refuse to run as root, so a root
// ScaleLab runs them as the `postgres` system user (see ServerUser.h).
#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace scalelab {

// The identity a child process switches to before exec. Resolved in the parent,
// because getpwnam and friends are not safe to call between fork and exec.
struct UserIdentity {
    std::string name;
    uid_t uid = 0;
    gid_t gid = 0;
    std::vector<gid_t> groups;
};

struct ProcessOptions {
    std::optional<UserIdentity> runAs;
    // Variables to set (or, with an empty optional value, remove) in the child's environment.
    std::vector<std::pair<std::string, std::optional<std::string>>> env;
    std::chrono::milliseconds timeout{std::chrono::seconds(120)};
    std::string workDir = "/";
    // Where the child's stderr goes instead of `output` (created or emptied; "" keeps it
    // interleaved): for a program whose stdout is data and whose stderr is warnings.
    std::string stderrFile;
};

struct ProcessResult {
    int exitCode = -1;   // -1 when killed by a signal
    int signal = 0;
    bool timedOut = false;
    std::string output;  // stdout and stderr interleaved (stdout alone with stderrFile)
    bool ok() const { return exitCode == 0 && !timedOut; }
};

// argv[0] must be an absolute path. Throws Error only when the process cannot be
// started at all; a program that fails is reported through the result.
ProcessResult runProcess(const std::vector<std::string>& argv, const ProcessOptions& options = {});

// Replaces the content of an existing file, as `user` when given (a forked child that switched
// to it) and never through a symlink: how root rewrites a file in a directory the postgres
// account owns, which that account could have replaced with a link to /etc/shadow.
void rewriteFileAs(const std::optional<UserIdentity>& user, const std::string& path, const std::string& text);

// Renders argv as a shell would need it typed, for messages.
std::string shellQuote(const std::vector<std::string>& argv);
std::string shellQuote(const std::string& word);

// access(path, mode) evaluated by a forked child that has switched to `user`.
// Answers "can the postgres user reach this directory?" with the kernel's own
// permission rules (groups, ACLs) instead of re-implementing them.
bool accessibleAs(const UserIdentity& user, const std::string& path, int mode);

} // namespace scalelab
