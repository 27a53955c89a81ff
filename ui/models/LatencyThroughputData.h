#pragma once
// What the vs tps chart draws (the hockey stick): per series, each point's mean achieved tps (x)
// and mean latency percentile or other run metric (y), joined in the order of the points' x on their axis
// (offered rate or clients) and labelled with it; the points where runs fell below the offered
// rate (the knee) and where -L skipped transactions are marked. Computed by core/stats
// (LatencyThroughput); the chart draws only what is here.
#include "stats/LatencyThroughput.h"
#include "stats/PointAxis.h"

#include <QList>
#include <QString>

#include <string>
#include <vector>

namespace scalelab::ui {

struct LatencyThroughputPointView {
    double tps = 0, value = 0;
    int at = 0;               // the point's x on its axis: the label
    bool belowRate = false;   // some run of it fell below the offered rate
    bool skipping = false;    // some run of it skipped transactions (-L)
    QString tooltip;
};

struct LatencyThroughputCurve {
    QString label;
    int colorIndex = 0;
    QList<LatencyThroughputPointView> points;
};

struct LatencyThroughputData {
    QString yLabel;           // "p99 latency", "CPU busy"
    QString yUnit;            // "ms", "%"
    PointAxis axis = PointAxis::Clients;
    QList<LatencyThroughputCurve> curves;
    QString note;             // where each curve's knee and skips begin; or that none did
    int pointCount() const;
};

// `runs` on `axis` (onViewAxis), `shown` the curves drawn, in the order of `seriesOrder`.
LatencyThroughputData buildLatencyThroughputData(const std::vector<RunRecord>& runs, const std::vector<std::string>& seriesOrder,
                                                 const std::vector<std::string>& shown, const ThroughputY& y,
                                                 PointAxis axis);

} // namespace scalelab::ui
