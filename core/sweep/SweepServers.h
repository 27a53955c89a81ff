#pragma once
// The servers a sweep uses, and what the sweep does when one of them goes away.
//
// Embedded clusters run one at a time (two would compete for the CPUs being measured), each
// with the plan's settings applied once and the current series' overrides tracked so they can
// be reset. A server that dies is noticed before the next step, whatever the moment: an
// embedded one is started again (PostgreSQL's crash recovery), waited for while it recovers by
// itself, and its last log lines go with the failed run; a server of the user's is asked again
// with backoff for target.reconnect seconds, and then the sweep stops with a resume hint.
#include "server/EmbeddedServer.h"
#include "sweep/RemoteCluster.h"
#include "load/data/TpccLoad.h"
#include "sweep/SweepPlan.h"
#include "util/Error.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace scalelab {

// The target server did not come back within the plan's reconnect time: the sweep stops.
// The data directory of the embedded server a series runs on: its own, the plan's, or the default.
std::filesystem::path embeddedDataDir(const SweepPlan& plan, const SeriesSpec& series);

class TargetGone : public Error {
public:
    using Error::Error;
};

// What went wrong with the server during a run (or while preparing it).
struct ServerLoss {
    std::string what;                 // "the embedded server died: its postmaster (pid N) is gone"
    std::vector<std::string> log;     // the embedded server's last log lines since the run began
};

class SweepServers {
public:
    using Note = std::function<void(const std::string&)>;
    // Waits up to the given seconds; false when the sweep was stopped meanwhile.
    using Wait = std::function<bool(double)>;
    // `serverHost`: the server host's agent, for a plan with target.host.
    SweepServers(const SweepPlan& plan, Note note, Wait wait, RemoteCluster::Agent serverHost = {});

    // Makes the series' server the running one, with its settings; returns its conninfo.
    // An embedded server that died since it was last used is started again (said, with its
    // last log lines); one recovering from a crash by itself is waited for. A target server
    // that does not answer is asked again with backoff; throws TargetGone when it stays away.
    std::string activate(const SeriesSpec& series);
    Cluster* active() const { return active_; }

    // The pgbench tables for a run at `scale`, once per cluster and scale: kept while the scale
    // stays, rebuilt when it changes (a plan's list of scales). The seconds a build took, when
    // this call built them.
    std::optional<double> ensureData(const std::string& conninfo, bool usesPgbenchTables, int64_t scale);
    // TPROC-C's nine tables (a plan with workload.kind "tprocc"), once per cluster: loaded when
    // missing on the embedded server, at the start with data.init "reinit", and when they hold
    // another number of warehouses than data.warehouses says; on a server of the user's only with
    // "reinit". `seed` is the load's. What the data is (a run's NURand constants come from it),
    // and the seconds the load took when this call loaded it.
    struct TpccData {
        tpcc::DataInfo data;
        std::optional<double> builtS;
    };
    TpccData ensureTpccData(const std::string& conninfo, uint64_t seed);

    // Where the active server's log stands: what it says from here on belongs to the next run.
    void markRunStart();
    // After a run: how the server was lost since markRunStart(), or nothing when it is up and
    // did not crash (a failure was the run's own). A live embedded postmaster that does not
    // answer is asked again for up to 30 s first (a busy machine, not a lost server).
    std::optional<ServerLoss> lossSinceRunStart();
    // The embedded server's last log lines since markRunStart() (a failed run keeps them).
    std::vector<std::string> logSinceRunStart() const;
    // Cheap check for waits between runs: the active embedded server's postmaster is alive.
    bool alive() const;

    // Back to the state before the sweep: a server of the user's that died is started again,
    // series overrides reset. Never throws.
    void restore() noexcept;
    void note(const std::string& s) const;

private:
    std::string activateEmbedded(const SeriesSpec& series);
    void recoverIfCrashed(Cluster& server);
    std::optional<ServerLoss> findLoss() const;
    std::string whoLost() const;
    void awaitTarget(const std::string& conninfo);
    void applyOverrides(Cluster* server, const std::string& conninfo, const std::vector<Setting>& wanted);
    void resetOverrides(Cluster* server);

    const SweepPlan& plan_;
    Note note_;
    Wait wait_;
    RemoteCluster::Agent serverHost_;
    std::map<std::string, std::unique_ptr<Cluster>> embedded_;          // by data directory
    Cluster* active_ = nullptr;
    std::set<Cluster*> reused_;                                         // running before the sweep
    pid_t activePid_ = 0;                                               // its postmaster when last seen up
    std::uintmax_t logOffset_ = 0;
    bool lossSaid_ = false;                                             // a failed run carries the log lines
    std::map<Cluster*, std::vector<std::string>> overrides_;            // series settings in force
    std::map<std::string, int64_t> prepared_;                           // conninfo -> the scale its data was checked at
    std::map<std::string, tpcc::DataInfo> tpccPrepared_;                // conninfo -> its TPROC-C data, once checked
    std::string remoteOverridesConninfo_;
    std::vector<std::string> remoteOverrides_;
};

} // namespace scalelab
