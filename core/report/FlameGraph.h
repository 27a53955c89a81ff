#pragma once
// Flame graphs of folded stacks (issue 62): the layout (each frame's place as a share of the
// whole, shared by the SVG here and the window's CPU profile tab), and the SVG with its own
// search and click-to-zoom, as FlameGraph's flamegraph.pl draws them: the outermost frame at the
// bottom, callees above their caller, siblings in name order, widths by value.
//
// A differential graph has the shape of B (the candidate) and each frame's colour says how its
// value (with its callees) changed against A: red where B spends more, blue where less, white
// where the same, deeper by the square root of the change's share of the largest change of any
// function (the root and the process kinds, which hold every change, left out of that largest).
// Code A ran that B never did has no width in B's shape: it is in the table of changes instead.
// Values are samples per 1,000 transactions, so that more throughput never looks like more cost.
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace scalelab {

struct FlameFrame {
    std::string name;
    int depth = 0;              // 0: the root ("all")
    double x = 0, width = 0;    // share of the whole, 0..1
    double value = 0;           // with its callees
    double self = 0;            // in the frame itself
    std::optional<double> delta;  // differential: value in B minus value in A
};

struct FlameLayout {
    std::vector<FlameFrame> frames;  // parents before children
    double total = 0;
    int depth = 0;                   // the deepest frame's
    bool differential = false;
    double maxAbsDelta = 0;
};

// `stacks`: "a;b;c" -> value. Frames narrower than `minShare` of the whole (0.1%: about a pixel
// of a 1,200 px graph) are left out, their value kept in their parent's width: a thin tower of
// deep kernel frames would otherwise make the graph twice as tall for nothing to read.
FlameLayout layoutFlame(const std::map<std::string, double>& stacks, double minShare = 0.001);
// B's shape, coloured by B - A.
FlameLayout layoutFlameDiff(const std::map<std::string, double>& a, const std::map<std::string, double>& b,
                            double minShare = 0.001);

struct FlameSvgOptions {
    std::string title;
    std::string unit = "samples per 1,000 transactions";
    double samplesPerValue = 0;  // > 0: the tooltip also gives samples (value x this)
    int width = 1200;
};

std::string flameSvg(const FlameLayout& layout, const FlameSvgOptions& options);

// A frame's fill: FlameGraph's warm hues by name (kernel frames orange), or the differential's
// red/blue by the change against the largest; "rgb(r,g,b)".
std::string flameColour(const FlameFrame& f, const FlameLayout& layout);
struct FlameRgb {
    int r = 0, g = 0, b = 0;
};
FlameRgb flameRgb(const FlameFrame& f, const FlameLayout& layout);  // the same, as numbers (the window's)

} // namespace scalelab
