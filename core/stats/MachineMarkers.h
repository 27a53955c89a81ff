#pragma once
// Where a scaling curve is expected to change: the cores and PUs of the machine the runs were
// measured on. Drawn only for machines that some counted run was measured on: another
// machine's imported runs get markers only when the import says its cores and PUs.
#include "store/RunRecord.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace scalelab {

struct MachineMarker {
    int at = 0;          // client count
    std::string label;   // "this machine: 8 cores", "db-host-2: 64 PUs", "imported: 16 cores"
    bool operator==(const MachineMarker& o) const { return at == o.at && label == o.label; }
};

struct ThisMachine {
    std::string hostname;
    int cores = 0, pus = 0;
};
ThisMachine thisMachine();  // uname's nodename and hwloc's counts
std::string thisHostname();

// `provenance`: the experiment's entries ({"machine": {"hostname", "cores", "pus"}, ...}); its
// sweep runs were measured there, and the server ran on its "server_machine" when it has one
// (a server host's or a metrics host's own description): the markers are of that machine. Imported runs carry {"machine": {"cores", "pus"}} in their
// detail when the import was told (`import --cores N --pus M`).
std::vector<MachineMarker> machineMarkers(const std::vector<RunRecord>& runs, const std::vector<nlohmann::json>& provenance,
                                          const ThisMachine& here);

} // namespace scalelab
