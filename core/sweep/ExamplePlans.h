#pragma once
// The example plans (resources/plans) sized to the machine at hand, for a first run: the
// window's Setup page offers them while the machine has no experiment yet (issue 65). Each is
// the shipped plan with its client counts, durations and rounds made to fit this machine in a
// few minutes, and a sentence that says what it measures here; one this machine cannot run
// (SMT on/off without SMT) says why instead.
#include "topo/Topology.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace scalelab {

struct ExamplePlan {
    std::string name;      // the file's stem: "smt-on-off", "cores-half", "head-vs-patched"
    std::string title;     // "SMT on against SMT off"
    std::string sentence;  // what it measures here and about how long its runs take
    nlohmann::json plan;   // sized to this machine; parsePlan accepts it
    std::string unusable;  // non-empty: why this machine cannot run it (plan still given)
};

// `shipped` is the example file's plan; `dataDir` the embedded server's default data directory
// (two-build examples keep each build's cluster beside it; empty when there is none, and then
// that example says so). Throws Error for a name that is not one of the three.
ExamplePlan sizedExample(const std::string& name, nlohmann::json shipped, const TopologyInfo& machine,
                         const std::filesystem::path& dataDir);

} // namespace scalelab
