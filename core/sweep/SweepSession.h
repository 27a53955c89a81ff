#pragma once
// What SweepRunner::run() carries from run to run: internal to core/sweep (SweepRunner.cpp,
// SweepRunOne.cpp).
#include "store/StatementTexts.h"
#include "sweep/ServerLogFollower.h"
#include "sweep/SweepRunner.h"
#include "sweep/SweepServers.h"

#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <vector>

namespace scalelab {

inline double secondsSince(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

struct SweepRunner::Session {
    Session(SweepRunner& runner, uint64_t planSeed)
        : seed(planSeed),
          workload(runner.plan_.workload()),
          servers(
              runner.plan_, [&runner](const std::string& s) { if (runner.observer_) runner.observer_->onNote(s); },
              [&runner](double seconds) { return runner.waitFor(seconds); },
              [&runner] { return runner.serverAgent(); }) {}
    uint64_t seed;
    Workload workload;
    SweepServers servers;
    std::vector<PlannedRun> planned;
    int plannedCount = 0;
    std::set<int64_t> finished;  // run indexes completed before this session (resume)
    int done = 0, doneThisSession = 0, extraExpected = 0, maxClients = 0;
    bool usesPgbenchTables = false;
    std::chrono::steady_clock::time_point started;
    SweepProgress progress;
    // Failed runs go to the back of the queue to run again (plan.retries times), so a point
    // disturbed by a server that died still gets its rounds, interleaved order kept.
    std::deque<PlannedRun> queue;
    std::map<int, int> retriesLeft;
    // The runs kept as they finish (without their detail), for the precision rule's ETA:
    // reading the file after every run would cost O(runs^2) over a sweep.
    std::vector<RunRecord> seen;
    StatementTexts texts;
    bool provenanceTaken = false;
    bool metricsMachineSaid = false;  // the Messages say once where the machine figures come from
    bool statementsSaid = false;      // and once what pg_stat_statements gives
    bool waitsSaid = false;           // and where the waits come from
    bool profileSaid = false;         // and how the CPU is profiled
    // A server host's log, followed live; last, so it stops before the servers go.
    std::unique_ptr<ServerLogFollower> follower;
};

} // namespace scalelab
