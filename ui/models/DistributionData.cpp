#include "models/DistributionData.h"

#include "stats/LatencyDistribution.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace scalelab::ui {
namespace {

QList<QPointF> curveOf(const LatencyHistogram& h) {
    QList<QPointF> points;
    for (const auto& [q, ms] : percentileSpectrum(h)) {
        if (q >= 1) {
            // The maximum, at the count's last resolvable rank: where the spectrum would end.
            double x = std::log10(static_cast<double>(h.count()));
            if (!points.isEmpty() && x > points.back().x()) points.append({x, ms});
            continue;
        }
        points.append({-std::log10(1 - q), ms});
    }
    return points;
}

} // namespace

QString ninesLabel(int nines) {
    if (nines <= 0) return QStringLiteral("p0");
    if (nines == 1) return QStringLiteral("p90");
    if (nines == 2) return QStringLiteral("p99");
    return QStringLiteral("p99.") + QString(nines - 2, QLatin1Char('9'));
}

DistributionData buildDistributionData(const std::vector<RunRecord>& runs, const std::vector<std::string>& seriesOrder,
                                       const std::vector<std::string>& shown, int clients) {
    DistributionData d;
    auto points = pointDistributions(runs, seriesOrder);
    auto isShown = [&](const std::string& s) { return std::find(shown.begin(), shown.end(), s) != shown.end(); };
    std::set<int> counts;
    for (const auto& p : points)
        if (isShown(p.series) && p.runs > 0) counts.insert(p.clients);
    for (int c : counts) d.clientCounts.append(c);
    if (counts.empty()) return d;
    d.clients = counts.count(clients) ? clients : *counts.rbegin();
    QStringList notes;
    for (const auto& p : points) {
        if (p.clients != d.clients || !isShown(p.series)) continue;
        DistributionCurve c;
        c.label = QString::fromStdString(p.series);
        c.colorIndex = static_cast<int>(std::find(seriesOrder.begin(), seriesOrder.end(), p.series) - seriesOrder.begin());
        c.runs = p.runs;
        c.runsWithout = p.runsWithout;
        c.transactions = p.merged.count();
        c.maxMs = static_cast<double>(p.merged.maxNs()) / 1e6;
        if (p.runs > 0) {
            c.merged = curveOf(p.merged);
            if (p.rounds.size() > 1)
                for (const auto& r : p.rounds) c.rounds.append(curveOf(r));
        }
        QString note = QStringLiteral("%1: %2 %3 merged, %4 transactions, max %5 ms")
                           .arg(c.label)
                           .arg(c.runs)
                           .arg(c.runs == 1 ? QStringLiteral("round") : QStringLiteral("rounds"))
                           .arg(c.transactions)
                           .arg(c.maxMs, 0, 'f', 3);
        if (p.runs == 0) note = QStringLiteral("%1: no run with a latency histogram").arg(c.label);
        if (c.runsWithout > 0) note += QStringLiteral(" (%1 older or imported %2 without a histogram left out)")
                                           .arg(c.runsWithout)
                                           .arg(c.runsWithout == 1 ? QStringLiteral("run") : QStringLiteral("runs"));
        notes << note;
        d.series.append(c);
    }
    d.note = notes.join(QLatin1Char('\n'));
    return d;
}

} // namespace scalelab::ui
