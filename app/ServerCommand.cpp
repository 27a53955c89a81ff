#include "ServerCommand.h"
#include "CommandErrors.h"

#include "server/EmbeddedServer.h"
#include "util/Error.h"

#include <iostream>

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

} // namespace scalelab::app
