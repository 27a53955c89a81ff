#pragma once
// `scalelab server start|stop|status`: the embedded PostgreSQL cluster from the shell.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace scalelab::app {

struct ServerArgs {
    std::string action;                    // start, stop, status
    std::filesystem::path dataDir;         // empty: defaultDataDir()
    int port = 0;
    bool tcp = false;
    std::vector<std::string> settings;     // "name=value"
    std::optional<std::filesystem::path> pgBindir;
    bool conninfoOnly = false;             // status --conninfo
};

// Returns the process exit code: 0 ok, 1 failure. Errors go to stderr.
int runServerCommand(const ServerArgs& args);

struct Command;
struct CommandLine;
// `scalelab server start|stop|status` and their options.
Command addServerCommand(CommandLine& line);

} // namespace scalelab::app
