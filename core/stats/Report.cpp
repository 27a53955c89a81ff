#include "stats/Report.h"

#include "store/ExperimentOverview.h"

#include "stats/SeriesNames.h"
#include "util/Error.h"

#include <algorithm>
#include <cstdio>

namespace scalelab {

std::string confidenceLabel(double confidence) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f%%", 100 * confidence);
    return buf;
}

StatsReport buildStatsReport(const std::vector<RunRecord>& allRuns, const std::vector<std::string>& seriesOrder,
                             const ReportOptions& o, const std::string& experiment) {
    if (o.axis != PointAxis::Clients && (o.usl || o.peak))
        throw Error(std::string("--usl and --peak describe scaling with clients; on the ") + pointAxisName(o.axis) +
                    " axis there is no such law or peak");
    AxisRuns onAxis = runsOnAxis(allRuns, seriesOrder, o.axis);
    const std::vector<RunRecord>& runs = onAxis.runs;
    const std::vector<std::string>& order = onAxis.curves;
    if (o.usl && !isThroughputMetric(o.metric))
        throw Error(std::string("--usl fits throughput (tps, logical_reads); ") + runMetricName(o.metric) +
                    " is not one, and the law does not describe it");
    if (!(o.detectPct > 0 && o.detectPct <= 1000))
        throw Error("the change to detect must be above 0% and at most 1000% (got " + std::to_string(o.detectPct) + ")");
    StatsReport r;
    r.options = o;
    auto points = pointRuns(runs, order, o.metric);
    if (points.empty()) throw Error(experiment + " has no completed runs with " + runMetricName(o.metric));
    r.points = summarizePoints(points, o.confidence);
    if (o.metric == RunMetric::CpuBusy) r.machines = metricsMachinesOf(runs);
    if (r.compared()) {
        for (const auto& name : {o.baseline, o.candidate})
            if (std::find(order.begin(), order.end(), name) == order.end())
                throw Error("--compare: " + noSeriesNamed(name, "in " + experiment, order));
        VerdictOptions vo;
        vo.confidence = o.confidence;
        vo.paired = o.paired;
        vo.changePct = o.detectPct;
        vo.equivalencePct = o.equivalencePct;
        vo.axis = o.axis;
        r.verdict = judgeCurve(points, runs, o.baseline, o.candidate, o.metric, vo);
    }
    if (o.usl) {
        for (const auto& series : order) {
            std::vector<ScalingPoint> sp;
            for (const auto& p : r.points)
                if (p.series == series)
                    sp.push_back({static_cast<double>(p.clients), p.summary.mean, p.summary.sd, p.summary.n});
            if (sp.empty()) continue;
            UslRow row{series, static_cast<int>(sp.size()), std::nullopt, {}};
            try {
                row.fit = fitUsl(sp, o.weighted);
            } catch (const Error& e) {
                row.error = e.what();
            }
            r.usl.push_back(std::move(row));
        }
    }
    if (o.peak) r.peaks = peakTable(r.points, o.peakBaseline);
    return r;
}

} // namespace scalelab
