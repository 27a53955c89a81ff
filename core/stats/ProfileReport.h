#pragma once
// "Where does the server's CPU go?" (issue 62): each run's CPU profile (metrics/CpuProfile.h,
// folded stacks of the counted window) per transaction; each point's, its rounds merged; and
// between two series at one x the functions whose self time per transaction changed, judged as
// tps is (Welch, or paired by round) with Bonferroni's correction over the functions judged.
//
// Every figure is samples per 1,000 transactions: a side with more throughput takes more
// samples in the same seconds, and per transaction that is no more cost. A function's self
// samples are those of stacks it ends (the innermost frame); its total, of stacks it is in.
#include "metrics/CpuProfile.h"
#include "stats/Compare.h"
#include "store/RunRecord.h"

#include <map>
#include <string>
#include <vector>

namespace scalelab {

struct RunProfile {
    int repetition = 0;
    std::string source;        // "perf record -F 99 -e cpu-clock -g, 1,234 samples"
    double hz = 0;
    uint64_t samples = 0;
    uint64_t transactions = 0;
    std::map<std::string, uint64_t> folded;
    std::map<std::string, double> selfPerKTx;  // function -> self samples per 1,000 transactions
};

struct PointProfile {
    std::string series;
    int clients = 0;
    std::vector<RunProfile> runs;   // counted runs with a profile
    int runsWithout = 0;            // counted runs without
    std::vector<std::string> why;   // distinct reasons of those without
    // The rounds merged: every stack's samples per 1,000 of the rounds' transactions.
    std::map<std::string, double> perKTx() const;
    uint64_t samples() const;
};

// Completed, included runs grouped by series (in `seriesOrder`) and x (runs on their axis).
std::vector<PointProfile> pointProfiles(const std::vector<RunRecord>& runs, const std::vector<std::string>& seriesOrder);

struct FunctionCost {
    std::string function;
    double selfPerKTx = 0, totalPerKTx = 0;  // rounds merged
    double selfSharePct = 0;                 // of the point's samples
};
// The point's functions by self time, largest first.
std::vector<FunctionCost> topFunctions(const PointProfile& point);

struct FunctionChange {
    std::string function;
    double aPerKTx = 0, bPerKTx = 0;  // self samples per 1,000 transactions, rounds merged
    Comparison comparison;            // of the runs' values, B against A (an interval with 2+ rounds a side)
};

// A function is judged when it holds at least this share of either side's samples: the rest are
// a long tail of a sample or two, each of which would widen every interval (Bonferroni).
constexpr double kJudgedSharePct = 1.0;

struct ProfileComparison {
    std::string baseline, candidate;
    int clients = 0;
    bool paired = false;
    int judged = 0;                     // functions judged (kJudgedSharePct of either side)
    double confidence = 0.95;           // each function's: 1 - (1 - asked) / judged
    std::vector<FunctionChange> changes;  // the judged functions, by the size of the change
};

// Both points need runs with a profile (Error otherwise).
ProfileComparison compareProfiles(const PointProfile& a, const PointProfile& b, double confidence, bool paired);

// "PATCH spends 12.1 (9.8 .. 14.4) more samples per 1,000 transactions in LWLockAcquire than
// HEAD at 256 clients" for a change judged distinguishable; "" otherwise.
std::string profileChangeSentence(const ProfileComparison& c, const FunctionChange& change, const std::string& at);

// The innermost frame of a folded stack.
std::string leafOf(const std::string& stack);

} // namespace scalelab
