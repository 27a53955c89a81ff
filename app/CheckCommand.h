#pragma once
// `scalelab check --workload tprocc`: TPC-C's consistency conditions over TPROC-C's tables,
// after a run (docs/load.md, "Checking the data").
#include "CommandLine.h"

namespace scalelab::app {

Command addCheckCommand(CommandLine& line);

} // namespace scalelab::app
