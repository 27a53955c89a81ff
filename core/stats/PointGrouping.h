#pragma once
// Runs grouped into points (series, client count) for a per-point value of any kind: the
// latency distributions' and the statements' points find and order theirs the same way.
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

// Series in `order` (unknown ones last), then client counts ascending; stable.
template <class Point>
void sortPoints(std::vector<Point>& points, const std::vector<std::string>& order) {
    auto rank = [&](const std::string& s) { return std::find(order.begin(), order.end(), s) - order.begin(); };
    std::stable_sort(points.begin(), points.end(), [&](const Point& a, const Point& b) {
        return rank(a.series) != rank(b.series) ? rank(a.series) < rank(b.series) : a.clients < b.clients;
    });
}

} // namespace scalelab
