#pragma once
// What the machine and the server were when runs were made, stored with the experiment:
// topology, SMT state, CPU model, kernel, memory, frequency governor; server version and
// non-default settings; ScaleLab and library versions.
#include "load/script/Workload.h"

#include <nlohmann/json.hpp>

#include <string>

namespace scalelab {

nlohmann::json machineProvenance();
// Throws Error when the server cannot be reached.
nlohmann::json serverProvenance(const std::string& conninfo);
// Each script the sweep runs, with its text as it was when the session started (so a result
// can be reproduced after the file changed), and the -D variables.
nlohmann::json scriptProvenance(const Workload& workload);

} // namespace scalelab
