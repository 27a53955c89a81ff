#pragma once
// `scalelab topology`: the machine table and the PU sets of each placement scenario.
#include <string>

namespace scalelab::app {

struct TopologyArgs {
    std::string synthetic;  // hwloc synthetic description
    std::string xml;        // lstopo --of xml file
};

int runTopologyCommand(const TopologyArgs& args);

} // namespace scalelab::app
