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

} // namespace scalelab
