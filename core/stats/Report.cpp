#include "stats/Report.h"
#include "stats/WaitReport.h"

#include "store/ExperimentOverview.h"

#include "stats/SeriesNames.h"
#include "util/Error.h"
#include "util/Format.h"

#include <algorithm>
#include <cstdio>

namespace scalelab {

std::string confidenceLabel(double confidence) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f%%", 100 * confidence);
    return buf;
}

namespace {

const PointWaits* waitsAt(const std::vector<PointWaits>& points, const std::string& series, int x) {
    for (const auto& p : points)
        if (p.series == series && p.clients == x) return &p;
    return nullptr;
}

// "Lock:transactionid 4.80 sessions (64%), Client:ClientRead 1.49 (20%)": a point's top events.
std::string topEvents(const PointWaits& p, double confidence, size_t top) {
    std::string out;
    auto events = pointWaitSummaries(p, confidence);
    for (size_t i = 0; i < events.size() && i < top; ++i)
        out += (i ? ", " : "") + events[i].event + " " + formatNumber("%.2f", events[i].sessions) + (i ? "" : " sessions") +
               " (" + formatNumber("%.0f", events[i].sharePct) + "%)";
    return out;
}

std::vector<std::string> whyLines(const StatsReport& r, const std::vector<RunRecord>& runs, const std::vector<std::string>& order) {
    std::vector<std::string> out;
    const ReportOptions& o = r.options;
    std::vector<PointWaits> waits = pointWaits(runs, order);
    if (r.verdict) {
        for (const auto& p : r.verdict->points) {
            if (p.call != PointCall::Higher && p.call != PointCall::Lower) continue;
            const std::string at = "at " + pointText(o.axis, p.clients);
            const PointWaits* a = waitsAt(waits, o.baseline, p.clients);
            const PointWaits* b = waitsAt(waits, o.candidate, p.clients);
            if (!a || !b || a->runs.empty() || b->runs.empty()) {
                out.push_back(at + ": no waits recorded on both sides to say why");
                continue;
            }
            WaitComparison c = compareWaits(*a, *b, o.confidence, o.paired);
            std::vector<std::string> said;
            for (const auto& ch : c.changes)
                if (std::string s = waitChangeSentence(c, ch, at); !s.empty() && said.size() < 2) said.push_back(s);
            if (said.empty())
                out.push_back(at + ": no wait event's time per transaction changed beyond run-to-run variation (" +
                              std::to_string(c.changes.size()) + " events judged; report --waits --compare shows them)");
            for (auto& s : said) out.push_back(std::move(s));
        }
    }
    // The knee: where a throughput curve stops scaling with clients.
    if (o.axis != PointAxis::Clients || !isThroughputMetric(o.metric)) return out;
    for (const auto& series : order) {
        if (r.compared() && series != o.baseline && series != o.candidate) continue;
        const SeriesPoint* first = nullptr;
        for (const auto& p : r.points) {
            if (p.series != series || p.clients <= 0) continue;
            if (!first) {
                first = &p;
                continue;
            }
            double perClient = p.summary.mean / p.clients, firstPerClient = first->summary.mean / first->clients;
            if (!(perClient < 0.5 * firstPerClient)) continue;
            const PointWaits* w = waitsAt(waits, series, p.clients);
            std::string head = series + " stops scaling at " + pointText(o.axis, p.clients) + " (" + runMetricName(o.metric) +
                               " per client below half of that at " + pointText(o.axis, first->clients) + ")";
            out.push_back(w && !w->runs.empty() ? head + ": its sessions wait most on " + topEvents(*w, o.confidence, 3)
                                                : head + ": no waits recorded there to say why");
            break;
        }
    }
    return out;
}

} // namespace

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
    r.why = whyLines(r, runs, order);
    return r;
}

} // namespace scalelab
