#pragma once
// "Where do the sessions wait?" (issue 62): each run's wait samples (metrics/WaitSampler.h,
// stored with the run's counted window) as average active sessions by wait event and wait time
// per transaction; each point's, its rounds merged; and between two series at one x the events
// whose wait time per transaction changed, judged as tps is (Welch, or paired by round) with
// Bonferroni's correction over the events judged.
//
// Average active sessions of an event = the samples that found a load session waiting on it /
// the samples taken. Its wait time per transaction = those sessions times the run's counted
// seconds, over the run's counted transactions: "each transaction spent 0.41 ms on
// LWLock:WALInsert". An event a run sampled but never saw is 0 there (a measurement); a run
// without samples (waits off, a failed read, an older file) is left out and said, never a 0.
#include "stats/Compare.h"
#include "stats/Summary.h"
#include "store/RunRecord.h"

#include <map>
#include <string>
#include <vector>

namespace scalelab {

// One run's waits.
struct RunWaits {
    int repetition = 0;
    std::string source;                     // "pg_stat_activity at 10 Hz, 51 samples"
    std::string sourceName;                 // "pg_stat_activity", "pg_wait_sampling"
    std::map<std::string, double> sessions;  // load event -> average active sessions
    std::map<std::string, double> msPerTx;   // load event -> wait ms per transaction
    std::map<std::string, double> others;    // "walwriter IO:WALWrite" -> average active backends
};

struct PointWaits {
    std::string series;
    int clients = 0;
    std::vector<RunWaits> runs;     // counted runs with waits
    int runsWithout = 0;            // counted runs without
    std::vector<std::string> why;   // distinct reasons of those without
};

// Completed, included runs grouped by series (in `seriesOrder`) and x (runs on their axis).
std::vector<PointWaits> pointWaits(const std::vector<RunRecord>& runs, const std::vector<std::string>& seriesOrder);

// One event at one point, over its runs with waits.
struct WaitSummary {
    std::string event;        // "Lock:transactionid", "CPU"
    double sessions = 0;      // average active sessions (mean over the runs)
    double sharePct = 0;      // of the load's active session samples
    PointSummary msPerTx;     // of the runs' wait ms per transaction
};

// The load's events by average active sessions, largest first.
std::vector<WaitSummary> pointWaitSummaries(const PointWaits& point, double confidence);
// Other backends (walwriter, checkpointer, ...) by average active backends, largest first.
std::vector<std::pair<std::string, double>> otherBackendWaits(const PointWaits& point);

struct WaitChange {
    std::string event;
    WaitSummary a, b;
    // Of the runs' wait ms per transaction, B against A; its verdict from the difference's
    // interval (the % change is none where A never waited on the event).
    Comparison comparison;
};

struct WaitComparison {
    std::string baseline, candidate;
    int clients = 0;
    bool paired = false;
    double confidence = 0.95;          // each event's: 1 - (1 - asked) / judged (Bonferroni)
    std::vector<WaitChange> changes;   // every event either side waited on, by the size of the change
    // Where the two sides' waits come from different sources: Client:ClientRead (counted
    // between transactions by pg_wait_sampling only) left out, and this says so.
    std::string note;
};

// Both points need runs with waits (Error otherwise).
WaitComparison compareWaits(const PointWaits& a, const PointWaits& b, double confidence, bool paired);

// "B waits 0.41 ms (0.30 .. 0.52) more per transaction on LWLock:WALInsert than A at 256 clients"
// for a change judged distinguishable; "" otherwise. `at` names the point ("at 256 clients").
std::string waitChangeSentence(const WaitComparison& c, const WaitChange& change, const std::string& at);

} // namespace scalelab
