#pragma once
// The Results page's Rounds chart: a latency percentile of each round (each run's own p99, say)
// as a box plot per series and client count, so the rounds' spread shows, not only how sure
// their mean is (core/stats/RoundSpread).
#include "stats/RoundSpread.h"

#include "stats/PointAxis.h"

#include <QList>
#include <QString>

#include <string>
#include <vector>

namespace scalelab::ui {

struct BoxPlotPoint {
    int clients = 0;
    BoxSummary box;
};

struct BoxPlotSeries {
    QString label;
    int colorIndex = 0;          // the series' place in the experiment: its colour everywhere
    QList<BoxPlotPoint> boxes;   // by client count, ascending; only counts with a run that has it
    int runsWithout = 0;
};

struct BoxPlotData {
    QString percentile;          // "p99"
    QList<int> clientCounts;     // the x axis: every count a shown series has a box at, ascending
    QList<BoxPlotSeries> series; // the shown series with at least one box
    QString note;                // rounds per box, and runs without the percentile
    PointAxis axis = PointAxis::Clients;  // what the client counts are (set by whoever put the runs on an axis)
};

// `shown`: the series drawn (the page's Series menu), in the experiment's order.
BoxPlotData buildBoxPlotData(const std::vector<RunRecord>& runs, const std::vector<std::string>& seriesOrder,
                             const std::vector<std::string>& shown, LatencyPercentile percentile);

} // namespace scalelab::ui
