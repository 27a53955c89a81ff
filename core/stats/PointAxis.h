#pragma once
// A point's x: the client count (every sweep) or the offered rate (a plan with a list of
// rates, docs/sweeps.md "Offered-load sweeps"). Points are keyed by (curve, x), and the
// statistics group runs by (series, clients): runsOnAxis gives them runs whose `series` is the
// curve and whose `clients` is the x, so every point computation works on either axis. On the
// rate axis a curve is a series at one client count, on the client axis a series at one rate;
// each is named by the series alone when there is only one such value.
#include "store/ExperimentStore.h"

#include <string>
#include <vector>

namespace scalelab {

enum class PointAxis { Clients, Rate };

PointAxis parsePointAxis(const std::string& name);  // "clients", "rate"; throws Error naming both
const char* pointAxisName(PointAxis axis);           // the id: options, CSV columns, JSON
const char* pointAxisTitle(PointAxis axis);          // a chart's axis: "clients", "offered rate (tps)"
std::string pointText(PointAxis axis, long long x);  // "8 clients", "1000 tps offered"
// "4..8 clients", "1000..4000 tps offered".
std::string pointRangeText(PointAxis axis, long long from, long long to);

// Rate when the runs have several offered rates and one client count; else clients.
PointAxis naturalAxis(const std::vector<RunRecord>& runs);

struct AxisRuns {
    std::vector<RunRecord> runs;      // copies: `series` is the curve, `clients` the x
    std::vector<std::string> curves;  // each series in order, then the other value ascending
};
// True when runsOnAxis gives the runs as they are: the client axis, one offered rate per series.
bool runsAsTheyAre(const std::vector<RunRecord>& runs, PointAxis axis);
// (On the client axis with one rate per series: the runs unchanged, `curves` the whole order,
// series without runs too, so a series keeps its place and colour.)

// The runs on `axis`. On the rate axis unthrottled runs have no x and are left out; throws
// Error when no run has an offered rate, or one has a rate that is not a whole number of tps.
AxisRuns runsOnAxis(const std::vector<RunRecord>& runs, const std::vector<std::string>& seriesOrder, PointAxis axis);

} // namespace scalelab
