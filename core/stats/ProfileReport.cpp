#include "stats/ProfileReport.h"

#include "stats/PointGrouping.h"
#include "util/Error.h"
#include "util/Format.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace scalelab {
namespace {

// A run's profile, or why it has none.
std::optional<RunProfile> profileOfRun(const RunRecord& r, std::string& why) {
    auto system = r.detail.find("system");
    if (system == r.detail.end() || !system->is_object() || !system->contains("cpu_profile")) {
        why = "no CPU profile recorded ($.diagnostics.cpu_profile was off)";
        return std::nullopt;
    }
    CpuProfile p;
    try {
        p = cpuProfileFromJson((*system)["cpu_profile"]);
    } catch (const Error& e) {
        why = std::string("stored CPU profile is damaged: ") + e.what();
        return std::nullopt;
    }
    if (!p.available()) {
        why = p.unavailable;
        return std::nullopt;
    }
    if (r.transactions == 0) {
        why = "no counted transactions to share the CPU over";
        return std::nullopt;
    }
    RunProfile out;
    out.repetition = r.repetition;
    out.source = p.source + ", " + std::to_string(p.samples) + " samples";
    out.hz = p.hz;
    out.samples = p.samples;
    out.transactions = r.transactions;
    const double perKTx = 1000.0 / static_cast<double>(r.transactions);
    for (const auto& [stack, n] : p.folded) out.selfPerKTx[leafOf(stack)] += static_cast<double>(n) * perKTx;
    out.folded = std::move(p.folded);
    return out;
}

double profileValueIn(const std::map<std::string, double>& m, const std::string& key) {
    auto it = m.find(key);
    return it == m.end() ? 0.0 : it->second;  // profiled and never seen: no time there
}

// Self and total samples per 1,000 transactions of each function in merged stacks.
void functionTimes(const std::map<std::string, double>& stacks, std::map<std::string, double>& self,
                   std::map<std::string, double>& total) {
    for (const auto& [stack, v] : stacks) {
        self[leafOf(stack)] += v;
        std::set<std::string> seen;  // a recursive function counts once per stack
        size_t start = stack.find(';');  // frame 0 is the process kind, not a function
        while (start != std::string::npos) {
            size_t end = stack.find(';', start + 1);
            std::string f = stack.substr(start + 1, end == std::string::npos ? std::string::npos : end - start - 1);
            if (seen.insert(f).second) total[f] += v;
            start = end;
        }
    }
}

} // namespace

std::string leafOf(const std::string& stack) {
    auto semi = stack.rfind(';');
    return semi == std::string::npos ? stack : stack.substr(semi + 1);
}

std::map<std::string, double> PointProfile::perKTx() const {
    std::map<std::string, double> out;
    uint64_t tx = 0;
    for (const auto& r : runs) tx += r.transactions;
    if (tx == 0) return out;
    for (const auto& r : runs)
        for (const auto& [stack, n] : r.folded) out[stack] += static_cast<double>(n) * 1000.0 / static_cast<double>(tx);
    return out;
}

uint64_t PointProfile::samples() const {
    uint64_t n = 0;
    for (const auto& r : runs) n += r.samples;
    return n;
}

std::vector<PointProfile> pointProfiles(const std::vector<RunRecord>& runs, const std::vector<std::string>& seriesOrder) {
    std::vector<PointProfile> points;
    for (const auto& r : runs) {
        if (!countsInStatistics(r)) continue;
        PointProfile& p = pointOf(points, r);
        std::string why;
        if (auto profile = profileOfRun(r, why)) {
            p.runs.push_back(std::move(*profile));
        } else {
            ++p.runsWithout;
            if (std::find(p.why.begin(), p.why.end(), why) == p.why.end()) p.why.push_back(why);
        }
    }
    sortPoints(points, seriesOrder);
    return points;
}

std::vector<FunctionCost> topFunctions(const PointProfile& point) {
    std::map<std::string, double> self, total;
    functionTimes(point.perKTx(), self, total);
    double all = 0;
    for (const auto& [f, v] : self) all += v;
    std::vector<FunctionCost> out;
    for (const auto& [f, v] : self) out.push_back({f, v, total[f], all > 0 ? 100.0 * v / all : 0});
    std::sort(out.begin(), out.end(), [](const FunctionCost& x, const FunctionCost& y) {
        return x.selfPerKTx != y.selfPerKTx ? x.selfPerKTx > y.selfPerKTx : x.function < y.function;
    });
    return out;
}

ProfileComparison compareProfiles(const PointProfile& a, const PointProfile& b, double confidence, bool paired) {
    for (const PointProfile* p : {&a, &b})
        if (p->runs.empty()) throw Error(p->series + " has no run with a CPU profile at this point");
    ProfileComparison c;
    c.baseline = a.series;
    c.candidate = b.series;
    c.clients = a.clients;
    c.paired = paired;
    std::set<std::string> judged;
    for (const PointProfile* p : {&a, &b})
        for (const auto& f : topFunctions(*p))
            if (f.selfSharePct >= kJudgedSharePct) judged.insert(f.function);
    c.judged = static_cast<int>(judged.size());
    c.confidence = judged.empty() ? confidence : 1.0 - (1.0 - confidence) / static_cast<double>(judged.size());
    std::map<std::string, double> selfA, selfB, unused;
    functionTimes(a.perKTx(), selfA, unused);
    functionTimes(b.perKTx(), selfB, unused);
    for (const auto& f : judged) {
        FunctionChange ch;
        ch.function = f;
        ch.aPerKTx = profileValueIn(selfA, f);
        ch.bPerKTx = profileValueIn(selfB, f);
        ch.comparison = compareRunMeasure(
            a.runs, b.runs, [&](const RunProfile& r) { return profileValueIn(r.selfPerKTx, f); }, c.confidence, paired);
        c.changes.push_back(std::move(ch));
    }
    // By the size of the change of the rounds merged (defined with one round a side too).
    std::stable_sort(c.changes.begin(), c.changes.end(), [](const FunctionChange& x, const FunctionChange& y) {
        return std::fabs(x.bPerKTx - x.aPerKTx) > std::fabs(y.bPerKTx - y.aPerKTx);
    });
    return c;
}

std::string profileChangeSentence(const ProfileComparison& c, const FunctionChange& ch, const std::string& at) {
    const Comparison& k = ch.comparison;
    if (k.verdict != "distinguishable" || !k.diffLow || !k.diffHigh) return {};
    bool more = k.difference > 0;
    double low = more ? *k.diffLow : -*k.diffHigh, high = more ? *k.diffHigh : -*k.diffLow;
    return c.candidate + " spends " + formatNumber("%.3g", std::fabs(k.difference)) + " (" + formatNumber("%.3g", low) +
           " .. " + formatNumber("%.3g", high) + ") " + (more ? "more" : "fewer") +
           " CPU samples per 1,000 transactions in " + ch.function + " than " + c.baseline + " " + at;
}

} // namespace scalelab
