#include "models/ScalingData.h"
#include "bridge/ErrorText.h"

#include "stats/Usl.h"
#include "store/ExperimentOverview.h"
#include "util/Error.h"

#include <algorithm>
#include <cmath>

namespace scalelab::ui {
namespace {

// The bar's lower end was set to 0 from below it (issue 32.5): said in the tooltip.
bool clampedBar(ErrorBars bars, const PointSummary& s) {
    return (bars == ErrorBars::ConfidenceInterval && s.ciLowClamped) ||
           (bars == ErrorBars::StandardDeviation && s.n > 1 && s.mean - s.sd < 0);
}

} // namespace

QString errorBarsLabel(ErrorBars kind, double confidence) {
    switch (kind) {
    case ErrorBars::ConfidenceInterval: return QStringLiteral("%1% confidence interval of the mean").arg(100 * confidence, 0, 'g', 3);
    case ErrorBars::StandardDeviation: return QStringLiteral("mean \u00b1 1 standard deviation of the runs");
    case ErrorBars::MinMax: return QStringLiteral("min to max of the runs");
    }
    return {};
}

ErrorBars parseErrorBars(const std::string& name) {
    if (name == "ci") return ErrorBars::ConfidenceInterval;
    if (name == "sd") return ErrorBars::StandardDeviation;
    if (name == "minmax") return ErrorBars::MinMax;
    throw Error("unknown error-bar kind '" + name + "': ci (confidence interval of the mean), sd (standard deviation), "
                "minmax (min to max of the runs)");
}

QString ScalingView::describe() const {
    QString d = QString::fromLatin1(runMetricLabel(metric)) + QStringLiteral(", error bars: ") + errorBarsLabel(bars, confidence);
    QString x = QString::fromLatin1(pointAxisWords(axis));
    d += (logX ? QStringLiteral(", log2 %1 axis") : QStringLiteral(", linear %1 axis")).arg(x);
    if (usl) d += QStringLiteral(", USL fit");
    if (!series.isEmpty()) d += QStringLiteral(", series: ") + series.join(QStringLiteral(", "));
    return d;
}

std::vector<std::string> ScalingView::drawn(const std::vector<std::string>& order) const {
    std::vector<std::string> out;
    for (const auto& s : order)
        if (series.isEmpty() || series.contains(QString::fromStdString(s))) out.push_back(s);
    return out;
}

std::vector<RunRecord> ScalingView::runsDrawn(const std::vector<RunRecord>& runs) const {
    if (series.isEmpty()) return runs;
    std::vector<RunRecord> out;
    for (const auto& r : runs)
        if (series.contains(QString::fromStdString(r.series))) out.push_back(r);
    return out;
}

ViewRuns onViewAxis(const std::vector<RunRecord>& runs, const std::vector<std::string>& order, const ScalingView& view) {
    if (runsAsTheyAre(runs, view.axis)) return {runs, order, view};
    AxisRuns a = runsOnAxis(view.runsDrawn(runs), view.drawn(order), view.axis);
    ViewRuns out{std::move(a.runs), std::move(a.curves), view};
    out.view.series.clear();
    out.view.usl = view.usl && view.axis == PointAxis::Clients;
    return out;
}

QString xText(PointAxis axis, double x) { return QString::fromStdString(pointText(axis, std::llround(x))); }

ScalingData buildScalingData(const std::vector<RunRecord>& runs, const std::vector<std::string>& order, const ScalingView& view) {
    ScalingData d = buildScalingData(runs, order, view.metric, view.bars, view.confidence,
                                     view.usl && view.axis == PointAxis::Clients, view.axis);
    if (!view.series.isEmpty())
        d.series.erase(std::remove_if(d.series.begin(), d.series.end(),
                                      [&](const ScalingSeriesView& s) { return !view.series.contains(s.label); }),
                       d.series.end());
    return d;
}

int ScalingData::pointCount() const {
    int n = 0;
    for (const auto& s : series) n += static_cast<int>(s.points.size());
    return n;
}

ScalingData buildScalingData(const std::vector<RunRecord>& runs, const std::vector<std::string>& order, RunMetric metric,
                             ErrorBars bars, double confidence, bool withFit, PointAxis axis) {
    ScalingData d;
    d.axis = axis;
    d.metric = QString::fromLatin1(runMetricLabel(metric));
    // A machine's CPU is of one machine: the title says which (docs/hosts.md).
    if (metric == RunMetric::CpuBusy)
        if (std::string of = metricsMachinesOf(runs); !of.empty()) d.metric += QStringLiteral(" of ") + QString::fromStdString(of);
    d.unit = QString::fromUtf8(runMetricUnit(metric));
    d.errorBars = errorBarsLabel(bars, confidence);
    auto summaries = summarizePoints(pointRuns(runs, order, metric), confidence);
    for (size_t position = 0; position < order.size(); ++position) {
        const std::string& name = order[position];
        ScalingSeriesView s;
        s.label = QString::fromStdString(name);
        s.colorIndex = static_cast<int>(position);
        std::vector<ScalingPoint> fitInput;
        for (const auto& p : summaries) {
            if (p.series != name) continue;
            const PointSummary& sum = p.summary;
            ScalingPointView v;
            v.clients = p.clients;
            v.mean = sum.mean;
            v.n = sum.n;
            switch (bars) {
            case ErrorBars::ConfidenceInterval:
                v.low = sum.ciLow.value_or(sum.mean);
                v.high = sum.ciHigh.value_or(sum.mean);
                break;
            case ErrorBars::StandardDeviation:
                v.low = std::max(0.0, sum.mean - sum.sd);  // no metric is negative
                v.high = sum.mean + sum.sd;
                break;
            case ErrorBars::MinMax:
                v.low = sum.min;
                v.high = sum.max;
                break;
            }
            // One run has no spread: no interval is shown for it, only that there is none.
            v.tooltip = QStringLiteral("%1, %2\nn = %3, mean %4 %5\n").arg(s.label, xText(axis, p.clients)).arg(sum.n).arg(sum.mean, 0, 'f', 2).arg(d.unit) +
                        (sum.n < 2 ? QStringLiteral("one run: no error bar")
                                   : QStringLiteral("%1: %2 .. %3%4")
                                         .arg(d.errorBars)
                                         .arg(v.low, 0, 'f', 2)
                                         .arg(v.high, 0, 'f', 2)
                                         .arg(clampedBar(bars, sum) ? QStringLiteral(" (clamped at 0)") : QString()));
            s.points.append(v);
            fitInput.push_back({static_cast<double>(p.clients), sum.mean, sum.sd, sum.n});
        }
        if (s.points.isEmpty()) continue;
        if (withFit && isThroughputMetric(metric)) {
            try {
                UslFit f = fitUsl(fitInput);
                double maxN = fitInput.back().clients;
                for (int i = 0; i <= 200; ++i) {
                    double n = 1 + (maxN - 1) * i / 200.0;
                    s.fit.append(QPointF(n, f.predict(n)));
                }
                if (f.peakClients) s.peakClients = f.peakClients;
                s.fitText = QStringLiteral("USL: \u03bb %1, \u03c3 %2, \u03ba %3%4, R\u00b2 %5%6%7")
                                .arg(f.lambda, 0, 'f', 1)
                                .arg(f.sigma, 0, 'f', 4)
                                .arg(f.kappa, 0, 'g', 3)
                                .arg(f.kappaAboveZero ? QString() : QStringLiteral(" (not significantly > 0)"))
                                .arg(f.rSquared, 0, 'f', 3)
                                .arg(f.peakClients ? QStringLiteral(", N* %1%2")
                                                         .arg(*f.peakClients, 0, 'f', 1)
                                                         .arg(f.peakClientsSe ? QStringLiteral(" \u00b1 %1").arg(*f.peakClientsSe, 0, 'f', 1)
                                                                              : QString())
                                                   : QString())
                                .arg(f.converged ? QString() : QStringLiteral(" (did not converge)"));
            } catch (const std::exception& e) {
                s.fitText = QStringLiteral("no fit: %1").arg(errorText(e));
            }
        }
        d.series.append(s);
    }
    return d;
}

QList<MachineMarkerView> markerViews(const std::vector<MachineMarker>& markers) {
    QList<MachineMarkerView> out;
    for (const auto& m : markers) out.append({m.at, QString::fromStdString(m.label)});
    return out;
}

} // namespace scalelab::ui
