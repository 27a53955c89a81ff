#include "ServerCommand.h"
#include "CommandErrors.h"
#include "CommandLine.h"

#include "server/EmbeddedServer.h"
#include "util/Error.h"

#include <iostream>
#include <memory>

namespace scalelab::app {
namespace {

void printStatus(const EmbeddedServer& server, const std::string& state) {
    std::cout << "server:   " << state << "\n"
              << "binaries: " << server.binaries().describe() << "\n"
              << "data:     " << server.dataDir().string() << "\n";
    ServerStatus st = server.status();
    if (!st.running) return;
    std::cout << "pid:      " << st.pid << "\n"
              << "port:     " << st.port << (st.listenAddress.empty() ? " (unix socket only)" : " (also TCP on " + st.listenAddress + ")") << "\n"
              << "socket:   " << st.socketDir.string() << "\n";
    if (!st.listenAddress.empty())
        std::cout << "tcp:      password authentication (scram-sha-256); the password is in " << server.passwordFile().string()
                  << " (yours only): PGPASSFILE=" << server.passwordFile().string() << " pgbench -h " << st.listenAddress
                  << " -p " << st.port << " -U postgres scalelab\n";
    std::cout
              << "log:      " << server.logFile().string() << "\n";
    for (const auto& s : server.alteredSettings()) std::cout << "setting:  " << s.name << " = " << s.value << "\n";
    std::cout << "conninfo: " << server.connectionString() << "\n";
}

} // namespace

int runServerCommand(const ServerArgs& args) {
    return runCommand([&] {
        // Parse settings first: a typo must not cost an initdb.
        std::vector<Setting> settings;
        for (const auto& text : args.settings) settings.push_back(parseSetting(text));

        ServerOptions options;
        options.dataDir = args.dataDir.empty() ? defaultDataDir() : args.dataDir;
        options.port = args.port;
        options.listenTcp = args.tcp;
        options.pgBindir = args.pgBindir;
        options.note = [](const std::string& line) { std::cerr << "scalelab: " << line << "\n"; };
        EmbeddedServer server(options);

        if (args.action == "start") {
            auto outcome = server.start();
            server.keepRunning();
            if (args.port > 0 && outcome == EmbeddedServer::StartOutcome::Reused && server.status().port != args.port)
                std::cerr << "scalelab: note: the running server keeps port " << server.status().port
                          << "; stop it first to move it to port " << args.port << "\n";
            if (args.tcp && outcome == EmbeddedServer::StartOutcome::Reused && server.status().listenAddress.empty())
                std::cerr << "scalelab: note: the running server listens on its unix socket only; stop it first "
                             "to add TCP\n";
            auto applied = server.applySettings(settings);
            for (const auto& name : applied.reloaded) std::cerr << "scalelab: applied " << name << " (reload)\n";
            for (const auto& name : applied.restartedFor) std::cerr << "scalelab: applied " << name << " (restart)\n";
            printStatus(server, outcome == EmbeddedServer::StartOutcome::Started ? "started" : "already running (reused)");
            return 0;
        }
        if (args.action == "stop") {
            bool wasRunning = server.stop();
            std::cout << (wasRunning ? "stopped the server in " : "no server was running in ")
                      << server.dataDir().string() << "\n";
            return 0;
        }
        // status
        bool running = server.status().running;
        if (args.conninfoOnly) {
            if (!running) throw Error("no server is running in " + server.dataDir().string());
            std::cout << server.connectionString() << "\n";
            return 0;
        }
        printStatus(server, running ? "running" : "stopped");
        return 0;
    });
}

namespace {
void addServerOptions(CLI::App* cmd, ServerArgs& args) {
    cmd->add_option("--data", args.dataDir, "Data directory of the cluster (default: ~/.local/share/scalelab/cluster; "
                                             "/var/lib/scalelab/cluster for root)");
    cmd->add_option("--pg-bindir", args.pgBindir, "Directory with initdb, pg_ctl and postgres (default: searched)");
}
} // namespace

Command addServerCommand(CommandLine& line) {
    auto server = std::make_shared<ServerArgs>();
    auto* serverCmd = line.app.add_subcommand("server", "Manage the embedded PostgreSQL server");
    serverCmd->require_subcommand(1);
    auto* start = serverCmd->add_subcommand("start", "Create the cluster if needed and start it (or reuse it if running)");
    addServerOptions(start, *server);
    start->add_option("--port", server->port, "Port (default: a free one)")->check(CLI::Range(1, 65535));
    start->add_flag("--tcp", server->tcp, "Also listen on 127.0.0.1, with the superuser's password (kept in DATA/scalelab.pgpass, 0600)");
    start->add_option("--set", server->settings, "Server setting name=value (repeatable), applied with ALTER SYSTEM");
    auto* stop = serverCmd->add_subcommand("stop", "Stop the server (fast shutdown, then immediate)");
    addServerOptions(stop, *server);
    auto* status = serverCmd->add_subcommand("status", "Print whether the server runs, and how to connect");
    addServerOptions(status, *server);
    status->add_flag("--conninfo", server->conninfoOnly, "Print only the connection string (exit 1 when stopped)");
    for (auto* cmd : {start, stop, status}) cmd->callback([server, cmd] { server->action = cmd->get_name(); });
    return {serverCmd, [server] { return runServerCommand(*server); }};
}

} // namespace scalelab::app
