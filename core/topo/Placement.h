#pragma once
// Placement scenarios: which PUs the server and the load generator may use.
//   smt-on        all PUs
//   smt-off       the first PU of every core
//   cores:N       the first N cores, one PU each
//   cores:N+smt   the first N cores with all their PUs
//   pus:LIST[/LIST]  explicit PUs for the server [and the load generator]
// Without "separate" the load generator shares the server's PUs, like a smaller machine
// running both; with it, it gets the PUs left after the server's cores (SMT siblings too).
#include "topo/CpuSet.h"
#include "topo/Topology.h"

#include <string>
#include <vector>

namespace scalelab {

struct PlacementSpec {
    enum class Kind { SmtOn, SmtOff, Cores, CoresWithSmt, Explicit };
    Kind kind = Kind::SmtOn;
    int cores = 0;
    CpuSet serverPus, clientPus;  // Explicit (clientPus may be empty)
    bool separate = false;
    std::string text;             // as written, canonical
};

// Throws Error naming the accepted forms for anything else.
PlacementSpec parsePlacement(const std::string& text, bool separate = false);

struct Placement {
    std::string scenario;  // "smt-off", "cores:4+smt separate", ...
    CpuSet server;
    CpuSet client;
};

// Throws Error when the machine cannot do it (more cores than it has, a PU it lacks, no PU
// left for a separate load generator), saying what it has.
Placement place(const TopologyInfo& topo, const PlacementSpec& spec);

// The honest note for SMT comparisons: non-empty when SMT on and off would be the same PUs:
// a machine without SMT, or one whose SMT is switched off in the kernel (unless realSmt: the
// real switch turns it on for smt-on). Judge the machine before ScaleLab switches anything.
std::string smtComparisonWarning(const TopologyInfo& topo, bool realSmt = false);

} // namespace scalelab
