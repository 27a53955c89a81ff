#include "models/RatioData.h"

#include "stats/ExperimentPoints.h"
#include "stats/SeriesNames.h"
#include "util/Error.h"

#include <algorithm>

namespace scalelab::ui {
namespace {

int positionOf(const std::vector<std::string>& order, const std::string& series, const std::string& what) {
    auto at = std::find(order.begin(), order.end(), series);
    if (at != order.end()) return static_cast<int>(at - order.begin());
    throw Error("--ratio: " + noSeriesNamed(series, "(" + what + ") in the experiment", order));
}

QString number(double v) { return QString::number(v, 'f', 3); }

} // namespace

ScalingData buildRatioData(const std::vector<RunRecord>& runs, const std::vector<std::string>& order, RunMetric metric,
                           double confidence, const RatioChoice& choice, PointAxis axis) {
    ScalingData d;
    d.axis = axis;
    d.metric = QString::fromLatin1(runMetricLabel(metric)) + QStringLiteral(" ratio");
    d.unit = choice.pairs.size() == 1 ? QString::fromStdString(choice.pairs[0].second + " / " + choice.pairs[0].first)
                                      : QStringLiteral("B / A");
    d.errorBars = QStringLiteral("%1% confidence interval of the ratio (%2)")
                      .arg(100 * confidence, 0, 'g', 3)
                      .arg(choice.paired ? QStringLiteral("paired by round") : QStringLiteral("Welch"));
    d.referenceY = 1.0;
    d.ratioScale = true;
    std::vector<PointRuns> points = pointRuns(runs, order, metric);
    for (const auto& [baseline, candidate] : choice.pairs) {
        positionOf(order, baseline, "the baseline");
        ScalingSeriesView s;
        s.label = QString::fromStdString(candidate + " / " + baseline);
        s.colorIndex = positionOf(order, candidate, "the series compared");
        for (const PointComparison& pc : compareSeries(points, baseline, candidate, choice.paired, confidence)) {
            const Comparison& c = pc.comparison;
            if (!(c.a.mean > 0) || !c.ratio) continue;  // no ratio to a zero (or missing) baseline
            ScalingPointView v;
            v.clients = pc.clients;
            v.mean = *c.ratio;
            v.n = std::min(c.a.n, c.b.n);
            // The interval of the % change, as a ratio; none when the runs cannot carry one.
            bool interval = c.percentLow && c.percentHigh;
            v.low = interval ? 1 + *c.percentLow / 100 : *c.ratio;
            v.high = interval ? 1 + *c.percentHigh / 100 : *c.ratio;
            v.tooltip = QStringLiteral("%1, %2\nratio %3").arg(s.label, xText(axis, pc.clients), number(*c.ratio)) +
                        (interval ? QStringLiteral(" [%1, %2]%3")
                                        .arg(number(v.low), number(v.high))
                                        .arg(changeIntervalBounded(*c.percentLow, *c.percentHigh)
                                                 ? QString()
                                                 : QStringLiteral(": ") + QLatin1String(kTooFewToBound))
                                  : QString()) +
                        QStringLiteral("\n%1 runs of %2, %3 of %4%5\n%6")
                            .arg(c.a.n)
                            .arg(QString::fromStdString(baseline))
                            .arg(c.b.n)
                            .arg(QString::fromStdString(candidate))
                            .arg(c.pValue ? QStringLiteral(", p = %1").arg(*c.pValue, 0, 'g', 3) : QString())
                            .arg(QString::fromStdString(c.verdict));
            s.points.append(v);
        }
        if (s.points.isEmpty())
            throw Error("--ratio " + baseline + " " + candidate + ": no client count has completed runs of both" +
                        (choice.paired ? " in the same round" : "") + " with " + runMetricName(metric));
        d.series.append(s);
    }
    return d;
}

} // namespace scalelab::ui
