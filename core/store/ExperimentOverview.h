#pragma once
// What an experiment is, in rows a person reads: the file, its runs and notes, the machine
// (topology, SMT state, kernel), PostgreSQL (version, non-default settings), the scripts,
// ScaleLab and library versions, and the plan. One list for the window's Overview page and the
// HTML report, so both say the same.
#include "store/ExperimentStore.h"

#include <string>
#include <vector>

namespace scalelab {

struct OverviewItem {
    std::string section;  // "Experiment", "Machine", "PostgreSQL", ...
    std::string name;
    std::string value;    // may span lines (the plan, a script)
};

// Sessions whose machine, server and scripts are those of the session before are not repeated
// (a resumed sweep on the same box); one that differs is shown under "... (session N, TIME)".
std::vector<OverviewItem> experimentOverview(ExperimentStore& store);

// The machines the runs' CPU, disk and pressure figures are of (docs/hosts.md), as
// MetricsMachine::describe says them, several joined by "; ". "" when no run recorded it (runs
// made before ScaleLab did, imports).
std::string metricsMachinesOf(const std::vector<RunRecord>& runs);

// What a reader of a posted result needs to know, as "Name: value" lines (`report --format
// text|markdown`, the window's Copy as ...): each machine (host, CPU, topology, SMT, kernel,
// memory), PostgreSQL (version, non-default settings), the scripts, the runs (how many counted,
// their measured length, rounds per point, client counts), whose CPU figures. From every
// session's provenance (each different machine or server once) and the runs; what was not
// recorded is left out, never guessed.
std::vector<std::string> experimentSummary(const std::vector<nlohmann::json>& provenance, const std::vector<RunRecord>& runs);

} // namespace scalelab
