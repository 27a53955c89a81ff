#pragma once
// What a data directory holds before ScaleLab touches it, and what a running
// postmaster wrote into it (postmaster.pid).
#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace scalelab {

struct DataDirState {
    enum class Kind { Missing, Empty, Cluster, NotACluster };
    Kind kind = Kind::Missing;
    int major = 0;  // PG_VERSION of a cluster
};

DataDirState inspectDataDir(const std::filesystem::path& dir);

// Throws Error when `dir` cannot hold a cluster for `binariesMajor`: a non-empty
// directory that is not a cluster, or a cluster of another major version.
void checkDataDirUsable(const std::filesystem::path& dir, const DataDirState& state, int binariesMajor);

// pg_ctl starts postgres through `/bin/sh -c`, with the data directory, the log file and its own
// directory inside double quotes, where $(...), backquotes, $VAR and \ still act (issue 60.3:
// a data directory named DIR`id>FILE` ran id as postgres). Throws Error naming `what`, the path
// and the character when `path` holds ", $, `, \ or a control character; a path without them
// reaches the shell as it is.
void refuseShellCharacters(const std::filesystem::path& path, const std::string& what);

// The lines of postmaster.pid (see PostgreSQL's miscadmin.h, LOCK_FILE_LINE_*).
struct PostmasterPid {
    pid_t pid = 0;
    std::filesystem::path dataDir;
    long startTime = 0;
    int port = 0;
    std::filesystem::path socketDir;   // first entry of unix_socket_directories
    std::string listenAddress;
    std::string status;                // "ready", "starting", "stopping", "standby"; may be empty
};

// Parses the text of a postmaster.pid; nullopt when it is too short to be one.
std::optional<PostmasterPid> parsePostmasterPid(const std::string& text);
std::optional<PostmasterPid> readPostmasterPid(const std::filesystem::path& dataDir);

// True when `pid` names a live process (of any owner). A zombie is not alive: after a
// kill -9 the postmaster stays a zombie until its parent (often init) reaps it.
bool processAlive(pid_t pid);

// True when `pid` is a live process whose command name is postgres (or postmaster), so a
// postmaster.pid whose pid was reused by another program does not pass for a server.
bool isLivePostgres(pid_t pid);

// Live processes whose working directory is `dataDir`: every postgres process chdirs into
// its data directory, so this finds a cluster's backends even after their postmaster died.
std::vector<pid_t> processesWorkingIn(const std::filesystem::path& dataDir);

// Removes postmaster.pid (and socket lock files in `socketDir`) left by a postmaster that
// is gone, once no process of the old cluster works in the data directory any more.
// PostgreSQL clears such files itself unless the dead postmaster is a zombie that nobody
// has reaped (kill(pid, 0) still succeeds), as happens under a container's init.
// Waits up to `wait` for orphaned backends to exit; throws Error when they do not.
void clearStaleLocks(const std::filesystem::path& dataDir, const std::filesystem::path& socketDir,
                     std::chrono::milliseconds wait);

} // namespace scalelab
