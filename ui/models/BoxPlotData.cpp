#include "models/BoxPlotData.h"

#include <QStringList>

#include <algorithm>
#include <set>

namespace scalelab::ui {

BoxPlotData buildBoxPlotData(const std::vector<RunRecord>& runs, const std::vector<std::string>& seriesOrder,
                             const std::vector<std::string>& shown, LatencyPercentile percentile) {
    BoxPlotData d;
    d.percentile = QString::fromLatin1(latencyPercentileName(percentile));
    auto isShown = [&](const std::string& s) { return std::find(shown.begin(), shown.end(), s) != shown.end(); };
    std::set<int> counts;
    int minRounds = 0, maxRounds = 0;
    QStringList without;
    for (const auto& p : percentileBoxes(runs, seriesOrder, percentile)) {
        if (!isShown(p.series)) continue;
        QString label = QString::fromStdString(p.series);
        if (d.series.isEmpty() || d.series.back().label != label) {
            BoxPlotSeries s;
            s.label = label;
            s.colorIndex = static_cast<int>(std::find(seriesOrder.begin(), seriesOrder.end(), p.series) - seriesOrder.begin());
            d.series.append(s);
        }
        BoxPlotSeries& s = d.series.back();
        s.runsWithout += p.runsWithout;
        if (!p.box) continue;
        s.boxes.append({p.clients, *p.box});
        counts.insert(p.clients);
        minRounds = minRounds == 0 ? p.box->n : std::min(minRounds, p.box->n);
        maxRounds = std::max(maxRounds, p.box->n);
    }
    d.series.erase(std::remove_if(d.series.begin(), d.series.end(), [&](const BoxPlotSeries& s) {
                       if (s.runsWithout > 0)
                           without << QStringLiteral("%1: %2 run(s) without a %3").arg(s.label).arg(s.runsWithout).arg(d.percentile);
                       return s.boxes.isEmpty();
                   }),
                   d.series.end());
    for (int c : counts) d.clientCounts.append(c);
    if (counts.empty()) {
        d.note = QStringLiteral("No counted run has a %1 latency.").arg(d.percentile);
        return d;
    }
    QString rounds = minRounds == maxRounds ? QString::number(minRounds) : QStringLiteral("%1 to %2").arg(minRounds).arg(maxRounds);
    d.note = QStringLiteral("Each box: the %1 of each round (run) at that point, %2 rounds a box: the middle half of the "
                            "rounds inside the box, the median across it, the whiskers to the least and greatest round.")
                 .arg(d.percentile, rounds);
    if (minRounds < 5)
        d.note += QStringLiteral(" With fewer than 5 rounds a box says little: its quartiles are those of a handful of runs.");
    if (!without.isEmpty()) d.note += QStringLiteral(" Left out: ") + without.join(QStringLiteral("; ")) + QLatin1Char('.');
    return d;
}

} // namespace scalelab::ui
