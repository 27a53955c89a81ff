#pragma once
// A placement applied for the length of one run: the local server bound (and bound back to
// all PUs afterwards), the load generator's threads bound through the worker hook, and, when
// asked, the machine itself changed for the run and put back afterwards (SMT switched in the
// kernel, or the CPUs outside the placement taken offline, under a MachineLease), and a
// record of what was done.
#include "topo/CpuHotplug.h"
#include "topo/MachineSwitch.h"
#include "topo/PlacementRecord.h"
#include "topo/ServerBinding.h"
#include "topo/Topology.h"

#include <sys/types.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace scalelab {

// How a placement takes effect.
enum class CpuMethod {
    Bind,     // the server and the load generator bound to the placement's PUs (emulation)
    RealSmt,  // smt-on / smt-off: the kernel's SMT control switched for the run
    Offline,  // every PU outside the placement taken offline for the run (like maxcpus=N)
};
// From the two flags of the CLI and plans; throws Error when both are set.
CpuMethod cpuMethodOf(bool realSmt, bool offlineCpus);

// For CpuMethod::Offline: the PUs outside the placement, split into those to take offline and
// those the kernel keeps online (no cpuN/online), which stay online without the server.
struct OfflinePlan {
    CpuSet offline, kept;
};
OfflinePlan offlinePlan(const TopologyInfo& machine, const Placement& placement,
                        const CpuHotplug& hotplug = CpuHotplug());

// Why a placement cannot be applied on this machine now, before anything is switched: nothing
// when it can; otherwise the series member it is about ("placement", "real_smt",
// "offline_cpus") and the reason. `checkFit`: also that the machine has the PUs it names (a
// sweep here learns that at its first run; a server host is asked before any).
struct PlacementRefusal {
    std::string member, why;
};
std::optional<PlacementRefusal> refusePlacementHere(const std::string& placement, bool separate, CpuMethod method,
                                                    bool checkFit);

class PlacementScope {
public:
    // placement "" means none (the record says so). postmaster 0: the server is not local,
    // only the load generator is placed. note: receives warnings (no SMT to compare) and what
    // was restored from an earlier ScaleLab that ended without undoing its switches.
    PlacementScope(const std::string& placement, bool separate, CpuMethod method, pid_t postmaster,
                   const std::function<void(const std::string&)>& note = {});
    ~PlacementScope();
    PlacementScope(const PlacementScope&) = delete;
    PlacementScope& operator=(const PlacementScope&) = delete;

    // For LoadSpec::onWorkerStart; empty without a placement.
    std::function<void(int)> bindWorkers() const;
    const PlacementRecord& record() const { return record_; }
    int loadGeneratorPus() const { return client_.count(); }

private:
    std::unique_ptr<MachineLease> lease_;
    std::unique_ptr<Topology> topo_;
    std::unique_ptr<ServerPlacement> server_;
    pid_t postmaster_ = 0;
    CpuSet client_;
    PlacementRecord record_;
};

} // namespace scalelab
