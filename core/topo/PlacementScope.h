#pragma once
// A placement applied for the length of one run: the local server bound (and bound back to
// all PUs afterwards), the load generator's threads bound through the worker hook, SMT
// switched for real when asked (and switched back), and a record of what was done.
#include "topo/PlacementRecord.h"
#include "topo/ServerBinding.h"
#include "topo/SmtControl.h"
#include "topo/Topology.h"

#include <sys/types.h>

#include <functional>
#include <memory>
#include <string>

namespace scalelab {

class PlacementScope {
public:
    // placement "" means none (the record says so). postmaster 0: the server is not local,
    // only the load generator is placed. note: receives warnings (no SMT to compare).
    PlacementScope(const std::string& placement, bool separate, bool realSmt, pid_t postmaster,
                   const std::function<void(const std::string&)>& note = {});
    ~PlacementScope();
    PlacementScope(const PlacementScope&) = delete;
    PlacementScope& operator=(const PlacementScope&) = delete;

    // For LoadSpec::onWorkerStart; empty without a placement.
    std::function<void(int)> bindWorkers() const;
    const PlacementRecord& record() const { return record_; }
    int loadGeneratorPus() const { return client_.count(); }

private:
    SmtControl smtControl_;
    std::unique_ptr<SmtSwitch> smt_;
    std::unique_ptr<Topology> topo_;
    std::unique_ptr<ServerPlacement> server_;
    pid_t postmaster_ = 0;
    CpuSet client_;
    PlacementRecord record_;
};

} // namespace scalelab
