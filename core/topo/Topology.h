#pragma once
// The machine's CPUs as hwloc sees them: packages, NUMA nodes, cores and their PUs (SMT
// siblings), caches, CPU model. From the live machine, an hwloc XML file, or a synthetic
// description ("pack:2 core:6 pu:2") to plan for, and test on, machines we do not have.
#include "topo/CpuSet.h"

#include <hwloc.h>
#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

namespace scalelab {

struct CoreInfo {
    int package = 0;
    std::vector<int> pus;  // OS indexes, in hwloc's order: pus[0] is the core's first PU
};

struct CacheInfo {
    std::string name;      // "L1d", "L2", "L3"
    uint64_t sizeBytes = 0;
    int count = 0;
};

// A plain value: what placement and provenance need, free of hwloc handles.
struct TopologyInfo {
    std::string source;    // "this machine", "synthetic: pack:2 core:6 pu:2", "xml: file"
    std::string cpuModel;  // "" when unknown
    int packages = 0;
    int numaNodes = 0;
    std::vector<CoreInfo> cores;  // in logical order: package by package
    std::vector<CacheInfo> caches;
    // This machine only (empty / 0 for synthetic and XML): the kernel's SMT control ("on",
    // "off", "forceoff", "notsupported", "notimplemented", "absent") and how many CPUs are
    // present, online or not. hwloc sees online PUs only: with SMT switched off in the kernel
    // the cores show one PU each, yet the machine has SMT.
    std::string smtControl;
    int presentPus = 0;

    int puCount() const;
    int maxSmtWidth() const;            // PUs per core at most among online PUs (1: none visible)
    // SMT siblings online: the placements smt-off and cores:N+smt differ from smt-on and cores:N.
    bool smtAvailable() const { return maxSmtWidth() > 1; }
    // The machine has SMT, online or switched off in the kernel (control "off" or "forceoff").
    bool smtPresent() const { return smtAvailable() || smtControl == "off" || smtControl == "forceoff"; }
    bool smtSwitchedOff() const { return !smtAvailable() && smtPresent(); }
    CpuSet allPus() const;
    // Every PU of every core that has a PU in `set`: the set plus its SMT siblings.
    CpuSet withSiblings(const CpuSet& set) const;
    // "2 packages, 8 cores, 16 PUs (2-way SMT)", "1 package, 2 cores, 2 PUs online of 4 (SMT
    // present, switched off in the kernel)"
    std::string summary() const;
};

class Topology {
public:
    static Topology live();
    static Topology fromXml(const std::string& path);         // throws Error naming the file
    static Topology synthetic(const std::string& description); // throws Error quoting hwloc's complaint
    ~Topology();
    Topology(Topology&& other) noexcept;
    Topology& operator=(Topology&&) = delete;
    Topology(const Topology&) = delete;

    const TopologyInfo& info() const { return info_; }
    bool isLive() const { return live_; }

    // Binding acts on real threads and processes: refused for XML and synthetic topologies.
    void bindThisThread(const CpuSet& set) const;
    void bindProcess(pid_t pid, const CpuSet& set) const;  // all threads of the process
    // Writes the topology as hwloc XML (what `lstopo --of xml` writes). Throws Error.
    void saveXml(const std::string& path) const;

private:
    Topology(hwloc_topology_t topo, bool live, std::string source);
    void requireLive(const char* what) const;
    hwloc_topology_t topo_;
    bool live_;
    TopologyInfo info_;
};

} // namespace scalelab
