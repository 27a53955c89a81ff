// scalelab: the command-line entry point. Thin on purpose: it parses arguments and
// hands the work to core (headless subcommands) or ui.
#include "AboutInfo.h"
#include "ServerCommand.h"

#include "server/PgBinaries.h"
#include "util/Error.h"

#include <CLI/CLI.hpp>

#include <iostream>

namespace {

constexpr int kUsageError = 2;

std::string versionText() {
    QString server;
    try {
        server = QString::fromStdString(scalelab::findPgBinaries().describe());
    } catch (const std::exception& e) {
        server = QStringLiteral("not found (see `scalelab server status`)");
    }
    return scalelab::ui::aboutText(server).toStdString();
}

void addServerOptions(CLI::App* cmd, scalelab::app::ServerArgs& args) {
    cmd->add_option("--data", args.dataDir, "Data directory of the cluster (default: ~/.local/share/scalelab/cluster; "
                                             "/var/lib/scalelab/cluster for root)");
    cmd->add_option("--pg-bindir", args.pgBindir, "Directory with initdb, pg_ctl and postgres (default: searched)");
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"ScaleLab: database scaling experiments (load generation, sweeps, CPU placement, error bars)",
                 "scalelab"};
    bool showVersion = false;
    app.add_flag("--version", showVersion, "Print the versions of ScaleLab and its libraries");

    scalelab::app::ServerArgs server;
    auto* serverCmd = app.add_subcommand("server", "Manage the embedded PostgreSQL server");
    serverCmd->require_subcommand(1);
    auto* start = serverCmd->add_subcommand("start", "Create the cluster if needed and start it (or reuse it if running)");
    addServerOptions(start, server);
    start->add_option("--port", server.port, "Port (default: a free one)")->check(CLI::Range(1, 65535));
    start->add_flag("--tcp", server.tcp, "Also listen on 127.0.0.1 (trust authentication: any local user can connect)");
    start->add_option("--set", server.settings, "Server setting name=value (repeatable), applied with ALTER SYSTEM");
    auto* stop = serverCmd->add_subcommand("stop", "Stop the server (fast shutdown, then immediate)");
    addServerOptions(stop, server);
    auto* status = serverCmd->add_subcommand("status", "Print whether the server runs, and how to connect");
    addServerOptions(status, server);
    status->add_flag("--conninfo", server.conninfoOnly, "Print only the connection string (exit 1 when stopped)");

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        int rc = app.exit(e);
        return rc == 0 ? 0 : kUsageError;
    }

    if (showVersion) {
        std::cout << versionText();
        return 0;
    }
    for (auto* cmd : {start, stop, status}) {
        if (cmd->parsed()) {
            server.action = cmd->get_name();
            return scalelab::app::runServerCommand(server);
        }
    }
    // No subcommand. Until the desktop window lands, a first run gets the embedded
    // server started and its connection string: a real database to point at.
    server.action = "start";
    return scalelab::app::runServerCommand(server);
}
