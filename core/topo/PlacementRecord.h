#pragma once
// Provenance of a run's CPU placement: the machine, the scenario, the PU sets actually
// applied, the PUs online, and how (emulated by binding, real SMT control, CPUs taken offline,
// or load generator only).
#include "topo/Placement.h"

#include <nlohmann/json.hpp>

#include <string>

namespace scalelab {

struct PlacementRecord {
    std::string topology;      // TopologyInfo::summary()
    std::string cpuModel;
    bool smtAvailable = false;  // SMT siblings online when the run started
    bool smtPresent = false;    // the machine has SMT, online or switched off in the kernel
    std::string smtControl;    // kernel state: on, off, notsupported, ... or "absent"
    std::string scenario;      // "smt-off", "cores:2 separate", "none"
    std::string serverPus;     // as applied and verified; "" when the server was not bound
    std::string clientPus;
    std::string onlinePus;     // the PUs online during the run (after any switch)
    // "emulated by binding", "real SMT control", "CPUs taken offline",
    // "load generator only (remote server)", "none"
    std::string method;
    std::string describe() const;  // one line for reports
};

nlohmann::json toJson(const PlacementRecord& r);

} // namespace scalelab
