#pragma once
// `scalelab sweep`, `scalelab runs`: sweeps into experiment files, and what they hold.
#include <optional>
#include <string>
#include <vector>

namespace scalelab::app {

struct SweepArgs {
    std::string plan;
    std::string output;
    bool resume = false;
    bool quiet = false;
    std::string metricsListen;  // --metrics-listen ADDR:PORT
};

int runSweepCommand(const SweepArgs& args);
// Lists the runs; first excludes/includes the runs with these ids (kept, but not in points).
int runRunsCommand(const std::string& experiment, const std::vector<long long>& exclude = {},
                   const std::vector<long long>& include = {});
// Without text: prints the experiment's note and the runs' notes (or run's). With text: sets it.
int runNoteCommand(const std::string& experiment, std::optional<long long> run, std::optional<std::string> text);

struct Command;
struct CommandLine;
// Their options.
Command addSweepCommand(CommandLine& line);
Command addRunsCommand(CommandLine& line);
Command addNoteCommand(CommandLine& line);

} // namespace scalelab::app
