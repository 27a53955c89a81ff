#pragma once
// `scalelab sweep`, `scalelab runs`: sweeps into experiment files, and what they hold.
#include <string>
#include <vector>

namespace scalelab::app {

struct SweepArgs {
    std::string plan;
    std::string output;
    bool resume = false;
    bool quiet = false;
};

int runSweepCommand(const SweepArgs& args);
int runRunsCommand(const std::string& experiment);

} // namespace scalelab::app
