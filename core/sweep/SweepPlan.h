#pragma once
// A sweep plan: series x client counts x offered rates x data scales x repetitions, and everything a run needs. Read from
// JSON (schema in docs/sweeps.md); every error names the JSON path and what was expected.
#include "load/LoadSpec.h"
#include "load/data/PgbenchData.h"
#include "load/script/Workload.h"
#include "metrics/WaitSource.h"
#include "sweep/LoadHostsPlan.h"
#include "server/ServerSettings.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace scalelab {

struct SeriesSpec {
    std::string label;
    std::string placement;                 // "" = no binding; else a placement scenario
    bool separate = false;
    bool realSmt = false;
    bool offlineCpus = false;  // the PUs outside the placement taken offline for each run
    std::vector<Setting> settings;         // server setting overrides for this series
    std::optional<std::filesystem::path> dataDir, pgBindir;  // another embedded cluster or build
};

struct ThreadsRule {
    enum class Kind { PerClient, Fixed, PerPu };
    Kind kind = Kind::Fixed;
    int count = 1;                          // Fixed
    int threadsFor(int clients, int loadGeneratorPus) const;
};

// Rounds added after the planned ones where a point is not yet precise enough: its own interval,
// or for a named comparison the simultaneous interval of the change at a client count
// (docs/sweeps.md, "Sweeps that stop when sure"). Decided on precision only, never on the call.
struct PrecisionRule {
    double targetPct = 0;      // the half-width to reach, % of the mean (of the change, compared)
    int maxRepetitions = 0;    // no point runs more rounds than this
    std::string baseline, candidate;  // optional: the comparison whose change interval must narrow
    bool paired = false;       // the comparison is judged paired by round (report --paired)
    std::optional<double> equivalencePct;  // the sweep's end says whether B is A within this %
};

// The run settings (core/load/RunSettings.h, read by their table: $.duration,
// $.workload.latency_limit, ...) and the sweep's own members.
struct SweepPlan : RunSettings {
    int version = 1;
    // target: the embedded server (default) or a conninfo
    std::string conninfo;
    std::optional<std::filesystem::path> dataDir, pgBindir;
    std::vector<Setting> serverSettings;
    bool statements = true;                 // pg_stat_statements per run (docs/sweeps.md, "What the server ran")
    bool waits = true;                      // $.diagnostics.waits: where the sessions wait, per run (docs/metrics.md)
    WaitSource waitSource = WaitSource::Auto;  // $.diagnostics.waits_source
    bool cpuProfile = false;                // $.diagnostics.cpu_profile: where the server's CPU goes, per run (perf)
    double profileHz = 99;                  // $.diagnostics.profile_hz
    double reconnectS = 120;                // a target server that stops answering is asked again this long
    std::optional<MetricsHostPlan> metricsHost;  // the conninfo server's machine, read by ScaleLab's agent (docs/hosts.md)
    std::optional<MetricsHostPlan> serverHost;   // target.host: the embedded server runs there, through the agent

    // workload
    // "tprocc": TPROC-C's script set (workload.kind, docs/sweeps.md) on its nine tables; empty:
    // pgbench's scripts or the user's.
    std::string scriptSet;
    double keyingThinking = 0;              // TPROC-C's keying and thinking times, x the specification's (0: none)
    std::vector<std::string> builtins, files;
    std::vector<std::string> defines;       // "NAME=VALUE", as -D
    std::string replay;
    bool shuffle = false;
    std::vector<double> rates{0};          // offered rates (pgbench -R), 0: unthrottled; several: a grid axis
    int64_t scriptScale = 0;                // :scale of custom scripts (pgbench -s; 0: not given, 1); built-ins read pgbench_branches
    // the grid
    std::vector<SeriesSpec> series;
    std::vector<int> clients;
    ThreadsRule threads;
    int repetitions = 1;
    bool interleaved = true;                // else: series by series
    std::optional<PrecisionRule> precision; // none: exactly `repetitions` rounds
    std::optional<uint64_t> seed;
    // between runs
    bool checkpoint = false;
    double pauseS = 0;
    int retries = 1;                         // a failed run runs again at the end of the sweep, this many times
    // data
    std::vector<int64_t> scales{10};        // pgbench's data scale; several: a grid axis, the data rebuilt at each
    bool reinit = false;                     // re-create ScaleLab's pgbench tables at the start
    std::optional<int> warehouses;           // TPROC-C's (data.warehouses); none: the data's, or 1 when there is none

    std::optional<LoadHostsPlan> loadHosts;  // none: the clients run here
    nlohmann::json json;                     // the plan as given, kept with the experiment

    bool embedded() const { return conninfo.empty(); }
    // The machine whose agent reads the server's figures: the server host, or a server of the
    // user's metrics host; null when they are read here.
    const MetricsHostPlan* agentHost() const { return serverHost ? &*serverHost : metricsHost ? &*metricsHost : nullptr; }
    Workload workload() const;               // throws Error (script files) with their file:line:column
    bool tprocc() const;
};

// Throws Error "$.path: problem" for anything not per docs/sweeps.md.
SweepPlan parsePlan(const nlohmann::json& json);
// The plan as it may be written anywhere (the window's settings): target.conninfo without a
// password (libpq's parser; a URI becomes key=value). Anything else is left as it is.
nlohmann::json planWithoutSecrets(nlohmann::json plan);
// Reads and parses a plan file; JSON syntax errors name file, line and column.
SweepPlan loadPlanFile(const std::string& path);

// [1, 2, 4], "1,2,4", "1-64 x2" (doubling), "4-32 +4" (steps). Throws Error("<path>: ...").
std::vector<int> parseClientCounts(const nlohmann::json& value, const std::string& path);

// A rate or a list of rates in the same forms, whole transactions per second.
std::vector<double> parseRates(const nlohmann::json& value, const std::string& path);
// A list of data scales in the same forms.
std::vector<int64_t> parseScales(const nlohmann::json& value, const std::string& path);

// Server setting names unknown to `known` (PostgreSQL's own list): errors with their JSON paths.
// Names with a dot (an extension's) are not checked.
void checkSettingNames(const SweepPlan& plan, const std::set<std::string>& known);
void checkSettingNames(const std::vector<Setting>& settings, const std::string& path, const std::set<std::string>& known);

struct PlannedRun {
    int index = 0;        // position in the order, 0-based
    int repetition = 0;   // round, 1-based
    int series = 0;       // index into plan.series
    int clients = 0;
    double rate = 0;      // offered tps, 0: unthrottled
    int64_t scale = 10;   // the data's scale (data.scale)
};

// Scale by scale (ascending: the data is rebuilt when it changes, so it changes as seldom as it
// can), and at each scale: interleaved (default): round by round; in each round every client
// count (and every rate, ascending, at each) runs once per series, the series in an order shuffled from `seed`, so drift hits every series alike.
// Sequential: series by series, each with all its rounds. Deterministic for a given seed.
std::vector<PlannedRun> expandPlan(const SweepPlan& plan, uint64_t seed);

} // namespace scalelab
