#pragma once
// Shell completion from the command line's own definitions (CLI11), as the manual pages are:
// commands, options, the values of options with a fixed set (from their validators, or the few
// listed here whose values are a pattern: placements, metrics), and file arguments by kind
// (.json plans, .slab experiments). `scalelab --completion bash|zsh` prints the script; the build
// writes both and they are installed with the program.
#include <string>

namespace CLI {
class App;
}

namespace scalelab::app {

// "bash" or "zsh" (bash's through bashcompinit); throws Error for another shell.
std::string completionScript(const CLI::App& app, const std::string& shell);

} // namespace scalelab::app
