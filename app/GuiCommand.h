#pragma once
// The desktop window (scalelab with no arguments), and rendering the scaling chart headless.
#include <string>

namespace scalelab::app {

struct GuiArgs {
    std::string open;         // an experiment to show
    std::string sweepPlan;    // run this plan through the window...
    std::string sweepOutput;  // ...into this experiment file
    std::string screenshots;  // then save a PNG of each page here and quit
};

int runGui(int argc, char** argv, const GuiArgs& args = {});

// The Results page's scaling chart of `experiment`, written without a display.
void renderChart(const std::string& experiment, const std::string& png, const std::string& svg, const std::string& metric,
                 int width, int height, int scale);

} // namespace scalelab::app
