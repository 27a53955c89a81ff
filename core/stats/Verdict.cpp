#include "stats/Verdict.h"

#include "stats/RunCaveats.h"
#include "store/RunRecord.h"
#include "store/RunFlags.h"
#include "util/Error.h"

#include <algorithm>
#include "util/Format.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>

namespace scalelab {
namespace {

std::string format(const char* f, double v) { return formatNumber(f, v); }

// What the runs of one side at one client count say about themselves.
struct SideCaveats {
    int runs = 0, clientBound = 0, trending = 0, ioBound = 0;
    const char* trendOf = "tps";  // whose trend: tps, or NOPM for a comparison of NOPM
    double worstTrend = 0, iowait = 0, busy = 0;
};

SideCaveats sideCaveats(const std::vector<RunRecord>& runs, const std::string& series, int clients, RunMetric metric) {
    SideCaveats s;
    for (const auto& r : runs) {
        if (r.series != series || r.clients != clients || !countsInStatistics(r) || !metricOf(r, metric)) continue;
        ++s.runs;
        RunCaveats c = caveatsOf(r, metric == RunMetric::Nopm);
        if (c.clientBound) ++s.clientBound;
        if (c.trendPct) {
            ++s.trending;
            s.trendOf = c.trendOf;
            if (std::fabs(*c.trendPct) > std::fabs(s.worstTrend)) s.worstTrend = *c.trendPct;
        }
        if (c.iowaitPct && *c.iowaitPct > s.iowait) ++s.ioBound, s.iowait = *c.iowaitPct, s.busy = c.busyPct.value_or(0);
    }
    return s;
}

// Why a point is not judged (empty: it is), and notes that do not stop the judgement. A series
// is named after "of", never with "'s" ("all cores's" was printed, issue 61.13).
// The trend is of the runs' tps (or NOPM's own for a comparison of NOPM): latency and the other
// metrics have no interval series of their own, and a run whose throughput still moved did not
// measure a steady state of anything.
std::string notJudgedWhy(const std::string& name, const SideCaveats& s) {
    std::string why;
    auto of = [&](int k) { return " (" + std::to_string(k) + " of " + std::to_string(s.runs) + ")"; };
    if (s.clientBound)
        why = "the runs of " + name + " were client-bound" + of(s.clientBound) +
              ": the load generator's PUs were saturated, so the value understates the server";
    if (s.trending) {
        if (!why.empty()) why += "; ";
        why += std::string("the ") + s.trendOf + " of " + name + " was still trending within runs" + of(s.trending) + " (up to " +
               format("%+.0f%%", s.worstTrend) + " over a run): not a steady state";
    }
    return why;
}

// "from 16 clients up", "at 4..8 clients", "at every client count (1..64)".
// On the rate axis: "at every rate (1000..4000 tps offered)", "from 2000 tps offered up".
std::string rangeText(PointAxis axis, const std::vector<PointVerdict>& all, size_t first, size_t last) {
    int a = all[first].clients, b = all[last].clients;
    if (first == last) return "at " + pointText(axis, a);
    if (first == 0 && last + 1 == all.size())
        return axis == PointAxis::Clients ? "at every client count (" + std::to_string(a) + ".." + std::to_string(b) + ")"
                                          : "at every " + pointNoun(axis, false) + " (" + pointRangeText(axis, a, b) + ")";
    if (last + 1 == all.size()) return "from " + pointText(axis, a) + " up";
    if (first == 0) return "up to " + pointText(axis, b);
    return "at " + pointRangeText(axis, a, b);
}

std::string directionText(RunMetric metric, bool higher, const std::string& baseline) {
    if (metric == RunMetric::Tps || metric == RunMetric::Nopm || metric == RunMetric::Tpm) return std::string(higher ? "is faster than " : "is slower than ") + baseline;
    return std::string("has ") + (higher ? "higher " : "lower ") + runMetricName(metric) + " than " + baseline;
}

// "by 12.0% (8.1% .. 16.2%)", as magnitudes in the direction already said.
std::string byText(const std::vector<PointVerdict>& all, size_t first, size_t last, bool higher) {
    double sign = higher ? 1 : -1;
    double estLo = INFINITY, estHi = -INFINITY, lo = INFINITY, hi = -INFINITY;
    for (size_t i = first; i <= last; ++i) {
        const PointVerdict& p = all[i];
        if (!p.comparison.percentChange) continue;
        double e = sign * *p.comparison.percentChange;
        estLo = std::min(estLo, e), estHi = std::max(estHi, e);
        if (p.simultaneousLow) {
            double l = sign * *p.simultaneousLow, h = sign * *p.simultaneousHigh;
            lo = std::min({lo, l, h}), hi = std::max({hi, l, h});
        }
    }
    if (!std::isfinite(estLo)) return "";  // no baseline mean: no % change to give
    std::string lowEst = format("%.1f%%", estLo), highEst = format("%.1f%%", estHi);
    std::string est = lowEst == highEst ? lowEst : lowEst + " to " + highEst;
    if (!std::isfinite(lo)) return "by " + est;
    if (first == last) return "by " + est + " (" + format("%.1f%%", lo) + " .. " + format("%.1f%%", hi) + ")";
    return "by " + est + " (intervals from " + format("%.1f%%", lo) + " to " + format("%.1f%%", hi) + ")";
}

std::string adviceText(PointAxis axis, const std::vector<PointVerdict>& all, size_t first, size_t last) {
    // A side with one run: how many runs of that side would settle it.
    std::string single, side;
    for (size_t i = first; i <= last; ++i) {
        const PointVerdict& p = all[i];
        if (p.comparison.singleRunSide.empty()) continue;
        side = p.comparison.singleRunSide;
        single += std::string(single.empty() ? "" : ", ") +
                  (p.advice.runsForSingleSide ? std::to_string(*p.advice.runsForSingleSide) : "no feasible number") +
                  " at " + pointText(axis, p.clients);
    }
    if (!single.empty())
        return "; runs of the " + side + " (it has one) that would detect a " + format("%g%%", all[first].advice.changePct) +
               " change: " + single;
    const RunCountAdvice* most = nullptr;
    bool tooMany = false;
    double change = 0;
    for (size_t i = first; i <= last; ++i) {
        const RunCountAdvice& a = all[i].advice;
        change = a.changePct;
        if (a.runsForCurve && (!most || *a.runsForCurve > *most->runsForCurve)) most = &a;
        else if (!a.runsForCurve && a.powerNow) tooMany = true;
    }
    if (tooMany) return "; a " + format("%g%%", change) + " change there is too small to detect with a feasible number of runs";
    if (!most) return "";
    return "; to detect a " + format("%g%%", change) + " change there: " + std::to_string(*most->runsForCurve) +
           " runs per side (the interval then about +/-" + format("%.1f%%", *most->curveHalfWidthPct) + ")";
}

// "B is within +/-2% of A at every client count (1..64)", and where it is not shown.
void equivalenceSummary(CurveVerdict& v, double margin) {
    std::string within = format("+/-%g%%", margin);
    std::vector<std::pair<size_t, size_t>> same, notShown;
    for (size_t i = 0; i < v.points.size(); ++i) {
        if (!v.points[i].equivalent) continue;
        auto& ranges = *v.points[i].equivalent ? same : notShown;
        bool joins = !ranges.empty() && ranges.back().second + 1 == i;
        if (joins) ranges.back().second = i;
        else ranges.emplace_back(i, i);
    }
    for (const auto& [f, l] : same)
        v.summary.push_back(v.candidate + " is the same as " + v.baseline + " within " + within + " " +
                            rangeText(v.options.axis, v.points, f, l) + " (equivalence: the " + format("%.4g%%", 100 * *v.equivalenceLevel) +
                            " interval of the change lies inside the margin)");
    for (const auto& [f, l] : notShown) {
        std::string r = rangeText(v.options.axis, v.points, f, l);
        r[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(r[0])));
        v.summary.push_back(r + " not shown to be within " + within + " of " + v.baseline +
                            ": the change's interval reaches beyond the margin");
    }
    if (same.empty() && notShown.empty())
        v.summary.push_back("Equivalence within " + within + " cannot be judged: no " + pointNoun(v.options.axis, false) +
                            " has an interval of the change");
}

} // namespace

double parseMarginPct(const std::string& text, const std::string& option) {
    std::string t = text;
    if (!t.empty() && t.back() == '%') t.pop_back();
    char* end = nullptr;
    double v = t.empty() ? NAN : std::strtod(t.c_str(), &end);
    if (t.empty() || *end != '\0' || !(v > 0 && v < 100))
        throw Error(option + ": expected a margin in % above 0 and below 100, such as 2%, got \"" + text + "\"");
    return v;
}

const char* pointCallName(PointCall c) {
    switch (c) {
    case PointCall::Higher: return "higher";
    case PointCall::Lower: return "lower";
    case PointCall::NoDifference: return "no difference";
    case PointCall::Undecided: return "undecided";
    case PointCall::TooFew: return "too few runs";
    case PointCall::NotJudged: return "not judged";
    }
    return "?";
}

CurveVerdict judgeCurve(const std::vector<PointRuns>& points, const std::vector<RunRecord>& runs,
                        const std::string& baseline, const std::string& candidate, RunMetric metric,
                        const VerdictOptions& o) {
    CurveVerdict v;
    v.baseline = baseline;
    v.candidate = candidate;
    v.metric = metric;
    v.options = o;
    for (const auto& [clients, c] : compareSeries(points, baseline, candidate, o.paired, o.confidence)) {
        PointVerdict p;
        p.clients = clients;
        p.comparison = c;
        SideCaveats a = sideCaveats(runs, baseline, clients, metric), b = sideCaveats(runs, candidate, clients, metric);
        std::string why = notJudgedWhy(baseline, a);
        std::string whyB = notJudgedWhy(candidate, b);
        if (!whyB.empty()) why += (why.empty() ? "" : "; ") + whyB;
        for (const auto& [name, side] : {std::pair{baseline, a}, std::pair{candidate, b}})
            if (side.ioBound)
                p.notes.push_back("at " + pointText(o.axis, clients) + " the CPUs of " + name + " waited on disk " +
                                  format("%.0f%%", side.iowait) + " of the time and were busy " +
                                  format("%.0f%%", side.busy) + ": a difference there may be the disk's");
        if (!why.empty()) {
            p.call = PointCall::NotJudged;
            p.why = why;
        } else if (!c.pValue) {
            p.call = PointCall::TooFew;
            p.why = c.verdict;
        } else {
            ++v.judged;
            p.call = PointCall::NoDifference;  // until the corrected test below says otherwise
        }
        v.points.push_back(std::move(p));
    }

    // Bonferroni over the m points judged: each at alpha / m, intervals at 1 - alpha / m.
    int m = std::max(v.judged, 1);
    double alpha = 1 - o.confidence;
    std::map<int, Comparison> simultaneous;
    if (v.judged > 0)
        for (auto& [clients, c] : compareSeries(points, baseline, candidate, o.paired, 1 - alpha / m))
            simultaneous[clients] = c;
    for (auto& p : v.points) {
        const Comparison& c = p.comparison;
        AdviceInput in{c.a.mean, c.a.sd, c.b.sd, o.paired ? c.sdDifferences : std::nullopt, c.a.n, c.b.n,
                       o.confidence, m, c.percentChange.value_or(0)};
        if (o.advise) p.advice = adviseRunCount(in, o.changePct, o.power);
        if (p.call != PointCall::TooFew && p.call != PointCall::NotJudged) {
            const Comparison& s = simultaneous.at(p.clients);
            p.pAdjusted = std::min(1.0, *c.pValue * m);
            p.simultaneousLow = s.percentLow;
            p.simultaneousHigh = s.percentHigh;
            bool test = *p.pAdjusted < alpha;
            bool interval = s.percentLow ? (*s.percentLow > 0 || *s.percentHigh < 0) : test;
            if (test && interval) {
                p.call = c.difference > 0 ? PointCall::Higher : PointCall::Lower;
            } else if (test != interval) {
                p.call = PointCall::Undecided;
                p.why = "the corrected t-test and the simultaneous interval disagree";
            } else if (*c.pValue < alpha) {
                p.call = PointCall::Undecided;
                p.why = "different at this " + pointNoun(o.axis, false) + " alone (" +
                        (c.percentChange ? format("%+.1f%%", *c.percentChange) + ", " : std::string()) + "p " +
                        format("%.3g", *c.pValue) + "), not after the correction for " + std::to_string(m) + " " +
                        pointNoun(o.axis, true);
            } else {
                p.call = PointCall::NoDifference;
            }
        }
    }
    // Equivalence: two one-sided tests at alpha / m each, i.e. the 1 - 2 alpha / m interval inside
    // +/- margin (Schuirmann 1987), over the same m points.
    if (o.equivalencePct && v.judged > 0 && 2 * alpha / m < 1) {
        v.equivalenceLevel = 1 - 2 * alpha / m;
        std::map<int, Comparison> tost;
        for (auto& [clients, c] : compareSeries(points, baseline, candidate, o.paired, *v.equivalenceLevel))
            tost[clients] = c;
        for (auto& p : v.points) {
            if (p.call == PointCall::TooFew || p.call == PointCall::NotJudged) continue;
            const Comparison& c = tost.at(p.clients);
            if (!c.percentLow) continue;
            p.equivalenceLow = c.percentLow;
            p.equivalenceHigh = c.percentHigh;
            p.equivalent = *c.percentLow > -*o.equivalencePct && *c.percentHigh < *o.equivalencePct;
        }
    }

    // The summary: ranges of neighbouring client counts with the same call, differences first.
    std::vector<std::pair<size_t, size_t>> ranges;
    for (size_t i = 0; i < v.points.size(); ++i) {
        bool joins = !ranges.empty() && v.points[ranges.back().second].call == v.points[i].call &&
                     v.points[i].call != PointCall::NotJudged && v.points[i].call != PointCall::Undecided;
        if (joins) ranges.back().second = i;
        else ranges.emplace_back(i, i);
    }
    auto say = [&](PointCall call, auto sentence) {
        for (const auto& [first, last] : ranges)
            if (v.points[first].call == call) v.summary.push_back(sentence(first, last));
    };
    for (PointCall dir : {PointCall::Higher, PointCall::Lower})
        say(dir, [&](size_t f, size_t l) {
            bool higher = dir == PointCall::Higher;
            return candidate + " " + directionText(metric, higher, baseline) + " " + byText(v.points, f, l, higher) +
                   " " + rangeText(v.options.axis, v.points, f, l);
        });
    if (v.summary.empty())
        v.summary.push_back(v.judged > 0 ? candidate + " and " + baseline +
                                               " cannot be told apart at any " + pointNoun(o.axis, false) + " judged (" +
                                               std::to_string(v.judged) + ")"
                                         : "nothing can be judged: no " + pointNoun(o.axis, false) +
                                               " has enough runs that measured the server");
    if (o.equivalencePct) equivalenceSummary(v, *o.equivalencePct);
    say(PointCall::NoDifference, [&](size_t f, size_t l) {
        std::string r = rangeText(v.options.axis, v.points, f, l);
        r[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(r[0])));
        return r + " no difference can be told apart from noise" + adviceText(v.options.axis, v.points, f, l);
    });
    say(PointCall::Undecided, [&](size_t f, size_t l) {
        const RunCountAdvice& a = v.points[f].advice;
        std::string confirm = a.runsForSeenChange ? "; " + std::to_string(*a.runsForSeenChange) +
                                                        " runs per side would confirm a change the size of the one seen "
                                                        "(sized from the change seen, an optimistic guess)"
                                                  : "";
        return "At " + pointText(o.axis, v.points[f].clients) + " undecided: " + v.points[f].why + "; more runs will tell" +
               confirm + adviceText(v.options.axis, v.points, f, l);
    });
    say(PointCall::TooFew, [&](size_t f, size_t l) {
        std::string r = rangeText(v.options.axis, v.points, f, l);
        r[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(r[0])));
        return r + " too few runs to judge";
    });
    say(PointCall::NotJudged,
        [&](size_t f, size_t) { return "At " + pointText(o.axis, v.points[f].clients) + " not judged: " + v.points[f].why; });

    if (isThroughputMetric(metric) && o.axis == PointAxis::Clients) {  // on the rate axis the peak is the highest rate
        std::string peaks;
        std::vector<SeriesPoint> sums = summarizePoints(points, o.confidence);
        for (const auto& series : {baseline, candidate}) {
            const SeriesPoint* best = nullptr;
            for (const auto& s : sums)
                if (s.series == series && (!best || s.summary.mean > best->summary.mean)) best = &s;
            if (best)
                peaks += (peaks.empty() ? "Peaks: " : ", ") + series + " at " + pointText(o.axis, best->clients) + " (" +
                         format("%.1f ", best->summary.mean) + runMetricUnit(metric) + ")";
        }
        if (!peaks.empty()) v.summary.push_back(peaks);
    }
    if (v.judged > 1)
        v.summary.push_back("Bonferroni correction over " + std::to_string(v.judged) + " " + pointNoun(o.axis, true) +
                            ": each is tested at " +
                            format("%.3g%%", 100 * alpha / m) + " and its interval is at " +
                            format("%.4g%%", 100 * (1 - alpha / m)) + ", so these statements hold together at " +
                            format("%g%%", 100 * o.confidence));
    // One sentence for the client counts where a side has one run.
    std::string singles, singleSide;
    for (const auto& p : v.points)
        if (!p.comparison.singleRunSide.empty()) {
            singleSide = p.comparison.singleRunSide == "baseline" ? baseline : candidate;
            singles += (singles.empty() ? "" : ", ") + std::to_string(p.clients);
        }
    if (!singles.empty())
        v.summary.push_back(singleSide + " has one run at " +
                            (o.axis == PointAxis::Scale ? "scale " + singles
                                                        : singles + (o.axis == PointAxis::Rate ? " tps offered" : " clients")) +
                            ": each is judged as one new run against " +
                            "the other side's runs (a prediction interval; equal variances assumed)");
    bool adaptive = std::any_of(runs.begin(), runs.end(), [&](const RunRecord& r) {
        return (r.series == baseline || r.series == candidate) && countsInStatistics(r) && r.flags.has(RunFlag::ExtraRound);
    });
    if (adaptive)
        v.summary.push_back("Some of these runs were added by a sweep's precision rule (adaptive rounds): the intervals "
                            "and calls are approximate (docs/statistics.md, \"Adaptive rounds\")");
    for (const auto& p : v.points)
        for (const auto& n : p.notes) {
            std::string s = n;
            s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
            v.summary.push_back(s);
        }
    return v;
}

} // namespace scalelab
