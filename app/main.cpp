// scalelab: the command-line entry point. Thin on purpose: it parses arguments and
// hands the work to core (headless subcommands) or ui.
#include "AboutInfo.h"
#include "CommandErrors.h"
#include "CommandLine.h"
#include "GuiCommand.h"
#include "LoadCommands.h"
#include "Completions.h"
#include "ManPages.h"
#include "ReportCommand.h"
#include "ServerCommand.h"
#include "SweepCommands.h"
#include "CheckCommand.h"
#include "TopologyCommand.h"

#include "server/PgBinaries.h"
#include "store/PgStore.h"
#include "topo/MachineSwitch.h"
#include "util/Error.h"
#include "util/Versions.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <sstream>

namespace {

using scalelab::app::kUsageError;

std::string versionText() {
    QString server;
    try {
        server = QString::fromStdString(scalelab::findPgBinaries().describe());
    } catch (const std::exception& e) {
        server = QStringLiteral("not found (see `scalelab server status`)");
    }
    return scalelab::ui::aboutText(server).toStdString();
}

// Before any command: put back what a ScaleLab that was killed (or crashed) left switched on
// this machine (SMT control, CPUs offline), and say so; and make Ctrl-C, SIGTERM and SIGHUP
// undo this process's own switches before it ends.
void undoAbandonedSwitches() {
    for (const auto& line : scalelab::recoverAbandonedSwitch()) std::cerr << "scalelab: " << line << "\n";
    scalelab::installMachineRestoreOnSignals();
}

} // namespace

int main(int argc, char** argv) {
    if (argc == 1) {  // no arguments: the desktop window
        undoAbandonedSwitches();
        return scalelab::app::runGui(argc, argv);
    }

    CLI::App app{"ScaleLab: database scaling experiments (load generation, sweeps, CPU placement, error bars)",
                 "scalelab"};
    bool showVersion = false;
    app.add_flag("--version", showVersion, "Print the versions of ScaleLab and its libraries");
    std::string manPagesDir;  // hidden: the build writes the manual pages with it (app/ManPages.h)
    app.add_option("--man-pages", manPagesDir, "Write the manual pages into this directory")->group("");
    std::string completionShell;  // hidden: the build writes the completion scripts with it (app/Completions.h)
    app.add_option("--completion", completionShell, "Print the completion script for bash or zsh")->group("");

    // Each command registers its options next to its handler (app/CommandLine.h); the order
    // here is the order of `scalelab --help`, the manual pages and the completions.
    scalelab::app::CommandLine line{app, {}, {}};
    const std::vector<scalelab::app::Command> commands = {
        scalelab::app::addServerCommand(line),    scalelab::app::addInitCommand(line),
        scalelab::app::addRunCommand(line),       scalelab::app::addCheckCommand(line),
        scalelab::app::addAgentCommand(line),
        scalelab::app::addTopologyCommand(line),  scalelab::app::addSweepCommand(line),
        scalelab::app::addRunsCommand(line),      scalelab::app::addNoteCommand(line),
        scalelab::app::addImportCommand(line),    scalelab::app::addExportCommand(line),
        scalelab::app::addReportCommand(line),    scalelab::app::addGuiCommand(line, argc, argv),
        scalelab::app::addExperimentsCommand(line),
    };

    // --store CONNINFO: the experiment names these commands take are experiments in that store.
    std::string store;
    for (auto* cmd : line.storeCommands)
        cmd->add_option("--store", store, "A PostgreSQL results store: the experiment named is one in it (docs/results-store.md)");

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // CLI11 quotes the arguments it did not expect: never a password from among them.
        std::ostringstream out, err;
        int rc = app.exit(e, out, err);
        std::cout << out.str();
        std::cerr << scalelab::terminalSafe(scalelab::redactPasswords(err.str()), true);
        return rc == 0 ? 0 : kUsageError;
    }
    if (!store.empty()) {
        try {
            for (std::string* name : line.experimentNames)
                if (!name->empty()) *name = scalelab::storeLocation(store, *name);
        } catch (const std::exception& e) {
            std::cerr << "scalelab: error: " << scalelab::terminalSafe(scalelab::redactPasswords(e.what()), true) << "\n";
            return kUsageError;
        }
    }

    if (!completionShell.empty()) {
        try {
            std::cout << scalelab::app::completionScript(app, completionShell);
        } catch (const std::exception& e) {
            std::cerr << "scalelab: error: " << e.what() << "\n";
            return kUsageError;
        }
        return 0;
    }
    if (!manPagesDir.empty()) {
        try {
            scalelab::app::writeManPages(app, manPagesDir, scalelab::scalelabVersion());
        } catch (const std::exception& e) {
            std::cerr << "scalelab: error: " << e.what() << "\n";
            return 1;
        }
        return 0;
    }
    undoAbandonedSwitches();
    if (showVersion) {
        std::cout << versionText();
        return 0;
    }
    for (const auto& command : commands)
        if (command.cli->parsed()) return command.run();
    std::cerr << app.help();
    return kUsageError;
}
