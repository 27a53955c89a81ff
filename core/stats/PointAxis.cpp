#include "stats/PointAxis.h"

#include "util/Error.h"
#include "util/Format.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>

namespace scalelab {

namespace {

// Each axis's words, in one place: the id, a chart's axis title, "by ...", a table's column, the noun.
struct AxisWords {
    PointAxis axis;
    const char* name;
    const char* title;
    const char* words;
    const char* heading;
    const char* noun;
};
const AxisWords kAxisWords[] = {
    {PointAxis::Clients, "clients", "clients", "clients", "Clients", "client count"},
    {PointAxis::Rate, "rate", "offered rate (tps)", "offered rate", "Offered tps", "rate"},
    {PointAxis::Scale, "scale", "data scale", "data scale", "Scale", "scale"},
};

const AxisWords& wordsOf(PointAxis axis) {
    for (const auto& w : kAxisWords)
        if (w.axis == axis) return w;
    return kAxisWords[0];
}

} // namespace

PointAxis parsePointAxis(const std::string& name) {
    for (const auto& w : kAxisWords)
        if (name == w.name) return w.axis;
    throw Error("unknown x axis '" + name + "' (axes: clients, rate, scale)");
}

const char* pointAxisName(PointAxis axis) { return wordsOf(axis).name; }
const char* pointAxisTitle(PointAxis axis) { return wordsOf(axis).title; }
const char* pointAxisWords(PointAxis axis) { return wordsOf(axis).words; }
const char* pointAxisHeading(PointAxis axis) { return wordsOf(axis).heading; }
std::string pointNoun(PointAxis axis, bool plural) { return std::string(wordsOf(axis).noun) + (plural ? "s" : ""); }

std::string pointText(PointAxis axis, long long x) {
    switch (axis) {
    case PointAxis::Clients: return clientsText(x);
    case PointAxis::Rate: return offeredText(static_cast<double>(x));
    case PointAxis::Scale: return "scale " + std::to_string(x);
    }
    return "?";
}

std::string pointRangeText(PointAxis axis, long long from, long long to) {
    if (axis == PointAxis::Scale) return "scale " + std::to_string(from) + ".." + std::to_string(to);
    return std::to_string(from) + ".." + pointText(axis, to);
}

namespace {

constexpr std::array<PointAxis, 3> kAxes{PointAxis::Clients, PointAxis::Rate, PointAxis::Scale};

// The run's value on `axis`: 0 where it has none (unthrottled, no scale recorded).
double valueOn(const RunRecord& r, PointAxis axis) {
    switch (axis) {
    case PointAxis::Clients: return r.clients;
    case PointAxis::Rate: return offeredRateOf(r);
    case PointAxis::Scale: return static_cast<double>(dataScaleOf(r));
    }
    return 0;
}

// A value off the axis, in a curve's name: "8 clients", "unthrottled", "scale 100".
std::string offText(PointAxis axis, double v) {
    if (axis == PointAxis::Rate && v <= 0) return "unthrottled";
    if (axis == PointAxis::Scale && v <= 0) return "scale not recorded";
    return axis == PointAxis::Rate ? offeredText(v) : pointText(axis, std::llround(v));
}

// The axes other than `axis` on which some series' runs take more than one value.
std::vector<PointAxis> varyingOff(const std::vector<RunRecord>& runs, PointAxis axis) {
    std::vector<PointAxis> out;
    for (PointAxis other : kAxes) {
        if (other == axis) continue;
        std::map<std::string, std::set<double>> values;
        bool varies = false;
        for (const auto& r : runs) varies = (values[r.series].insert(valueOn(r, other)), varies || values[r.series].size() > 1);
        if (varies) out.push_back(other);
    }
    return out;
}

} // namespace

PointAxis naturalAxis(const std::vector<RunRecord>& runs) {
    std::map<PointAxis, std::set<double>> values;
    for (const auto& r : runs)
        for (PointAxis a : kAxes) values[a].insert(valueOn(r, a));
    bool oneClientCount = values[PointAxis::Clients].size() == 1;
    if (oneClientCount && values[PointAxis::Rate].size() == 1 && values[PointAxis::Scale].size() > 1) return PointAxis::Scale;
    if (oneClientCount && values[PointAxis::Rate].size() > 1) return PointAxis::Rate;
    return PointAxis::Clients;
}

bool runsAsTheyAre(const std::vector<RunRecord>& runs, PointAxis axis) {
    return axis == PointAxis::Clients && varyingOff(runs, axis).empty();
}

AxisRuns runsOnAxis(const std::vector<RunRecord>& runs, const std::vector<std::string>& order, PointAxis axis) {
    AxisRuns out;
    if (runsAsTheyAre(runs, axis)) {  // the runs as they are, the experiment's order kept whole
        out.runs = runs;
        out.curves = order;
        for (const auto& r : runs)
            if (std::find(out.curves.begin(), out.curves.end(), r.series) == out.curves.end()) out.curves.push_back(r.series);
        return out;
    }
    // The runs with an x on this axis: an unthrottled run has no rate, a run without a recorded
    // scale no scale.
    std::vector<RunRecord> placed;
    for (const auto& r : runs) {
        double x = valueOn(r, axis);
        if (x <= 0) continue;
        if (axis == PointAxis::Rate && (x != std::floor(x) || x > 1e9))
            throw Error("run " + std::to_string(r.id) + " offered " + formatNumber("%g", x) +
                        " tps: the rate axis takes whole transactions per second");
        placed.push_back(r);
    }
    if (placed.empty())
        throw Error(axis == PointAxis::Rate ? "no run has an offered rate (-R, workload.rate): there is no rate axis to show"
                                            : "no run has a recorded data scale: there is no scale axis to show");
    // A curve per series and each combination of the values that vary off the axis.
    std::vector<PointAxis> off = varyingOff(placed, axis);
    auto keyOf = [&](const RunRecord& r) {
        std::vector<double> key;
        for (PointAxis a : off) key.push_back(valueOn(r, a));
        return key;
    };
    auto curveOf = [&](const std::string& series, const std::vector<double>& key) {
        std::string name = series;
        for (size_t i = 0; i < off.size(); ++i) name += ", " + offText(off[i], key[i]);
        return name;
    };
    std::map<std::string, std::set<std::vector<double>>> keys;
    for (const auto& r : placed) {
        std::vector<double> key = keyOf(r);
        keys[r.series].insert(key);
        RunRecord copy = r;
        copy.series = curveOf(r.series, key);
        copy.clients = static_cast<int>(std::min(valueOn(r, axis), 2e9));
        out.runs.push_back(std::move(copy));
    }
    // Series in the experiment's order (those it does not name after them), each with its
    // values off the axis ascending.
    std::vector<std::string> series = order;
    for (const auto& [name, k] : keys)
        if (std::find(series.begin(), series.end(), name) == series.end()) series.push_back(name);
    for (const auto& s : series) {
        auto it = keys.find(s);
        if (it == keys.end()) continue;
        for (const auto& key : it->second) out.curves.push_back(curveOf(s, key));
    }
    return out;
}

} // namespace scalelab
