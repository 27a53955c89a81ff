#pragma once
// How a subcommand joins `scalelab`'s command line: each command file registers its options
// next to its handler (an add...Command function), and main.cpp only lists the commands in
// order and runs the one parsed. The manual pages and completions are written from the same
// registrations (app/ManPages.h, app/Completions.h).
#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace scalelab::app {

// One subcommand: its parser, and what runs it once the line is parsed, --store applied and
// abandoned machine switches undone. Returns the process exit status.
struct Command {
    CLI::App* cli = nullptr;
    std::function<int()> run;
};

// The command line being built.
struct CommandLine {
    CLI::App& app;
    // Experiment names that --store turns into locations in that store, and the commands that
    // take --store.
    std::vector<std::string*> experimentNames;
    std::vector<CLI::App*> storeCommands;

    // `cmd` takes --store, and these of its arguments name experiments in it.
    void takesStore(CLI::App* cmd, std::vector<std::string*> names) {
        storeCommands.push_back(cmd);
        experimentNames.insert(experimentNames.end(), names.begin(), names.end());
    }
};

// Option texts several commands share.
extern const char* const kExperimentHelp;
extern const char* const kMetricsListenHelp;
// An experiment another option names: an existing file, or a results store location (checked
// when it is opened).
const CLI::Validator& experimentCheck();

} // namespace scalelab::app
