#pragma once
// What a load host needs to run its share of a run: the LoadSpec as JSON, scripts by their
// text (a script file need not exist on the host), the connection string as the coordinator
// resolved it. Not carried: CPU placement, the transaction log and the worker hook (a host's
// own), and the share itself (clients, threads, numbering), which the coordinator adds.
#include "load/LoadSpec.h"

#include <nlohmann/json.hpp>

namespace scalelab {

nlohmann::json loadJobJson(const LoadSpec& spec);
// Throws Error naming the field for a job it cannot read; ScriptError for a script that does
// not parse (a newer ScaleLab's syntax).
LoadSpec loadSpecFromJob(const nlohmann::json& job);

} // namespace scalelab
