#include "TopologyCommand.h"
#include "CommandLine.h"
#include "CommandErrors.h"

#include "topo/Placement.h"
#include "topo/MachineSwitch.h"
#include "topo/SmtControl.h"
#include "topo/Topology.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <vector>

namespace scalelab::app {
namespace {

std::string bytes(uint64_t n) {
    if (n >= (1u << 20) && n % (1u << 20) == 0) return std::to_string(n >> 20) + " MiB";
    if (n >= 1024) return std::to_string(n >> 10) + " KiB";
    return std::to_string(n) + " B";
}

// smt-on, smt-off, then powers of two up to all cores (and all cores), plain and +smt.
std::vector<std::string> scenarios(const TopologyInfo& t) {
    std::vector<std::string> out = {"smt-on", "smt-off"};
    int n = static_cast<int>(t.cores.size());
    std::vector<int> counts;
    for (int k = 1; k < n; k *= 2) counts.push_back(k);
    counts.push_back(n);
    for (int k : counts) {
        out.push_back("cores:" + std::to_string(k));
        if (t.smtAvailable()) out.push_back("cores:" + std::to_string(k) + "+smt");
    }
    return out;
}

} // namespace

int runTopologyCommand(const TopologyArgs& args) {
    return runCommand([&] {
        Topology topo = !args.synthetic.empty() ? Topology::synthetic(args.synthetic)
                        : !args.xml.empty()     ? Topology::fromXml(args.xml)
                                                : Topology::live();
        const TopologyInfo& t = topo.info();
        std::cout << "machine:  " << t.source << (t.cpuModel.empty() ? "" : " (" + t.cpuModel + ")") << "\n"
                  << "          " << t.summary() << ", " << t.numaNodes << " NUMA node" << (t.numaNodes == 1 ? "" : "s") << "\n";
        if (topo.isLive()) {
            SmtControl smt;
            std::string why = smt.whyNotSwitchable();
            std::cout << "smt:      kernel control " << smt.state().value_or("absent")
                      << (why.empty() ? " (switchable with --real-smt)" : "; " + why) << "\n";
            // A switch of ScaleLab's in force: its own run's, or one a killed ScaleLab left
            // (restored by now when this command could; pending when it needs root).
            if (auto pending = readPendingSwitch()) {
                const SwitchRecord& r = pending->record;
                std::cout << "switched: " << r.describe() << " by ScaleLab pid " << r.pid << " since " << r.since
                          << (pending->ownerRunning ? " (running; it puts the machine back when it ends)"
                                                    : " (gone: restore pending, run any scalelab command as root)")
                          << "\n";
            }
            if (!args.saveXml.empty()) {
                topo.saveXml(args.saveXml);
                std::cout << "xml:      written to " << args.saveXml << "\n";
            }
        } else if (!args.saveXml.empty()) {
            throw UsageError("--save-xml writes this machine's topology: not with --synthetic or --xml");
        }
        if (!t.caches.empty()) {
            std::cout << "caches:  ";
            for (const auto& c : t.caches) std::cout << " " << c.name << " " << bytes(c.sizeBytes) << " x" << c.count;
            std::cout << "\n";
        }
        std::cout << "cores:\n";
        for (size_t i = 0; i < t.cores.size(); ++i) {
            CpuSet pus;
            for (int pu : t.cores[i].pus) pus.add(pu);
            std::cout << "  core " << i << " (package " << t.cores[i].package << "): PU " << pus.toList() << "\n";
        }
        struct Row {
            std::string name, server, client, separate;
        };
        std::vector<Row> rows;
        for (const auto& name : scenarios(t)) {
            Placement shared = place(t, parsePlacement(name, false));
            std::string separate;
            try {
                separate = place(t, parsePlacement(name, true)).client.toList();
            } catch (const std::exception&) {
                separate = "(none left)";
            }
            rows.push_back({name, shared.server.toList(), shared.client.toList(), separate});
        }
        // Columns as wide as their longest entry plus two spaces (at least 23): long PU lists
        // of big machines never run into the next column.
        size_t wName = 23, wServer = 23, wClient = 23;
        for (const auto& r : rows) {
            wName = std::max(wName, r.name.size() + 2);
            wServer = std::max(wServer, r.server.size() + 2);
            wClient = std::max(wClient, r.client.size() + 2);
        }
        std::printf("%-*s%-*s%-*s%s\n", static_cast<int>(wName + 2), "scenarios:", static_cast<int>(wServer), "server PUs",
                    static_cast<int>(wClient), "load generator PUs", "separate load generator PUs");
        for (const auto& r : rows)
            std::printf("  %-*s%-*s%-*s%s\n", static_cast<int>(wName), r.name.c_str(), static_cast<int>(wServer),
                        r.server.c_str(), static_cast<int>(wClient), r.client.c_str(), r.separate.c_str());
        std::string warning = smtComparisonWarning(t);
        if (!warning.empty()) std::cout << "note: " << warning << "\n";
        return 0;
    });
}


Command addTopologyCommand(CommandLine& line) {
    auto topology = std::make_shared<TopologyArgs>();
    auto* topoCmd = line.app.add_subcommand("topology", "Print the CPU topology and the PU sets of each placement scenario");
    auto* synth = topoCmd->add_option("--synthetic", topology->synthetic, "An hwloc synthetic topology, e.g. \"pack:2 core:6 pu:2\"");
    topoCmd->add_option("--xml", topology->xml, "An hwloc XML topology (lstopo --of xml)")->excludes(synth);
    topoCmd->add_option("--save-xml", topology->saveXml, "Also write this machine's topology as hwloc XML to FILE (for --xml elsewhere)");
    return {topoCmd, [topology] { return runTopologyCommand(*topology); }};
}

} // namespace scalelab::app
