#pragma once
// The Results page's latency distribution: at one client count, each series' percentile
// spectrum (latency against "nines": 1 = p90, 2 = p99, 3 = p99.9 ...), its rounds' histograms
// merged exactly, with each round's own curve for their spread (core/stats/LatencyDistribution).
#include "store/ExperimentStore.h"

#include "stats/PointAxis.h"

#include <QList>
#include <QPointF>
#include <QString>

#include <string>
#include <vector>

namespace scalelab::ui {

struct DistributionCurve {
    QString label;
    int colorIndex = 0;            // the series' place in the experiment: its colour everywhere
    QList<QPointF> merged;         // x: nines, -log10(1 - q); y: ms
    QList<QList<QPointF>> rounds;  // each counted run's own curve
    int runs = 0, runsWithout = 0;
    quint64 transactions = 0;
    double maxMs = 0;
};

struct DistributionData {
    int clients = 0;            // the client count shown; 0 when no run has a histogram
    QList<int> clientCounts;    // those with a histogram in some shown series, ascending
    QList<DistributionCurve> series;
    QString note;               // rounds, transactions and runs without a histogram, per series
    PointAxis axis = PointAxis::Clients;  // what `clients` is (set by whoever put the runs on an axis)
};

// `clients`: the count to show; one without histograms (or 0) shows the highest that has them.
// `shown`: the series drawn (the page's Series menu), in the experiment's order.
DistributionData buildDistributionData(const std::vector<RunRecord>& runs, const std::vector<std::string>& seriesOrder,
                                       const std::vector<std::string>& shown, int clients);
// The x axis's labels: "p0", "p90", "p99", "p99.9" for 0 to 3 nines.
QString ninesLabel(int nines);

} // namespace scalelab::ui
