#pragma once
// `scalelab report --statements`: each point's top statements and, with two series, the
// statements whose mean time changed, as console tables.
#include "stats/PointGrouping.h"
#include "stats/StatementReport.h"
#include "stats/PointAxis.h"
#include "store/StatementTexts.h"
#include "util/Error.h"

#include <string>
#include <vector>

namespace scalelab {

struct StatementTextOptions {
    int clients = 0;                  // the points at this x only (0: every point)
    PointAxis axis = PointAxis::Clients;  // what the points' x is (the runs were put on it: runsOnAxis)
    int top = 10;                     // statements per point (0: all)
    std::string baseline, candidate;  // both: the comparison instead of each point's top list
    bool paired = false;
    double confidence = 0.95;
};

// The series and x the options name are among `points` (a type with `series` and `clients`):
// Error naming the option otherwise. The statements', waits' and profiles' tables share it.
template <class Point>
void checkTableChoices(const std::vector<Point>& points, const StatementTextOptions& o) {
    for (const std::string* s : {&o.baseline, &o.candidate}) {
        bool found = false;
        for (const auto& p : points) found = found || p.series == *s;
        if (!s->empty() && !found) throw Error("--compare: no completed runs of a series '" + *s + "'");
    }
    bool atX = false;
    for (const auto& p : points) atX = atX || p.clients == o.clients;
    if (o.clients > 0 && !atX)
        throw Error("--clients " + std::to_string(o.clients) + ": the experiment has no completed run at " +
                    pointText(o.axis, o.clients));
}

// A report of per-point tables whose points hold their `runs` (--waits, --profile): `title`, then
// with a pair to compare the comparison at each x both series have (the heading of a side without
// runs instead, which says why), else each point's table. Throws as checkTableChoices.
template <class Point, class PointTable, class ComparisonTable, class Heading>
std::string pointTablesText(const std::vector<Point>& points, const StatementTextOptions& o, std::string title,
                            PointTable pointTable, ComparisonTable comparisonTable, Heading heading) {
    checkTableChoices(points, o);
    std::string out = std::move(title);
    if (points.empty()) return out + "  no completed runs\n";
    if (!o.baseline.empty()) {
        for (const auto& a : points) {
            if (a.series != o.baseline || (o.clients > 0 && a.clients != o.clients)) continue;
            const Point* b = findPoint(points, o.candidate, a.clients);
            if (!b) continue;
            out += "\n";
            if (a.runs.empty() || b->runs.empty()) out += heading(a.runs.empty() ? a : *b, o.axis);
            else comparisonTable(out, a, *b);
        }
        return out;
    }
    for (const auto& p : points) {
        if (o.clients > 0 && p.clients != o.clients) continue;
        out += "\n";
        pointTable(out, p, o);
    }
    return out;
}

// Throws Error for a series or client count the experiment does not have.
std::string statementsText(const std::vector<PointStatements>& points, const StatementTexts& texts,
                           const StatementTextOptions& options);

// A statement's text on one line (whitespace runs become one space), at most `width`
// characters ("..." at the end when cut); "(text not stored)" when the experiment lacks it.
std::string statementLine(const StatementTexts& texts, const std::string& queryId, size_t width);

} // namespace scalelab
