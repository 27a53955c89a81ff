#pragma once
// `scalelab init` (pgbench -i) and `scalelab run` (pgbench): the load generator from the shell.
#include "Target.h"

#include "load/RunSettings.h"

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace scalelab::app {

struct InitArgs {
    TargetArgs target;
    long long scale = 1;
    int fillfactor = 100;
    std::string steps = "dtgvp";
    int partitions = 0;
    std::string partitionMethod;  // empty: range when partitions > 0
    bool unloggedTables = false;
    bool foreignKeys = false;
    bool noVacuum = false;
    bool quiet = false;
    bool reinit = false;
    // --workload tprocc: TPC-C's nine tables (core/load/data/TpccLoad.h) instead of pgbench's.
    std::string workload = "pgbench";
    int warehouses = 1;
    int jobs = 0;
    std::string seed;  // --random-seed of the TPROC-C data: time (default), rand or a number
    std::vector<std::string> otherWorkloadOptions;  // options of the other workload that were given, for the error
};

struct RunArgs {
    TargetArgs target;
    int clients = 1;
    int threads = 1;
    // -M, -T, -t, -L, --max-tries, -r, -C, ...: registered from their table (core/load/RunSettings.h);
    // -n and -v set settings.vacuum.
    RunSettings settings;
    bool selectOnly = false;     // -S
    bool skipSomeUpdates = false;  // -N
    std::string workload;        // --workload: "" or pgbench (the scripts of -b/-f/-S/-N), tprocc (core/load/data/TpccScripts.h)
    double keyingThinking = 0;   // --keying-thinking: TPROC-C's keying and thinking times, x the specification's
    std::vector<std::string> builtins;
    std::vector<std::string> files;
    std::string replay;
    bool shuffle = false;
    double progress = 0;
    double rate = 0;
    long long scale = 0;         // 0: detect from pgbench_branches (or 1 for custom scripts)
    long long initScale = 10;    // embedded server without data: initialize at this scale
    std::string seed;            // --random-seed: time, rand or a number; empty: PGBENCH_RANDOM_SEED, else time
    std::string showScript;      // --show-script NAME: print it and exit
    std::vector<std::string> defines;  // -D NAME=VALUE
    bool log = false;                // -l
    std::string logPrefix;
    double samplingRate = 0;
    int aggregateInterval = 0;
    bool progressTimestamp = false;
    bool json = false;
    std::string placement;       // empty: no binding
    bool separate = false;
    bool realSmt = false;
    bool offlineCpus = false;
    std::vector<std::string> devices;  // disks to report (default: every whole disk)
    bool partitions = false;
    bool noVacuum = false;       // -n: no vacuum of the pgbench tables before the run
    bool vacuumAll = false;      // -v: also VACUUM ANALYZE pgbench_accounts
    std::vector<std::string> loadHosts;  // --load-hosts: the clients run there (docs/load-hosts.md)
    std::string sshCommand;              // empty: ssh -o BatchMode=yes
    std::string remoteScalelab = "scalelab";
    std::string cpuProfile;              // --cpu-profile FILE: the server's folded stacks over the counted window
    std::string metricsHost;             // --metrics-host: the server's machine, read by ScaleLab's agent (docs/hosts.md)
    std::string metricsListen;           // --metrics-listen ADDR:PORT: a Prometheus endpoint (docs/metrics-endpoint.md)
};

void addTargetOptions(CLI::App* cmd, TargetArgs& target);
int runInitCommand(const InitArgs& args);
int runRunCommand(const RunArgs& args);

struct Command;
struct CommandLine;
// Their options (app/LoadCommandLine.cpp), and `scalelab agent`'s.
Command addInitCommand(CommandLine& line);
Command addRunCommand(CommandLine& line);
Command addAgentCommand(CommandLine& line);

} // namespace scalelab::app
