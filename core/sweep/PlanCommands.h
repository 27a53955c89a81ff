#pragma once
// What a sweep plan makes run beside ScaleLab's own load and PostgreSQL's installed programs:
// the script lines that run shell commands (\shell, \setshell), PostgreSQL programs from a
// directory the plan names, ssh commands and ScaleLab programs on other machines. A plan read
// from an experiment (a file or a shared store, written by someone else) is shown with this
// list and run only once the user accepted it (issue 60.1: a planted \shell ran as whoever
// resumed the plan).
#include "sweep/SweepPlan.h"

#include <string>
#include <vector>

namespace scalelab {

// One line per thing, saying where in the plan it is ("$.series[1].pg_bindir: ...",
// "script a.sql line 3: \shell rm -rf /tmp/x"). Empty when the plan runs nothing of the kind.
// Reads the plan's script files; throws Error as SweepPlan::workload() does.
std::vector<std::string> commandsOfPlan(const SweepPlan& plan);

} // namespace scalelab
