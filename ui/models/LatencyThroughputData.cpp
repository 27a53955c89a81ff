#include "models/LatencyThroughputData.h"

#include <QStringList>

#include <algorithm>

namespace scalelab::ui {

int LatencyThroughputData::pointCount() const {
    int n = 0;
    for (const auto& c : curves) n += static_cast<int>(c.points.size());
    return n;
}

LatencyThroughputData buildLatencyThroughputData(const std::vector<RunRecord>& runs, const std::vector<std::string>& order,
                                                 const std::vector<std::string>& shown, const ThroughputY& y,
                                                 PointAxis axis) {
    LatencyThroughputData d;
    d.yLabel = QString::fromStdString(y.label());
    d.yUnit = QString::fromStdString(y.unit());
    d.axis = axis;
    auto isShown = [&](const std::string& s) { return std::find(shown.begin(), shown.end(), s) != shown.end(); };
    std::vector<LatencyThroughputPoint> drawn;
    for (const auto& p : againstThroughput(runs, order, y)) {
        if (!isShown(p.series)) continue;
        drawn.push_back(p);
        QString label = QString::fromStdString(p.series);
        if (d.curves.isEmpty() || d.curves.back().label != label) {
            LatencyThroughputCurve c;
            c.label = label;
            c.colorIndex = static_cast<int>(std::find(order.begin(), order.end(), p.series) - order.begin());
            d.curves.append(c);
        }
        LatencyThroughputPointView v;
        v.tps = p.tps;
        v.value = p.value;
        v.at = p.clients;
        v.belowRate = p.belowRate > 0;
        v.skipping = p.skipping > 0;
        v.tooltip = QStringLiteral("%1 at %2, %3 runs\nachieved %4 tps, %5 %6 %7")
                        .arg(label, QString::fromStdString(pointText(axis, p.clients)))
                        .arg(p.runs)
                        .arg(p.tps, 0, 'f', 1)
                        .arg(d.yLabel)
                        .arg(p.value, 0, 'f', 3)
                        .arg(d.yUnit);
        if (v.belowRate) v.tooltip += QStringLiteral("\n%1 of %2 runs below the offered rate").arg(p.belowRate).arg(p.runs);
        if (v.skipping) v.tooltip += QStringLiteral("\n%1 of %2 runs skipped transactions (-L)").arg(p.skipping).arg(p.runs);
        d.curves.back().points.append(v);
    }
    QStringList lines;
    for (const auto& line : kneeNotes(drawn, axis)) lines << QString::fromStdString(line);
    if (d.curves.isEmpty())
        d.note = QStringLiteral("No counted run of the series shown has a tps and a %1.").arg(d.yLabel);
    else
        d.note = QStringLiteral("Each point: the mean achieved tps and mean %1 of its runs, labelled with its %2. ")
                     .arg(d.yLabel, QString::fromStdString(pointNoun(axis, false))) +
                 (lines.isEmpty() ? QStringLiteral("No run fell below its offered rate or skipped transactions.")
                                  : QStringLiteral("Squares: below the offered rate (the knee); triangles: -L skipped "
                                                   "transactions. ") + lines.join(QStringLiteral("; ")) + QLatin1Char('.'));
    return d;
}

} // namespace scalelab::ui
