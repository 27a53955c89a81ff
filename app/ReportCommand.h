#pragma once
// `scalelab report`, `scalelab import`, `scalelab export`: an experiment's statistics and files.
#include <string>
#include <vector>

namespace scalelab::app {

struct ReportArgs {
    std::string experiment;
    std::string metric = "tps";
    std::string x;                     // the points' axis: "clients", "rate"; "": as the runs call for (naturalAxis)
    double confidence = 0.95;
    std::vector<std::string> compare;  // {A, B}
    bool paired = false;
    double detectPct = 5;              // run-count advice: the change to detect
    std::string equivalence;           // "2%" or "2": the same within this margin (two one-sided tests)
    bool usl = false;
    bool weighted = false;
    bool peak = false;
    std::string baseline;
    std::string csvDir;
    std::vector<std::string> with;     // other experiments whose series are added
    std::string format;                // "": the console tables; "text" or "markdown": with the experiment's summary, to paste
    bool statements = false;           // the statements' tables instead (pg_stat_statements)
    bool waits = false;                // the wait events' tables instead (where the sessions waited)
    bool profile = false;              // the CPU profiles' tables instead (where the server's CPU went)
    int clients = 0;                   // --statements, --waits: one point's x (client count, or tps offered on the rate axis; 0: each)
    int top = 10;                      // --statements, --waits: rows per table (0: all)
};

struct ImportArgs {
    std::vector<std::string> files;
    std::string series;
    std::string output;
    int cores = 0, pus = 0;  // the machine the runs were measured on, when known
    bool append = false;     // into an existing experiment file
    bool again = false;      // a file whose content is already in the experiment
};

// `scalelab experiments STORE`: the experiments in a results store; --delete NAME removes one.
int runExperimentsCommand(const std::string& store, const std::vector<std::string>& remove);

struct ExportArgs {
    std::string experiment;
    std::string csvDir;
    std::string json;
    std::string png, svg;  // the scaling chart (GUI library)
    std::string folded;                // --folded DIR: each point's CPU profile as folded stacks
    std::string flame;                 // --flame SERIES: the SVG is that point's flame graph
    std::vector<std::string> flameDiff;  // --flame-diff A B: the SVG is B's against A's
    int clients = 0;                   // the flame graphs' x
    std::string html;      // the report (GUI library, for the charts)
    // The view, as the window's Results page has it.
    std::string metric = "tps";
    std::string x;                     // "clients", "rate"; "": as the runs call for (naturalAxis)
    bool log2 = false;
    std::string errorBars = "ci";
    double confidence = 0.95;
    bool usl = false;
    std::vector<std::string> series;
    std::vector<std::string> compare;  // {A, B}
    std::vector<std::string> ratio;    // {A1, B1, A2, B2, ...}: chart B / A instead of the series
    int distribution = 0;              // clients: chart the latency distribution there instead
    std::string rounds;                // "p99": chart that percentile of each round as box plots instead
    std::string latencyTps;            // "p99": chart that percentile against achieved tps instead
    std::string againstTps;            // "p99", "cpu_busy": that percentile or run metric against achieved tps
    bool logLatency = false;           // with latencyTps or againstTps: a log10 y axis
    bool paired = false;
    std::string equivalence;           // HTML report: as report --equivalence
    std::vector<std::string> with;     // other experiments whose series are added
    std::string to;        // a copy of the whole experiment: a new file or a store location
    int width = 1200, height = 800;
    int scale = 1;
};

int runReportCommand(const ReportArgs& args);
int runImportCommand(const ImportArgs& args);
// When the one file to import is an experiment file: copies it whole to the output (a new
// experiment, in a file or a results store) and returns true. False for pgbench outputs and CSV.
bool importsAnExperiment(const ImportArgs& args);
int runExportCommand(const ExportArgs& args);

struct Command;
struct CommandLine;
// Their options; `scalelab experiments`' too (app/StoreCommand.cpp).
Command addImportCommand(CommandLine& line);
Command addReportCommand(CommandLine& line);
Command addExportCommand(CommandLine& line);
Command addExperimentsCommand(CommandLine& line);

} // namespace scalelab::app
