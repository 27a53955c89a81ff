#include "stats/PointAxis.h"

#include "util/Error.h"
#include "util/Format.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace scalelab {

PointAxis parsePointAxis(const std::string& name) {
    if (name == "clients") return PointAxis::Clients;
    if (name == "rate") return PointAxis::Rate;
    throw Error("unknown x axis '" + name + "' (axes: clients, rate)");
}

const char* pointAxisName(PointAxis axis) { return axis == PointAxis::Rate ? "rate" : "clients"; }

const char* pointAxisTitle(PointAxis axis) { return axis == PointAxis::Rate ? "offered rate (tps)" : "clients"; }

std::string pointText(PointAxis axis, long long x) {
    return axis == PointAxis::Rate ? offeredText(static_cast<double>(x)) : clientsText(x);
}

std::string pointRangeText(PointAxis axis, long long from, long long to) {
    return std::to_string(from) + ".." + pointText(axis, to);
}

PointAxis naturalAxis(const std::vector<RunRecord>& runs) {
    std::set<double> rates;
    std::set<int> clients;
    for (const auto& r : runs) rates.insert(offeredRateOf(r)), clients.insert(r.clients);
    return rates.size() > 1 && clients.size() == 1 ? PointAxis::Rate : PointAxis::Clients;
}

bool runsAsTheyAre(const std::vector<RunRecord>& runs, PointAxis axis) {
    if (axis != PointAxis::Clients) return false;
    std::map<std::string, double> rateOf;
    for (const auto& r : runs) {
        auto [it, added] = rateOf.emplace(r.series, offeredRateOf(r));
        if (!added && it->second != offeredRateOf(r)) return false;
    }
    return true;
}

namespace {

std::string rateName(double rate) { return rate > 0 ? offeredText(rate) : "unthrottled"; }

} // namespace

AxisRuns runsOnAxis(const std::vector<RunRecord>& runs, const std::vector<std::string>& order, PointAxis axis) {
    AxisRuns out;
    // The value that is not on the axis, per series: a curve for each when there are several.
    std::map<std::string, std::set<double>> other;
    for (const auto& r : runs) {
        double rate = offeredRateOf(r);
        if (axis == PointAxis::Rate) {
            if (rate <= 0) continue;
            if (rate != std::floor(rate) || rate > 1e9)
                throw Error("run " + std::to_string(r.id) + " offered " + formatNumber("%g", rate) +
                            " tps: the rate axis takes whole transactions per second");
            other[r.series].insert(r.clients);
        } else {
            other[r.series].insert(rate);
        }
    }
    if (axis == PointAxis::Rate && other.empty())
        throw Error("no run has an offered rate (-R, workload.rate): there is no rate axis to show");
    if (runsAsTheyAre(runs, axis)) {  // the runs as they are, the experiment's order kept whole
        out.runs = runs;
        out.curves = order;
        for (const auto& [name, values] : other)
            if (std::find(order.begin(), order.end(), name) == order.end()) out.curves.push_back(name);
        return out;
    }
    bool several = false;  // (here: on the client axis some series has several rates)
    for (const auto& [series, values] : other) several = several || values.size() > 1;
    auto curveOf = [&](const std::string& series, double value) {
        if (!several) return series;
        return series + ", " + (axis == PointAxis::Rate ? clientsText(static_cast<long long>(value)) : rateName(value));
    };
    for (const auto& r : runs) {
        double rate = offeredRateOf(r);
        if (axis == PointAxis::Rate && rate <= 0) continue;
        RunRecord copy = r;
        copy.series = curveOf(r.series, axis == PointAxis::Rate ? r.clients : rate);
        if (axis == PointAxis::Rate) copy.clients = static_cast<int>(std::min(rate, 2e9));
        out.runs.push_back(std::move(copy));
    }
    // Series in the experiment's order (those it does not name after them), each with its values ascending.
    std::vector<std::string> series = order;
    for (const auto& [name, values] : other)
        if (std::find(series.begin(), series.end(), name) == series.end()) series.push_back(name);
    for (const auto& s : series) {
        auto it = other.find(s);
        if (it == other.end()) continue;
        for (double v : it->second) out.curves.push_back(curveOf(s, v));
    }
    return out;
}

} // namespace scalelab
