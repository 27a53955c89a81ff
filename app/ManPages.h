#pragma once
// Manual pages from the command line's own definitions (CLI11): scalelab(1) and one page per
// subcommand (scalelab-sweep(1), scalelab-server-start(1)), so that a page cannot drift from the
// options the program takes. Written at build time by `scalelab --man-pages DIR` and installed
// with the program (docs/install.md).
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace scalelab::app {

// Writes (creating DIR) DIR/scalelab.1 and DIR/scalelab-SUB[-SUB].1 for every visible subcommand. Returns the
// files written; throws Error when one cannot be written.
std::vector<std::string> writeManPages(const CLI::App& app, const std::string& dir, const std::string& version);

} // namespace scalelab::app
