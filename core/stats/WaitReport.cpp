#include "stats/WaitReport.h"

#include "metrics/WaitSampler.h"
#include "stats/PointGrouping.h"
#include "util/Error.h"
#include "util/Format.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace scalelab {
namespace {

// A run's waits, or why it has none.
std::optional<RunWaits> waitsOf(const RunRecord& r, std::string& why) {
    auto system = r.detail.find("system");
    if (system == r.detail.end() || !system->is_object() || !system->contains("waits")) {
        why = "no waits recorded ($.diagnostics.waits was off, or the run is older than wait sampling)";
        return std::nullopt;
    }
    WaitProfile p;
    try {
        p = waitProfileFromJson((*system)["waits"]);
    } catch (const Error& e) {
        why = std::string("stored waits are damaged: ") + e.what();
        return std::nullopt;
    }
    if (!p.available()) {
        why = p.unavailable;
        return std::nullopt;
    }
    if (p.samples == 0) {
        why = "no samples";
        return std::nullopt;
    }
    if (r.transactions == 0 || !(r.measuredSeconds > 0)) {
        why = "no counted transactions to share the waits over";
        return std::nullopt;
    }
    RunWaits w;
    w.repetition = r.repetition;
    w.sourceName = p.source;
    w.source = p.source + " at " + formatNumber("%g", p.hz) + " Hz, " + std::to_string(p.samples) + " samples";
    const double samples = static_cast<double>(p.samples);
    for (const auto& [event, n] : p.byEvent()) {
        double sessions = static_cast<double>(n) / samples;
        w.sessions[event] = sessions;
        w.msPerTx[event] = sessions * r.measuredSeconds * 1000.0 / static_cast<double>(r.transactions);
    }
    for (const auto& c : p.counts)
        if (c.backend != kLoadBackends)
            w.others[c.backend + " " + waitEventName(c.type, c.event)] += static_cast<double>(c.count) / samples;
    return w;
}

// Every event any run of `points` waited on.
std::vector<std::string> waitEventsOf(std::initializer_list<const PointWaits*> points) {
    std::vector<std::string> out;
    for (const PointWaits* p : points)
        for (const auto& r : p->runs)
            for (const auto& [event, s] : r.sessions)
                if (std::find(out.begin(), out.end(), event) == out.end()) out.push_back(event);
    std::sort(out.begin(), out.end());
    return out;
}

double waitValueIn(const std::map<std::string, double>& m, const std::string& key) {
    auto it = m.find(key);
    return it == m.end() ? 0.0 : it->second;  // sampled and not seen: none of that wait
}

WaitSummary waitSummaryOf(const PointWaits& p, const std::string& event, double confidence) {
    WaitSummary s;
    s.event = event;
    double all = 0, mine = 0;
    std::vector<double> ms;
    for (const auto& r : p.runs) {
        mine += waitValueIn(r.sessions, event);
        for (const auto& [e, v] : r.sessions) all += v;
        ms.push_back(waitValueIn(r.msPerTx, event));
    }
    s.sessions = mine / static_cast<double>(p.runs.size());
    s.sharePct = all > 0 ? 100.0 * mine / all : 0;
    s.msPerTx = summarize(ms, confidence, "wait ms per transaction");
    if (s.msPerTx.ciLow && *s.msPerTx.ciLow < 0) {  // no wait is negative (as summarizePoints)
        s.msPerTx.ciLow = 0.0;
        s.msPerTx.ciLowClamped = true;
    }
    return s;
}

} // namespace

std::vector<PointWaits> pointWaits(const std::vector<RunRecord>& runs, const std::vector<std::string>& seriesOrder) {
    std::vector<PointWaits> points;
    for (const auto& r : runs) {
        if (!countsInStatistics(r)) continue;
        PointWaits& p = pointOf(points, r);
        std::string why;
        if (auto w = waitsOf(r, why)) {
            p.runs.push_back(std::move(*w));
        } else {
            ++p.runsWithout;
            if (std::find(p.why.begin(), p.why.end(), why) == p.why.end()) p.why.push_back(why);
        }
    }
    sortPoints(points, seriesOrder);
    return points;
}

std::vector<WaitSummary> pointWaitSummaries(const PointWaits& point, double confidence) {
    std::vector<WaitSummary> out;
    if (point.runs.empty()) return out;
    for (const auto& event : waitEventsOf({&point})) out.push_back(waitSummaryOf(point, event, confidence));
    std::sort(out.begin(), out.end(), [](const WaitSummary& x, const WaitSummary& y) {
        return x.sessions != y.sessions ? x.sessions > y.sessions : x.event < y.event;
    });
    return out;
}

std::vector<std::pair<std::string, double>> otherBackendWaits(const PointWaits& point) {
    std::map<std::string, double> sum;
    for (const auto& r : point.runs)
        for (const auto& [what, v] : r.others) sum[what] += v;
    std::vector<std::pair<std::string, double>> out;
    for (const auto& [what, v] : sum) out.emplace_back(what, v / static_cast<double>(point.runs.size()));
    std::sort(out.begin(), out.end(), [](const auto& x, const auto& y) { return x.second > y.second; });
    return out;
}

WaitComparison compareWaits(const PointWaits& a, const PointWaits& b, double confidence, bool paired) {
    for (const PointWaits* p : {&a, &b})
        if (p->runs.empty()) throw Error(p->series + " has no run with waits at this point");
    WaitComparison c;
    c.baseline = a.series;
    c.candidate = b.series;
    c.clients = a.clients;
    c.paired = paired;
    std::vector<std::string> events = waitEventsOf({&a, &b});
    auto sourcesOf = [](const PointWaits& p) {
        std::set<std::string> s;
        for (const auto& r : p.runs) s.insert(r.sourceName);
        return s;
    };
    if (std::set<std::string> sa = sourcesOf(a), sb = sourcesOf(b); sa != sb || sa.size() > 1) {
        auto names = [](const std::set<std::string>& s) {
            std::string out;
            for (const auto& n : s) out += (out.empty() ? "" : " and ") + n;
            return out;
        };
        c.note = "the two sides' waits come from different sources (" + a.series + ": " + names(sa) + "; " + b.series +
                 ": " + names(sb) + "), which count Client:ClientRead differently: it is left out of the comparison";
        events.erase(std::remove(events.begin(), events.end(), "Client:ClientRead"), events.end());
    }
    c.confidence = events.empty() ? confidence : 1.0 - (1.0 - confidence) / static_cast<double>(events.size());
    for (const auto& event : events) {
        WaitChange ch;
        ch.event = event;
        ch.a = waitSummaryOf(a, event, confidence);
        ch.b = waitSummaryOf(b, event, confidence);
        ch.comparison = compareRunMeasure(
            a.runs, b.runs, [&](const RunWaits& r) { return waitValueIn(r.msPerTx, event); }, c.confidence, paired);
        c.changes.push_back(std::move(ch));
    }
    // By the size of the change in time per transaction: what a transaction gained or lost.
    std::stable_sort(c.changes.begin(), c.changes.end(), [](const WaitChange& x, const WaitChange& y) {
        return std::fabs(x.comparison.difference) > std::fabs(y.comparison.difference);
    });
    return c;
}

std::string waitChangeSentence(const WaitComparison& c, const WaitChange& ch, const std::string& at) {
    const Comparison& k = ch.comparison;
    if (k.verdict != "distinguishable" || !k.diffLow || !k.diffHigh) return {};
    bool more = k.difference > 0;
    auto ms = [](double v) { return formatNumber(std::fabs(v) < 0.1 ? "%.3f" : "%.2f", std::fabs(v)); };
    // The interval of the change's size, in the direction said.
    double low = more ? *k.diffLow : -*k.diffHigh, high = more ? *k.diffHigh : -*k.diffLow;
    return c.candidate + " waits " + ms(k.difference) + " ms (" + formatNumber("%.3g", low) + " .. " +
           formatNumber("%.3g", high) + ") " + (more ? "more" : "less") + " per transaction on " + ch.event + " than " +
           c.baseline + " " + at;
}

} // namespace scalelab
