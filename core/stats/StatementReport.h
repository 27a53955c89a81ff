#pragma once
// "Which statements got slower?": each point's statements from pg_stat_statements (stored with
// each run's counted window, metrics/StatementStats.h), ranked by time, and between two series
// the statements whose mean time changed, judged by the rules tps is judged by (Welch, or
// paired by round) with Bonferroni's correction over the statements compared.
#include "stats/Compare.h"
#include "store/RunRecord.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace scalelab {

// One statement in one run's counted window.
struct StatementRun {
    int repetition = 0;
    uint64_t calls = 0, rows = 0, blksHit = 0, blksRead = 0, blksDirtied = 0;
    double totalMs = 0, meanMs = 0;
    std::optional<uint64_t> walBytes;
};

struct PointStatements {
    std::string series;
    int clients = 0;
    int runs = 0;                         // counted runs with statements
    int runsWithout = 0;                  // counted runs without (none read, reset, an older file)
    std::vector<std::string> why;         // distinct reasons of those without
    bool evicted = false;                 // a run's statements lost entries (pg_stat_statements.max)
    uint64_t transactions = 0;            // of the runs with statements
    std::map<std::string, std::vector<StatementRun>> byQueryId;  // the runs it ran in
};

// Completed, included runs grouped by series (in `seriesOrder`) and client count.
std::vector<PointStatements> pointStatements(const std::vector<RunRecord>& runs, const std::vector<std::string>& seriesOrder);

// One statement at one point.
struct StatementSummary {
    std::string queryId;
    int runs = 0;                   // runs it ran in (of the point's runs with statements)
    double totalMsPerRun = 0;       // over all the point's runs with statements (0 in one it missed)
    double sharePct = 0;            // of all statements' time at the point
    double callsPerTransaction = 0; // calls over the runs' counted transactions
    PointSummary meanMs;            // of the runs' mean times (runs it ran in)
    double rowsPerCall = 0, hitPerCall = 0, readPerCall = 0, dirtiedPerCall = 0;
    std::optional<double> walBytesPerCall;
};

// By total time, largest first; `top` > 0 keeps that many.
std::vector<StatementSummary> topStatements(const PointStatements& point, double confidence, int top = 0);

struct StatementChange {
    std::string queryId;
    StatementSummary a, b;
    Comparison comparison;  // of the runs' mean times, B against A
};

struct StatementComparison {
    std::string baseline, candidate;
    int clients = 0;
    bool paired = false;
    double confidence = 0.95;          // each statement's: 1 - (1 - asked) / compared (Bonferroni)
    std::vector<StatementChange> changes;  // by the size of the change, largest first
    std::vector<std::string> onlyBaseline, onlyCandidate;  // statements one side never ran
};

// Statements both points ran; each statement's verdict at the corrected confidence.
StatementComparison compareStatements(const PointStatements& a, const PointStatements& b, double confidence, bool paired);

} // namespace scalelab
