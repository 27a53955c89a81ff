#pragma once
// `scalelab report --statements`: each point's top statements and, with two series, the
// statements whose mean time changed, as console tables.
#include "stats/StatementReport.h"
#include "stats/PointAxis.h"
#include "store/StatementTexts.h"

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

// Throws Error for a series or client count the experiment does not have.
std::string statementsText(const std::vector<PointStatements>& points, const StatementTexts& texts,
                           const StatementTextOptions& options);

// A statement's text on one line (whitespace runs become one space), at most `width`
// characters ("..." at the end when cut); "(text not stored)" when the experiment lacks it.
std::string statementLine(const StatementTexts& texts, const std::string& queryId, size_t width);

} // namespace scalelab
