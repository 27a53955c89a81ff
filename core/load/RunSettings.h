#pragma once
// The options of one run that a user sets, and their one table of names (issue 38, item 2).
//
// A setting is given on the command line (`scalelab run -L 50`), in a sweep plan
// ($.workload.latency_limit) and sent to load hosts in the job's JSON (latency_limit_ms); the
// table below names it in all three, with its help line and its bounds. The command line's
// options (app/LoadCommandLine.cpp), the plan's members (core/sweep/SweepPlan.cpp), the job's
// JSON (runSettingsJson) and the bound checks of all three are made from it. Adding a setting:
// a member here, a row in makeRows (RunSettings.cpp), the worker that uses it, the docs.
//
// The grid's axes (clients, threads, offered rate, data scale) and what only one road has
// (scripts, -D, -l, -P, placement) are not settings: they vary per run or per command.
#include "load/data/PgbenchData.h"
#include "load/script/Workload.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace scalelab {

// pgbench's limits of -T and -t (ints): a longer run is a mistake, and 2^31 s in nanoseconds
// still fits the clock's int64.
constexpr double kMaxDurationS = 2147483647.0;
constexpr int64_t kMaxTransactionsPerClient = 2147483647;

// How the clients speak to the server once connected (docs/load-engines.md). libpq always
// connects and authenticates; "wire" then speaks the protocol on the socket itself (no
// PGresult per query, no Describe unless a result is stored), "libpq" stays with libpq.
enum class LoadEngine { Auto, Wire, Libpq };
const char* loadEngineName(LoadEngine engine);           // "auto", "wire", "libpq"
std::optional<LoadEngine> loadEngineFromName(std::string_view name);

struct RunSettings {
    QueryMode mode = QueryMode::Simple;
    // Auto: wire wherever it can (not for scripts with pipelines, nor TLS or GSSAPI-encrypted
    // connections), else libpq. SCALELAB_ENGINE=wire|libpq in the environment overrides Auto.
    LoadEngine engine = LoadEngine::Auto;
    double durationS = 0;              // timed run (-T) when > 0 ...
    int64_t transactionsPerClient = 0; // ... or a fixed count per client (-t)
    double warmupS = 0;                // timed runs: the first seconds are run but not counted
    double latencyLimitMs = 0;         // -L: transactions above it are counted late; with a rate, late slots are skipped
    // Failed transactions (serialization/deadlock after the last try) above this share of all
    // ended transactions make the run failed: its numbers would describe retries, not work.
    // Negative: any share is allowed (pgbench's behaviour).
    double maxFailedPct = -1;
    int maxTries = 1;                  // tries of a transaction that fails by serialization or deadlock
    double sampleIntervalS = 1.0;
    RunVacuum vacuum = RunVacuum::Pgbench;  // before the run, as pgbench (-n: None, -v: All)
    bool reportPerCommand = false;     // -r: latency, failures and retries of each command
    bool connectPerTransaction = false;  // -C: a new connection for each transaction
    bool failuresDetailed = false;     // --failures-detailed: failures by kind in the log
    bool verboseErrors = false;        // --verbose-errors: each error and retry on stderr
    // --continue-on-error (pgbench 19): a transaction ending in an SQL error other than a
    // serialization failure or a deadlock is rolled back and counted as failed ("other"), and
    // its client goes on; without it the client aborts (pgbench 15-18).
    bool continueOnError = false;
    // --exit-on-abort (pgbench 17): the first client that aborts ends the whole run at once
    // (LoadResult::exitedOnAbort), instead of the others going on to an incomplete result.
    bool exitOnAbort = false;
    // --debug: each client's steps on stderr, as pgbench -d (15) / --debug (17) prints them
    // ("client 0 sending ...", "client 0 receiving", "client 0 executing \set ...").
    bool debug = false;
};

// A setting held as one of a few named values (an enum), as its index in `names`.
struct RunSettingChoice {
    std::vector<std::pair<const char*, int>> names;  // word, the enum's value; the first is listed first
    int (*get)(const RunSettings&);
    void (*set)(RunSettings&, int);
    std::string list() const;                        // "auto, wire, libpq"
    const char* nameOf(int value) const;
    std::optional<int> valueOf(std::string_view word) const;
};

using RunSettingValue = std::variant<double RunSettings::*, int RunSettings::*, int64_t RunSettings::*, bool RunSettings::*,
                                     RunSettingChoice>;

struct RunSettingRow {
    const char* noun;  // in messages: "latency limit"
    const char* cli;   // CLI11's names, "-L,--latency-limit"; "" where the command line has none
    const char* plan;  // the plan's member below $: "workload.latency_limit", "duration"; "" where a plan has none
    const char* job;   // the load job's JSON key; "" where the setting acts in one process only
    const char* doc;   // the command line's help line
    RunSettingValue value;
    // Numbers: a value must be >= min (> min with minExclusive), and <= max.
    double min = 0;
    bool minExclusive = false;
    double max = 1e300;
    const char* rule = "";     // "must be <rule>": "a positive number of seconds"
    const char* maxText = "";  // "must be at most <max><maxText>": " s, pgbench's -T limit"; "": the rule says it
    // 0 is the default and means none ($.workload.latency_limit: 0). A plan may say 0; the
    // command line, as pgbench, wants the option left out instead.
    bool zeroIsNone = false;
};

const std::vector<RunSettingRow>& runSettingRows();

// "must be ... (got X)" when `value` is outside the row's bounds; "" when inside.
std::string boundProblem(const RunSettingRow& row, double value);

// The settings of the rows with a job key, and back: any key missing, mistyped or out of
// bounds is an Error naming it ("load job: ...").
nlohmann::json runSettingsJson(const RunSettings& s);
void readRunSettingsJson(const nlohmann::json& j, RunSettings& s);

// Each row's own bounds, in the words "latency limit must be ... (got -1)".
void checkRunSettingBounds(const RunSettings& s);

} // namespace scalelab
