#pragma once
// Runs grouped into points (series, client count) for a per-point value of any kind: the
// latency distributions' and the statements' points find and order theirs the same way.
#include "stats/Compare.h"
#include "store/RunRecord.h"

#include <algorithm>
#include <string>
#include <vector>

namespace scalelab {

// The point of `run` in `points` (a type with `series` and `clients`), added at the end when new.
template <class Point>
Point& pointOf(std::vector<Point>& points, const RunRecord& run) {
    auto it = std::find_if(points.begin(), points.end(),
                           [&](const Point& p) { return p.series == run.series && p.clients == run.clients; });
    if (it != points.end()) return *it;
    Point& p = points.emplace_back();
    p.series = run.series;
    p.clients = run.clients;
    return p;
}

// The point of `series` at `x` in `points`; null when there is none.
template <class Point>
const Point* findPoint(const std::vector<Point>& points, const std::string& series, int x) {
    for (const auto& p : points)
        if (p.series == series && p.clients == x) return &p;
    return nullptr;
}

// Series in `order` (unknown ones last), then client counts ascending; stable.
template <class Point>
void sortPoints(std::vector<Point>& points, const std::vector<std::string>& order) {
    auto rank = [&](const std::string& s) { return std::find(order.begin(), order.end(), s) - order.begin(); };
    std::stable_sort(points.begin(), points.end(), [&](const Point& a, const Point& b) {
        return rank(a.series) != rank(b.series) ? rank(a.series) < rank(b.series) : a.clients < b.clients;
    });
}

// One measure of two points' runs compared, B against A (each run a type with `repetition`;
// `valueOf(run)` its value): paired by round (the rounds both sides have, in round order) or
// Welch, at `confidence`. Judged on the difference's interval alone, which agrees with the
// t-test; the % change's interval (a ratio to A's mean) says nothing where A's mean is 0 (a wait
// A never waited, a function A never ran) and called 0.95 -> 0.25 ms "borderline".
template <class Run, class ValueOf>
Comparison compareRunMeasure(const std::vector<Run>& a, const std::vector<Run>& b, ValueOf valueOf, double confidence,
                             bool paired) {
    std::vector<double> va, vb;
    if (paired) {
        for (const auto& x : a)
            for (const auto& y : b)
                if (x.repetition == y.repetition) va.push_back(valueOf(x)), vb.push_back(valueOf(y));
    } else {
        for (const auto& x : a) va.push_back(valueOf(x));
        for (const auto& y : b) vb.push_back(valueOf(y));
    }
    Comparison k = paired ? comparePaired(va, vb, confidence) : compareWelch(va, vb, confidence);
    if (k.diffLow && k.diffHigh)
        k.verdict = *k.diffLow > 0 || *k.diffHigh < 0 ? "distinguishable" : "within run-to-run variation";
    return k;
}

} // namespace scalelab
