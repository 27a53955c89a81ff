#pragma once
// Where the sessions wait (issue 62): every backend of the run's server through a run's counted
// window, from pg_wait_sampling's profile where the server loads the extension (sampled inside
// the server, 100 times a second by default: metrics/WaitSamplingProfile.h), otherwise sampled
// from pg_stat_activity at a fixed rate on a thread and a connection of ScaleLab's own.
// Each sample counts the backends that are busy by what they wait on
// (wait_event_type:wait_event, or CPU for a busy backend that waits on nothing): the load's
// sessions (by application_name) while inside a transaction, other client sessions likewise,
// and every other backend type (walwriter, checkpointer, autovacuum worker, ...) unless it
// sleeps in its main loop (wait type Activity). Counts over samples are average active
// sessions; over the window's seconds and the run's transactions, wait time per transaction.
//
// All samples are read in one transaction, each after pg_stat_clear_snapshot(): ten reads a
// second as transactions of their own would be ten commits a second in pg_stat_database, which
// the run's commit counters would take for the load's. The transaction ends when the sampler
// does, after the run's last counter read.
#include "metrics/WaitSamplingProfile.h"
#include "metrics/WaitSource.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

struct pg_conn;

namespace scalelab {

// The backend class of the load's own sessions in a profile.
constexpr const char* kLoadBackends = "load";
constexpr double kWaitSampleHz = 10;

struct WaitCount {
    std::string backend;  // kLoadBackends, "other clients", or pg_stat_activity.backend_type
    std::string type;     // wait_event_type, or "CPU"
    std::string event;    // wait_event, or "CPU"
    std::string queryId;  // pg_stat_activity.query_id; "" where the server has none
    uint64_t count = 0;   // samples that found a backend so
};

// One run's counted window of samples, or why there is none (never an empty profile in its
// place: issue 62 asks for missing, never zero).
struct WaitProfile {
    std::string source;       // kWaitSamplingSource or kActivitySource
    std::string sourceWhy;    // why pg_wait_sampling was not used, where it was not ("" otherwise)
    double hz = 0;            // the rate asked for (pg_wait_sampling: its profile_period's)
    uint64_t samples = 0;     // reads made (pg_wait_sampling: its collector's rounds)
    double seconds = 0;       // from the first read to the last
    std::vector<WaitCount> counts;
    std::string unavailable;  // why there is no profile; the rest is empty then

    bool available() const { return unavailable.empty(); }
    // "Lock:transactionid" -> samples, of one backend class (kLoadBackends by default).
    std::map<std::string, uint64_t> byEvent(const std::string& backend = kLoadBackends) const;
};

nlohmann::json toJson(const WaitProfile& p);
// Throws scalelab::Error naming what is wrong in `j` (a stored run's "waits").
WaitProfile waitProfileFromJson(const nlohmann::json& j);
// "Lock:transactionid", "CPU".
std::string waitEventName(const std::string& type, const std::string& event);

// The load's samples so far in a window, by event ("Lock:transactionid" -> samples that found a
// session so): what the Live page shows while the run goes on.
struct WaitTally {
    std::string source;       // kWaitSamplingSource or kActivitySource
    uint64_t samples = 0;     // reads, or pg_wait_sampling's rounds
    std::map<std::string, uint64_t> load;
};
// Average active load sessions by event between two tallies of one window; empty when no read
// was made between them (or the window started again).
std::map<std::string, double> waitSessionsBetween(const WaitTally& before, const WaitTally& after);

// Why pg_wait_sampling's profile cannot serve on connection `c`, or "" when it can (`hz`, when
// given, set to its rate). `ownServer`: ScaleLab's embedded server, where the extension is
// created when missing and a large profile is emptied (see the .cpp).
std::string waitSamplingRefusal(pg_conn* c, bool ownServer, double* hz = nullptr);

struct WaitSamplerOptions {
    WaitSource source = WaitSource::Auto;
    double hz = kWaitSampleHz;        // pg_stat_activity's rate
    bool ownServer = false;           // ScaleLab's embedded server: it may create the extension
    bool loadReconnects = false;      // -C: the load's pids live a transaction each (see .cpp)
};

class WaitSampler {
public:
    // Connects and chooses the source (throws Error with the server's words, or where
    // pg_wait_sampling is asked for and cannot be used). `skipPids`: backends that are
    // ScaleLab's own readers (the counters' connection), left out of every sample.
    WaitSampler(const std::string& conninfo, const std::string& loadApplicationName, std::vector<int> skipPids,
                WaitSamplerOptions options = {});
    ~WaitSampler();
    WaitSampler(const WaitSampler&) = delete;
    WaitSampler& operator=(const WaitSampler&) = delete;

    // "pg_wait_sampling at 100 Hz", "pg_stat_activity at 10 Hz (pg_wait_sampling not used: ...)".
    std::string describe() const;
    void start();           // the first read now, then one every 1/hz s (pg_wait_sampling: every 0.5 s)
    WaitProfile stop();     // the samples since start(); a failed read makes it unavailable, with why
    bool running() const { return thread_.joinable(); }
    WaitTally tally() const;  // the load's samples since start(), while it runs (any thread)

private:
    void loop();
    bool sampleOnce();  // false (and error_ set) when the read failed
    bool readProfile(); // pg_wait_sampling: the window so far into counts_ and tally_
    struct CloseConnection {
        void operator()(pg_conn* c) const;
    };
    std::unique_ptr<pg_conn, CloseConnection> conn_;
    std::unique_ptr<pg_conn, CloseConnection> reference_;  // pg_wait_sampling: idle, counted each round
    std::string sql_;
    std::string classesSql_;  // pg_wait_sampling: each pid's backend class
    double hz_;
    std::string source_ = kActivitySource;
    std::string sourceWhy_;
    int referencePid_ = 0;
    std::thread thread_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    // Written by the sampling thread only, read after it was joined.
    std::map<std::tuple<std::string, std::string, std::string, std::string>, uint64_t> counts_;
    std::map<std::tuple<int, std::string, std::string, std::string>, uint64_t> profileStart_;
    std::map<int, std::string> classes_;  // pid -> backend class, as first read
    std::set<int> firstPids_;             // pids at the window's start
    std::map<int, AliveAt> aliveAt_;      // those of them, as of the last read that found them
    uint64_t samples_ = 0;   // reads made
    uint64_t rounds_ = 0;    // pg_wait_sampling: the collector's rounds in the window so far
    double firstS_ = 0, lastS_ = 0;
    std::string error_;
    mutable std::mutex tallyMutex_;  // the sampling thread writes tally_; tally() reads it
    WaitTally tally_;
};

} // namespace scalelab
