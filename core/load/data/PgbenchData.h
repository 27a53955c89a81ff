#pragma once
// The pgbench tables (pgbench_accounts, _branches, _tellers, _history): created and loaded
// exactly as `pgbench -i` makes them (same DDL, same rows, same NULLs), or found as pgbench
// left them; and the housekeeping pgbench does before each run.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace scalelab {

struct PgbenchDataInfo {
    std::vector<std::string> presentTables;  // which of the four exist
    bool complete = false;                   // all four
    bool createdByScaleLab = false;          // carries ScaleLab's marker
    int64_t scale = 0;                       // rows of pgbench_branches, when complete
};

PgbenchDataInfo inspectPgbenchData(const std::string& conninfo);

// pgbench's rule for :scale. With a built-in script among the scripts: the row count of
// pgbench_branches (a given -s is ignored, with a note). Custom scripts alone: the given -s
// (`given` > 0), or 1; never the tables' scale.
int64_t scaleForRun(bool usesBuiltin, const PgbenchDataInfo& data, int64_t given,
                    const std::function<void(const std::string&)>& note = {});

enum class PartitionMethod { None, Range, Hash };
PartitionMethod parsePartitionMethod(const std::string& text);  // "range", "hash"; throws Error as pgbench words it

// pgbench -i's options, with its meanings and defaults.
struct PgbenchInitOptions {
    int64_t scale = 1;                  // -s
    int fillfactor = 100;               // -F, 10..100, on accounts, branches and tellers (and partitions)
    std::string steps = "dtgvp";        // -I: d drop, t tables, g client-side data, G server-side data,
                                        //     v vacuum, p primary keys, f foreign keys; ' ' ignored
    int partitions = 0;                 // --partitions: of pgbench_accounts; 0 = not partitioned
    PartitionMethod partitionMethod = PartitionMethod::None;  // --partition-method; range when partitions > 0
    bool unloggedTables = false;        // --unlogged-tables
    bool foreignKeys = false;           // --foreign-keys: appends 'f' to the steps
    bool noVacuum = false;              // -n: removes every 'v' from the steps
    bool quiet = false;                 // -q: a progress note every 5 s instead of every 100,000 rows
    bool reinit = false;                // ScaleLab's own guard: drop tables that ScaleLab created earlier
    std::function<void(const std::string&)> note;
};

// The steps that will run after -n and --foreign-keys, as pgbench computes them.
std::string effectiveInitSteps(const PgbenchInitOptions& options);

// Checks the options as pgbench does before it connects; throws Error in pgbench's words.
void checkInitOptions(const PgbenchInitOptions& options);

// Runs the steps. Refuses, with the reason, to drop tables when reinit is off, and always when
// they were not created by ScaleLab (pgbench -i drops whatever is there; ScaleLab does not
// destroy data it did not make).
void initPgbenchData(const std::string& conninfo, const PgbenchInitOptions& options);

// What a run of the built-in scripts needs of the data, for `scalelab run` and sweeps alike.
struct PgbenchDataNeed {
    bool ownServer = false;   // ScaleLab's embedded server: it may make missing tables
    bool reinit = false;      // make them again even when present (a plan's "init": "reinit")
    int64_t scale = 10;       // the scale they are made at
    bool matchScale = false;  // complete tables at another scale are made again at `scale` (ScaleLab's own only)
    std::string otherwise;    // what a user whose server lacks them can do, for the error
};
// The tables as found, or as made: complete tables are used as they are; missing or partial
// ones are made at need.scale (said through `note`) on ScaleLab's own server or with reinit, and
// refused on a server of the user's with need.otherwise. Only tables ScaleLab made are dropped.
PgbenchDataInfo ensurePgbenchData(const std::string& conninfo, const PgbenchDataNeed& need,
                                  const std::function<void(const std::string&)>& note);

// What pgbench does before a benchmark unless -n: VACUUM pgbench_branches and pgbench_tellers
// and TRUNCATE pgbench_history (and with -v, VACUUM ANALYZE pgbench_accounts too), ignoring
// errors (a custom script may run without these tables). Returns what was done, as
// statements with their outcome, for the run's record.
enum class RunVacuum { None, Pgbench, All };  // -n, default, -v
const char* runVacuumName(RunVacuum v);  // "none", "pgbench", "all"
struct HousekeepingStep {
    std::string statement;
    std::string error;  // empty when it succeeded; pgbench ignores it and continues
};
std::vector<HousekeepingStep> prepareForRun(const std::string& conninfo, RunVacuum vacuum);

} // namespace scalelab
