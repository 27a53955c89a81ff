#pragma once
// The desktop window (scalelab with no arguments), and rendering the scaling chart headless.
#include <string>

namespace scalelab::app {

struct GuiArgs {
    std::string open;         // an experiment to show
    std::string sweepPlan;    // run this plan through the window...
    std::string sweepOutput;  // ...into this experiment file
    std::string screenshots;  // then save a PNG of each page here and quit
    std::string size;         // "WxH": the window's size (default: MainWindow::showAtFirstSize's)
    std::string metricsListen;  // --metrics-listen ADDR:PORT: a Prometheus endpoint for the window's sweeps
};

int runGui(int argc, char** argv, const GuiArgs& args = {});

struct Command;
struct CommandLine;
Command addGuiCommand(CommandLine& line, int argc, char** argv);  // its options

struct ExportArgs;
// The Results page's scaling chart (PNG, SVG) and the HTML report of an experiment, drawn as
// the arguments' view says, without a display.
void renderExports(const ExportArgs& args);

} // namespace scalelab::app
