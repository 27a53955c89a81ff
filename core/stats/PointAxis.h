#pragma once
// A point's x: the client count (every sweep), the offered rate (a plan with a list of rates,
// docs/sweeps.md "Offered-load sweeps") or the data scale (a list of scales, "Data-size sweeps"). Points are keyed by (curve, x), and the
// statistics group runs by (series, clients): runsOnAxis gives them runs whose `series` is the
// curve and whose `clients` is the x, so every point computation works on any axis. A curve is a
// series at one value of each of the other two; it is named by the series alone when no series
// has more than one.
#include "store/RunRecord.h"

#include <string>
#include <vector>

namespace scalelab {

enum class PointAxis { Clients, Rate, Scale };

PointAxis parsePointAxis(const std::string& name);  // "clients", "rate", "scale"; throws Error naming them
const char* pointAxisName(PointAxis axis);           // the id: options, CSV columns, JSON
const char* pointAxisTitle(PointAxis axis);          // a chart's axis: "clients", "offered rate (tps)", "data scale"
std::string pointText(PointAxis axis, long long x);  // "8 clients", "1000 tps offered", "scale 100"
const char* pointAxisWords(PointAxis axis);          // "by ...": "clients", "offered rate", "data scale"
const char* pointAxisHeading(PointAxis axis);        // a table's column: "Clients", "Offered tps", "Scale"
// "client count" ("client counts"), "rate" ("rates"), "scale" ("scales").
std::string pointNoun(PointAxis axis, bool plural);
// "4..8 clients", "1000..4000 tps offered", "scale 1..100".
std::string pointRangeText(PointAxis axis, long long from, long long to);

// Scale when the runs have several data scales at one client count and rate; rate when they
// have several offered rates at one client count; else clients.
PointAxis naturalAxis(const std::vector<RunRecord>& runs);

struct AxisRuns {
    std::vector<RunRecord> runs;      // copies: `series` is the curve, `clients` the x
    std::vector<std::string> curves;  // each series in order, then the other value ascending
};
// True when runsOnAxis gives the runs as they are: the client axis, one offered rate and one
// data scale per series.
bool runsAsTheyAre(const std::vector<RunRecord>& runs, PointAxis axis);
// (On the client axis with one rate per series: the runs unchanged, `curves` the whole order,
// series without runs too, so a series keeps its place and colour.)

// The runs on `axis`, a curve per series and each combination of the values off the axis that
// vary (client count, rate, scale: "A, 8 clients, scale 100"). On the rate axis unthrottled runs
// have no x and are left out, on the scale axis runs without a recorded scale; throws Error when
// no run has an x there, or one has a rate that is not a whole number of tps.
AxisRuns runsOnAxis(const std::vector<RunRecord>& runs, const std::vector<std::string>& seriesOrder, PointAxis axis);

} // namespace scalelab
