#pragma once
// One snapshot of everything ScaleLab watches besides the load itself (CPU per PU, disks,
// process CPU, pressure, server counters), and what happened between two snapshots. The
// same computation serves a 1-second interval and a whole run.
#include "metrics/CpuProfiler.h"
#include "metrics/CpuStat.h"
#include "metrics/DiskStats.h"
#include "metrics/MetricsMachine.h"
#include "metrics/Pressure.h"
#include "metrics/ProcessCpu.h"
#include "metrics/ServerCounters.h"
#include "metrics/StatementStats.h"
#include "metrics/WaitSampler.h"

#include <sys/types.h>

#include <memory>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace scalelab {

// The application_name the load generator's sessions carry unless the conninfo sets one;
// the counters wait for these sessions to leave before their final read.
constexpr const char* kLoadApplicationName = "scalelab-load";

class RemoteMachine;

struct MetricsSources {
    std::string root = "/";       // files are read from ROOT/proc/... and ROOT/sys/block: tests give captured ones
    pid_t loadGenerator = 0;      // this process; 0: not measured
    bool clientsHere = true;      // the clients run on this machine (not only on other load hosts)
    pid_t serverPostmaster = 0;   // local server; 0: remote, not measured
    std::string conninfo;         // counters of this database; empty: none
    std::string loadApplicationName = kLoadApplicationName;
    bool statements = false;        // pg_stat_statements at the window's edges (needs `conninfo`)
    bool createStatementsExtension = false;  // CREATE EXTENSION when missing (the embedded server; waits' too)
    bool waits = false;             // where the sessions wait, through the counted window (needs `conninfo`)
    WaitSource waitSource = WaitSource::Auto;
    bool loadReconnects = false;    // the load connects for each transaction (-C)
    bool cpuProfile = false;        // where the server's CPU goes, through the counted window (here, or by `machine`'s agent)
    double profileHz = kDefaultProfileHz;
    DiskFilter disks;
    int loadGeneratorPus = 0;     // PUs the load generator may use (client-bound guard); 0: all online
    long ticksPerSecond = 100;    // sysconf(_SC_CLK_TCK)
    // The machine whose CPU, disks, pressure and server processes are read: this one (null), or
    // a metrics host through its agent. The load generator's CPU and the counters are always
    // read here (the load generator runs here; the counters come over a connection).
    std::shared_ptr<RemoteMachine> machine;

    // The live machine, this process as the load generator.
    static MetricsSources forThisProcess(const std::string& conninfo, pid_t postmaster, int loadGeneratorPus);
};

struct SystemSnapshot {
    double seconds = 0;         // monotonic clock
    double machineSeconds = 0;  // the measured machine's monotonic clock (`seconds` when it is this one)
    CpuStatSnapshot cpu;
    std::vector<DiskCounters> disks;
    uint64_t loadGeneratorTicks = 0, serverTicks = 0;
    std::optional<PressureTotals> cpuPressure, ioPressure;
    std::optional<ServerCounterSnapshot> counters;
    std::optional<StatementSnapshot> statements;  // only at the counted window's edges (addStatements)
    std::optional<WaitTally> waits;                // the wait sampler's tally, while it samples
    // What could not be read, by kind ("cpu", "disks", "server", "pressure", "load_generator"),
    // with why (MachineReading::missing, and the load generator's /proc/PID/stat).
    std::map<std::string, std::string> missing;
    double readMs = 0;  // how long reading the machine took (a metrics host: the round trip)
};

// A reading of the machine that takes more than this share of the sample interval delays the
// intervals and the run's start around it (issue 60.7: a metrics host answering after 3 s made
// the first interval 3,937 tps against 1,000 offered): the run is flagged slow-metrics.
constexpr double kSlowReadingShare = 0.10;

struct SystemSample {
    double seconds = 0;
    CpuSample cpu;
    std::vector<DiskSample> disks;
    std::optional<double> loadGeneratorCpuPct, serverCpuPct;  // 100 = one PU
    std::optional<PressureSample> cpuPressure, ioPressure;
    std::optional<ServerCounterRates> server;  // none when not measured, or when the counters were reset
    bool serverCountersReset = false;          // the server's counters were reset inside this interval
    bool clientBound = false;  // the load generator used more than 90% of the PUs it may run on
    std::optional<StatementsWindow> statements;  // the counted window's, when both edges have them
    std::optional<WaitProfile> waits;            // the counted window's, when asked for (maybe unavailable, with why)
    std::optional<CpuProfile> cpuProfile;        // likewise, the server's CPU profile
    // While waits are sampled: the load's average active sessions by wait event over this
    // interval (empty when no read fell in it), and the tally of the window so far. For the
    // Live page; not stored (the window's profile is).
    std::map<std::string, double> waitSessions;
    std::optional<WaitTally> waitsSoFar;
    // Figures missing from this interval (either edge could not read them), by kind, with why:
    // "cpu" leaves `cpu` empty and not to be shown; the others leave their optionals unset and
    // `disks` empty. Never a 0 in their place (issue 60.5).
    std::map<std::string, std::string> missing;
    bool cpuMeasured() const { return !missing.count("cpu"); }
    // The slowest reading of the machine at this interval's edges; for a run's window, of every
    // reading during the run.
    double slowestReadingMs = 0;
    bool slowReadings = false;  // the slowest took over kSlowReadingShare of the sample interval
};

class SystemSampler {
public:
    // Connects for counters, and tells where the server runs (machine()): the embedded
    // server's postmaster is here; a server reached over a connection is on the measured
    // machine when its backend is (postmasterOfBackend), and its processes' CPU is then measured
    // too. Throws Error when it cannot connect or the metrics host fails.
    explicit SystemSampler(MetricsSources sources);
    ~SystemSampler();
    SystemSnapshot snapshot();
    // A snapshot taken once the load's sessions have left the server (at most `timeoutMs`),
    // so that the counters include their last commits.
    SystemSnapshot finalSnapshot(int timeoutMs);
    // pg_stat_statements into a snapshot at an edge of the counted window (`end`: with the
    // statements' text). Nothing when the sources ask for none; never throws (a failed read
    // says why in the snapshot).
    void addStatements(SystemSnapshot& at, bool end);
    // The pg_stat_statements extension's version, or why it is not read ("" when not asked).
    std::string statementsSource() const;
    // Sampling where the sessions wait, from now (again from now when already sampling: the
    // counted window began later, after the warm-up). Nothing when the sources ask for none.
    void startWaits();
    // The samples since startWaits(); none when not asked for; unavailable (with why) when the
    // sampler could not connect or a read failed. Never throws.
    std::optional<WaitProfile> stopWaits();
    // "pg_stat_activity at 10 Hz", or why waits are not sampled ("" when not asked).
    std::string waitsSource() const;
    // Recording the server's CPU profile, from now (again from now when already recording), and
    // its stop: as startWaits and stopWaits. Never throws.
    void startProfile();
    std::optional<CpuProfile> stopProfile();
    // "perf record at 99 Hz", or why the CPU is not profiled ("" when not asked).
    std::string profileSource() const;
    // Why the CPU profile asked for cannot be recorded at all ("" when it can, or is not asked).
    const std::string& profileRefusal() const { return profileWhy_; }
    bool statementsAvailable() const { return statements_ && statements_->available(); }
    SystemSample between(const SystemSnapshot& before, const SystemSnapshot& after) const;
    const MetricsSources& sources() const { return sources_; }
    // The machine the CPU, disk and pressure figures are from, and its role in the run.
    const MetricsMachine& machine() const { return machine_; }

private:
    SystemSnapshot readSystem();  // everything but the counters
    void findLocalServer();       // machine_ when the machine measured is this one
    void openProfiler();
    MetricsSources sources_;
    std::unique_ptr<ServerCounters> counters_;
    std::unique_ptr<StatementStats> statements_;
    std::unique_ptr<WaitSampler> waits_;
    std::string waitsWhy_;  // why there is no wait sampler, when asked for one
    std::unique_ptr<CpuProfiler> profiler_;
    std::string profileWhy_;  // why there is no profiler, when asked for one
    bool remoteStarted_ = false;  // the agent records this window's profile
    std::string remoteWhy_;       // why it does not
    MetricsMachine machine_;
    long machineTicksPerSecond_ = 100;
};

// The fraction above which a run is flagged client-bound: the curve would measure the client.
constexpr double kClientBoundShare = 0.9;

} // namespace scalelab
