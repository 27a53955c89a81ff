#pragma once
// The server a command talks to: a conninfo the user gave, or the embedded server
// (started, or reused when already running, and left running for the next command).
#include "server/EmbeddedServer.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace scalelab::app {

struct TargetArgs {
    std::string conninfo;                  // empty: the embedded server
    std::filesystem::path dataDir;         // embedded server's data directory (empty: default)
    std::optional<std::filesystem::path> pgBindir;
};

struct Target {
    std::string conninfo;
    std::unique_ptr<EmbeddedServer> embedded;  // null for a conninfo target
};

// Throws Error when the conninfo carries a password (use PGPASSFILE or PGPASSWORD instead)
// or the embedded server cannot start.
Target openTarget(const TargetArgs& args);

// -d VALUE as pgbench 17's -d/--dbname takes it: a connection string when it is one (it has an
// "=", or is a postgresql:// or postgres:// URI: libpq's own rule), else a database name.
std::string conninfoOf(const std::string& value);

} // namespace scalelab::app
