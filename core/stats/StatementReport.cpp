#include "stats/StatementReport.h"

#include "stats/PointGrouping.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace scalelab {
namespace {

uint64_t count(const nlohmann::json& row, const char* key) {
    auto it = row.find(key);
    return it != row.end() && it->is_number_unsigned() ? it->get<uint64_t>() : 0;
}

std::optional<double> rowNumber(const nlohmann::json& row, const char* key) {
    auto it = row.find(key);
    if (it == row.end() || !it->is_number()) return std::nullopt;
    return it->get<double>();
}

// A run's statements, or why it has none.
const nlohmann::json* statementsOf(const RunRecord& r, std::string& why) {
    auto system = r.detail.find("system");
    if (system == r.detail.end() || !system->is_object() || !system->contains("statements")) {
        why = "no statements recorded (pg_stat_statements was not read)";
        return nullptr;
    }
    const nlohmann::json& s = (*system)["statements"];
    if (s.contains("unavailable")) {
        why = s["unavailable"].get<std::string>();
        return nullptr;
    }
    if (s.value("reset", false)) {
        why = "pg_stat_statements was reset during the run";
        return nullptr;
    }
    if (!s.contains("rows") || !s["rows"].is_array()) {
        why = "the run's statements are not a list";
        return nullptr;
    }
    return &s;
}

} // namespace

std::vector<PointStatements> pointStatements(const std::vector<RunRecord>& runs, const std::vector<std::string>& seriesOrder) {
    std::vector<PointStatements> points;
    for (const auto& r : runs) {
        if (!countsInStatistics(r)) continue;
        PointStatements* it = &pointOf(points, r);
        std::string why;
        const nlohmann::json* s = statementsOf(r, why);
        if (!s) {
            ++it->runsWithout;
            if (std::find(it->why.begin(), it->why.end(), why) == it->why.end()) it->why.push_back(why);
            continue;
        }
        ++it->runs;
        it->transactions += r.transactions;
        if (s->value("evicted", 0) > 0) it->evicted = true;
        for (const auto& row : (*s)["rows"]) {
            StatementRun sr;
            sr.repetition = r.repetition;
            sr.calls = count(row, "calls");
            // A row without its times (a store edited by hand) is left out, never read as 0 ms.
            auto totalMs = rowNumber(row, "total_ms"), meanMs = rowNumber(row, "mean_ms");
            if (!totalMs || !meanMs) continue;
            sr.totalMs = *totalMs;
            sr.meanMs = *meanMs;
            sr.rows = count(row, "rows");
            sr.blksHit = count(row, "shared_blks_hit");
            sr.blksRead = count(row, "shared_blks_read");
            sr.blksDirtied = count(row, "shared_blks_dirtied");
            if (row.contains("wal_bytes") && row["wal_bytes"].is_number()) sr.walBytes = count(row, "wal_bytes");
            if (sr.calls == 0) continue;
            it->byQueryId[row.value("queryid", "")].push_back(sr);
        }
    }
    sortPoints(points, seriesOrder);
    return points;
}

namespace {

StatementSummary summaryOf(const PointStatements& point, const std::string& id, const std::vector<StatementRun>& runs,
                           double allMs, double confidence) {
    StatementSummary s;
    s.queryId = id;
    s.runs = static_cast<int>(runs.size());
    double total = 0, calls = 0, rows = 0, hit = 0, read = 0, dirtied = 0, wal = 0;
    bool walKnown = true;
    std::vector<double> means;
    for (const auto& r : runs) {
        total += r.totalMs;
        calls += static_cast<double>(r.calls);
        rows += static_cast<double>(r.rows);
        hit += static_cast<double>(r.blksHit);
        read += static_cast<double>(r.blksRead);
        dirtied += static_cast<double>(r.blksDirtied);
        if (r.walBytes) wal += static_cast<double>(*r.walBytes);
        else walKnown = false;
        means.push_back(r.meanMs);
    }
    s.totalMsPerRun = point.runs > 0 ? total / point.runs : 0;
    s.sharePct = allMs > 0 ? 100.0 * total / allMs : 0;
    s.callsPerTransaction = point.transactions > 0 ? calls / static_cast<double>(point.transactions) : 0;
    s.meanMs = summarize(means, confidence, "statement mean times");
    if (s.meanMs.ciLow && *s.meanMs.ciLow < 0) {  // no time is negative (as summarizePoints)
        s.meanMs.ciLow = 0.0;
        s.meanMs.ciLowClamped = true;
    }
    s.rowsPerCall = rows / calls;
    s.hitPerCall = hit / calls;
    s.readPerCall = read / calls;
    s.dirtiedPerCall = dirtied / calls;
    if (walKnown) s.walBytesPerCall = wal / calls;
    return s;
}

double allStatementsMs(const PointStatements& point) {
    double all = 0;
    for (const auto& [id, runs] : point.byQueryId)
        for (const auto& r : runs) all += r.totalMs;
    return all;
}

} // namespace

std::vector<StatementSummary> topStatements(const PointStatements& point, double confidence, int top) {
    std::vector<StatementSummary> out;
    double all = allStatementsMs(point);
    for (const auto& [id, runs] : point.byQueryId) out.push_back(summaryOf(point, id, runs, all, confidence));
    std::sort(out.begin(), out.end(), [](const StatementSummary& x, const StatementSummary& y) {
        return x.totalMsPerRun != y.totalMsPerRun ? x.totalMsPerRun > y.totalMsPerRun : x.queryId < y.queryId;
    });
    if (top > 0 && out.size() > static_cast<size_t>(top)) out.resize(static_cast<size_t>(top));
    return out;
}

StatementComparison compareStatements(const PointStatements& a, const PointStatements& b, double confidence, bool paired) {
    StatementComparison c;
    c.baseline = a.series;
    c.candidate = b.series;
    c.clients = a.clients;
    c.paired = paired;
    std::vector<std::string> both;
    for (const auto& [id, runs] : a.byQueryId) {
        if (b.byQueryId.count(id)) both.push_back(id);
        else c.onlyBaseline.push_back(id);
    }
    for (const auto& [id, runs] : b.byQueryId)
        if (!a.byQueryId.count(id)) c.onlyCandidate.push_back(id);
    c.confidence = both.empty() ? confidence : 1.0 - (1.0 - confidence) / static_cast<double>(both.size());
    double allA = allStatementsMs(a), allB = allStatementsMs(b);
    for (const auto& id : both) {
        const auto& ra = a.byQueryId.at(id);
        const auto& rb = b.byQueryId.at(id);
        StatementChange ch;
        ch.queryId = id;
        ch.a = summaryOf(a, id, ra, allA, confidence);
        ch.b = summaryOf(b, id, rb, allB, confidence);
        std::vector<double> va, vb;
        if (paired) {  // the rounds both sides ran it in, in round order
            for (const auto& x : ra)
                for (const auto& y : rb)
                    if (x.repetition == y.repetition) va.push_back(x.meanMs), vb.push_back(y.meanMs);
            ch.comparison = comparePaired(va, vb, c.confidence);
        } else {
            for (const auto& x : ra) va.push_back(x.meanMs);
            for (const auto& y : rb) vb.push_back(y.meanMs);
            ch.comparison = compareWelch(va, vb, c.confidence);
        }
        c.changes.push_back(std::move(ch));
    }
    auto size = [](const StatementChange& ch) {
        return ch.comparison.percentChange ? std::fabs(*ch.comparison.percentChange) : -1.0;
    };
    std::stable_sort(c.changes.begin(), c.changes.end(),
                     [&](const StatementChange& x, const StatementChange& y) { return size(x) > size(y); });
    return c;
}

} // namespace scalelab
