#pragma once
// `scalelab topology`: the machine table and the PU sets of each placement scenario.
#include <string>

namespace scalelab::app {

struct TopologyArgs {
    std::string synthetic;  // hwloc synthetic description
    std::string xml;        // lstopo --of xml file
    std::string saveXml;    // write this machine's topology as hwloc XML here
};

int runTopologyCommand(const TopologyArgs& args);

struct Command;
struct CommandLine;
Command addTopologyCommand(CommandLine& line);  // its options

} // namespace scalelab::app
