#pragma once
// What a sweep does with a cluster ScaleLab runs, wherever it runs: the embedded server on this
// machine (server/EmbeddedServer.h) or on a server host through ScaleLab's agent there
// (sweep/RemoteCluster.h, docs/hosts.md). One interface, so that starting, settings, crash
// recovery and the log follow one set of rules for both.
#include "server/ServerSettings.h"

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace scalelab {

struct ServerStatus {
    bool running = false;
    pid_t pid = 0;                       // the postmaster, in its own machine's process ids
    int port = 0;
    std::filesystem::path socketDir;
    std::string listenAddress;           // "" when unix socket only
};

class Cluster {
public:
    virtual ~Cluster() = default;
    enum class StartOutcome { Started, Reused };
    // initdb when the directory is missing or empty, then start, or reuse the postmaster
    // already serving this data directory.
    virtual StartOutcome start() = 0;
    // Fast shutdown, then immediate when that times out. False when it was not running.
    virtual bool stop() = 0;
    virtual ServerStatus status() const = 0;
    // Left running when this object goes (a server the user had running before).
    virtual void keepRunning() = 0;
    // How this machine's clients reach it (libpq conninfo, no password in it).
    virtual std::string connectionString(const std::string& database = {}) const = 0;
    virtual AppliedSettings applySettings(const std::vector<Setting>& settings) = 0;
    virtual AppliedSettings resetSettings(const std::vector<std::string>& names) = 0;
    // Alive and taking connections (not starting, recovering from a crash or shutting down).
    virtual bool acceptingConnections() const = 0;
    // The server log's size now, and its last lines since it had `offset` bytes.
    virtual std::uintmax_t logSize() const = 0;
    virtual std::vector<std::string> logLinesSince(std::uintmax_t offset, size_t maxLines = 20) const = 0;
    // "the embedded server in /var/lib/scalelab/cluster" or "... on db1": for messages.
    virtual std::string where() const = 0;
    // Whether it runs on this machine (its postmaster's pid can be placed and measured here).
    virtual bool local() const = 0;
};

} // namespace scalelab
