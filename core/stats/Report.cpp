#include "stats/Report.h"
#include "stats/PointGrouping.h"
#include "stats/ProfileReport.h"
#include "stats/WaitReport.h"

#include "store/ExperimentOverview.h"

#include "stats/SeriesNames.h"
#include "util/Error.h"
#include "util/Format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace scalelab {

std::string confidenceLabel(double confidence) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f%%", 100 * confidence);
    return buf;
}

namespace {

const PointWaits* waitsAt(const std::vector<PointWaits>& points, const std::string& series, int x) {
    return findPoint(points, series, x);
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

// The point with a profile; null when there is none.
const PointProfile* profileAt(const std::vector<PointProfile>& points, const std::string& series, int x) {
    const PointProfile* p = findPoint(points, series, x);
    return p && !p->runs.empty() ? p : nullptr;
}

// "ExecScan 12.1 per 1,000 transactions (21%), hash_search 4.2 (7%)": a point's top functions.
std::string topFunctionsSaid(const PointProfile& p, size_t top) {
    std::string out;
    auto functions = topFunctions(p);
    for (size_t i = 0; i < functions.size() && i < top; ++i)
        out += (i ? ", " : "") + functions[i].function + " " + formatNumber("%.3g", functions[i].selfPerKTx) +
               (i ? "" : " CPU samples per 1,000 transactions") + " (" + formatNumber("%.0f", functions[i].selfSharePct) + "%)";
    return out;
}

// The client count where a series stops scaling: the measured count nearest its USL peak where
// the fit has one inside the counts measured, else the first count whose throughput per client
// is below half the first count's; none when neither.
std::optional<std::pair<int, std::string>> kneeOf(const StatsReport& r, const std::string& series) {
    const ReportOptions& o = r.options;
    std::vector<const SeriesPoint*> points;
    for (const auto& p : r.points)
        if (p.series == series && p.clients > 0) points.push_back(&p);
    if (points.size() < 2) return std::nullopt;
    for (const auto& row : r.usl) {
        if (row.series != series || !row.fit || !row.fit->peakClients) continue;
        double peak = *row.fit->peakClients;
        if (peak < points.front()->clients || peak > points.back()->clients) break;
        const SeriesPoint* nearest = points.front();
        for (const SeriesPoint* p : points)
            if (std::fabs(p->clients - peak) < std::fabs(nearest->clients - peak)) nearest = p;
        return std::make_pair(nearest->clients, "the USL peak, N* = " + formatNumber("%.3g", peak) + ", is nearest " +
                                                    pointText(o.axis, nearest->clients));
    }
    const SeriesPoint* first = points.front();
    for (const SeriesPoint* p : points) {
        double perClient = p->summary.mean / p->clients, firstPerClient = first->summary.mean / first->clients;
        if (perClient < 0.5 * firstPerClient)
            return std::make_pair(p->clients, std::string(runMetricName(o.metric)) + " per client below half of that at " +
                                                  pointText(o.axis, first->clients));
    }
    return std::nullopt;
}

std::vector<std::string> whyLines(const StatsReport& r, const std::vector<RunRecord>& runs, const std::vector<std::string>& order) {
    std::vector<std::string> out;
    const ReportOptions& o = r.options;
    std::vector<PointWaits> waits = pointWaits(runs, order);
    std::vector<PointProfile> profiles = pointProfiles(runs, order);
    if (r.verdict) {
        for (const auto& p : r.verdict->points) {
            if (p.call != PointCall::Higher && p.call != PointCall::Lower) continue;
            const std::string at = "at " + pointText(o.axis, p.clients);
            const PointWaits* a = waitsAt(waits, o.baseline, p.clients);
            const PointWaits* b = waitsAt(waits, o.candidate, p.clients);
            if (!a || !b || a->runs.empty() || b->runs.empty()) {
                out.push_back(at + ": no waits recorded on both sides to say why");
            } else {
                WaitComparison c = compareWaits(*a, *b, o.confidence, o.paired);
                std::vector<std::string> said;
                for (const auto& ch : c.changes)
                    if (std::string s = waitChangeSentence(c, ch, at); !s.empty() && said.size() < 2) said.push_back(s);
                if (said.empty())
                    out.push_back(at + ": no wait event's time per transaction changed beyond run-to-run variation (" +
                                  std::to_string(c.changes.size()) + " events judged; report --waits --compare shows them)");
                for (auto& s : said) out.push_back(std::move(s));
            }
            // The CPU side, where both sides were profiled (off by default: nothing said without).
            const PointProfile* pa = profileAt(profiles, o.baseline, p.clients);
            const PointProfile* pb = profileAt(profiles, o.candidate, p.clients);
            if (!pa || !pb) continue;
            ProfileComparison c = compareProfiles(*pa, *pb, o.confidence, o.paired);
            std::vector<std::string> said;
            for (const auto& ch : c.changes)
                if (std::string s = profileChangeSentence(c, ch, at); !s.empty() && said.size() < 2) said.push_back(s);
            if (said.empty())
                out.push_back(at + ": no function's CPU per transaction changed beyond run-to-run variation (" +
                              std::to_string(c.judged) + " functions judged; report --profile --compare shows them)");
            for (auto& s : said) out.push_back(std::move(s));
        }
    }
    // The knee: where a throughput curve stops scaling with clients.
    if (o.axis != PointAxis::Clients || !isThroughputMetric(o.metric)) return out;
    for (const auto& series : order) {
        if (r.compared() && series != o.baseline && series != o.candidate) continue;
        auto knee = kneeOf(r, series);
        if (!knee) continue;
        const std::string head = series + " stops scaling at " + pointText(o.axis, knee->first) + " (" + knee->second + ")";
        const PointWaits* w = waitsAt(waits, series, knee->first);
        out.push_back(w && !w->runs.empty() ? head + ": its sessions wait most on " + topEvents(*w, o.confidence, 3)
                                            : head + ": no waits recorded there to say why");
        if (const PointProfile* pr = profileAt(profiles, series, knee->first))
            out.push_back(series + " at " + pointText(o.axis, knee->first) + ": its server's CPU goes most to " +
                          topFunctionsSaid(*pr, 3));
    }
    return out;
}

std::vector<StatsReport::Diagnosis> diagnosesOf(const std::vector<RunRecord>& runs, const std::vector<std::string>& order,
                                                double confidence) {
    std::vector<StatsReport::Diagnosis> out;
    std::vector<PointWaits> waits = pointWaits(runs, order);
    std::vector<PointProfile> profiles = pointProfiles(runs, order);
    for (const auto& series : order) {
        StatsReport::Diagnosis d;
        d.series = series;
        for (const auto& w : waits)
            if (w.series == series && !w.runs.empty()) d.x = std::max(d.x, w.clients);
        for (const auto& p : profiles)
            if (p.series == series && !p.runs.empty()) d.x = std::max(d.x, p.clients);
        if (d.x == 0) continue;
        if (const PointWaits* w = waitsAt(waits, series, d.x); w && !w->runs.empty()) d.waits = topEvents(*w, confidence, 3);
        if (const PointProfile* p = profileAt(profiles, series, d.x)) d.cpu = topFunctionsSaid(*p, 3);
        out.push_back(std::move(d));
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
    r.diagnoses = diagnosesOf(runs, order, o.confidence);
    return r;
}

} // namespace scalelab
