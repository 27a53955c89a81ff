#include "topo/Topology.h"

#include "topo/CpuHotplug.h"
#include "topo/SmtControl.h"
#include "util/Error.h"

#include <cerrno>
#include <algorithm>
#include <cstring>
#include <utility>

namespace scalelab {
namespace {

TopologyInfo describe(hwloc_topology_t topo, const std::string& source) {
    TopologyInfo info;
    info.source = source;
    info.packages = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
    info.numaNodes = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
    if (hwloc_obj_t pkg = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, 0))
        if (const char* model = hwloc_obj_get_info_by_name(pkg, "CPUModel")) {
            info.cpuModel = model;
            info.cpuModel.erase(info.cpuModel.find_last_not_of(' ') + 1);  // /proc/cpuinfo pads it
        }
    int ncores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    for (int i = 0; i < ncores; ++i) {
        hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, static_cast<unsigned>(i));
        CoreInfo c;
        hwloc_obj_t pkg = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_PACKAGE, core);
        c.package = pkg ? static_cast<int>(pkg->logical_index) : 0;
        for (hwloc_obj_t pu = hwloc_get_next_obj_inside_cpuset_by_type(topo, core->cpuset, HWLOC_OBJ_PU, nullptr); pu;
             pu = hwloc_get_next_obj_inside_cpuset_by_type(topo, core->cpuset, HWLOC_OBJ_PU, pu))
            c.pus.push_back(static_cast<int>(pu->os_index));
        info.cores.push_back(c);
    }
    if (ncores == 0) {  // some virtual machines report PUs without cores: one core each
        int npus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
        for (int i = 0; i < npus; ++i)
            info.cores.push_back({0, {static_cast<int>(hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, static_cast<unsigned>(i))->os_index)}});
    }
    const std::pair<hwloc_obj_type_t, const char*> caches[] = {
        {HWLOC_OBJ_L1CACHE, "L1d"}, {HWLOC_OBJ_L2CACHE, "L2"}, {HWLOC_OBJ_L3CACHE, "L3"}};
    for (const auto& [type, name] : caches) {
        int n = hwloc_get_nbobjs_by_type(topo, type);
        if (n <= 0) continue;
        hwloc_obj_t first = hwloc_get_obj_by_type(topo, type, 0);
        info.caches.push_back({name, first->attr ? first->attr->cache.size : 0, n});
    }
    return info;
}

} // namespace

int TopologyInfo::puCount() const {
    int n = 0;
    for (const auto& c : cores) n += static_cast<int>(c.pus.size());
    return n;
}

int TopologyInfo::maxSmtWidth() const {
    size_t w = 0;
    for (const auto& c : cores) w = std::max(w, c.pus.size());
    return static_cast<int>(w);
}

CpuSet TopologyInfo::allPus() const {
    CpuSet all;
    for (const auto& c : cores)
        for (int pu : c.pus) all.add(pu);
    return all;
}

CpuSet TopologyInfo::withSiblings(const CpuSet& set) const {
    CpuSet out;
    for (const auto& c : cores) {
        bool touched = false;
        for (int pu : c.pus) touched = touched || set.contains(pu);
        if (touched)
            for (int pu : c.pus) out.add(pu);
    }
    return out;
}

std::string TopologyInfo::summary() const {
    auto plural = [](int n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); };
    std::string s = plural(packages, "package") + ", " + plural(static_cast<int>(cores.size()), "core") + ", " +
                    std::to_string(puCount()) + (puCount() == 1 ? " PU" : " PUs");
    if (presentPus > puCount()) s += " online of " + std::to_string(presentPus);
    if (smtAvailable()) return s + " (" + std::to_string(maxSmtWidth()) + "-way SMT)";
    if (smtControl == "off") return s + " (SMT present, switched off in the kernel)";
    if (smtControl == "forceoff") return s + " (SMT present, forced off in the kernel)";
    return s + " (no SMT)";
}

Topology::Topology(hwloc_topology_t topo, bool live, std::string source)
    : topo_(topo), live_(live), info_(describe(topo, source)) {}

Topology::~Topology() {
    if (topo_) hwloc_topology_destroy(topo_);
}

Topology::Topology(Topology&& other) noexcept
    : topo_(std::exchange(other.topo_, nullptr)), live_(other.live_), info_(std::move(other.info_)) {}

Topology Topology::live() {
    hwloc_topology_t t;
    hwloc_topology_init(&t);
    if (hwloc_topology_load(t) != 0) {
        hwloc_topology_destroy(t);
        throw Error(std::string("hwloc cannot read this machine's topology: ") + strerror(errno));
    }
    Topology topo(t, true, "this machine");
    topo.info_.smtControl = SmtControl().state().value_or("absent");
    if (auto present = CpuHotplug().present()) topo.info_.presentPus = present->count();
    return topo;
}

Topology Topology::fromXml(const std::string& path) {
    hwloc_topology_t t;
    hwloc_topology_init(&t);
    if (hwloc_topology_set_xml(t, path.c_str()) != 0 || hwloc_topology_load(t) != 0) {
        hwloc_topology_destroy(t);
        throw Error("cannot load the hwloc XML topology " + path + " (is it an lstopo --of xml file?)");
    }
    return Topology(t, false, "xml: " + path);
}

Topology Topology::synthetic(const std::string& description) {
    hwloc_topology_t t;
    hwloc_topology_init(&t);
    if (hwloc_topology_set_synthetic(t, description.c_str()) != 0 || hwloc_topology_load(t) != 0) {
        hwloc_topology_destroy(t);
        throw Error("'" + description + "' is not a synthetic topology hwloc understands "
                    "(write levels and counts, e.g. \"pack:2 core:6 pu:2\")");
    }
    return Topology(t, false, "synthetic: " + description);
}

void Topology::saveXml(const std::string& path) const {
    if (hwloc_topology_export_xml(topo_, path.c_str(), 0) != 0)
        throw Error("cannot write the hwloc XML topology " + path + ": " + strerror(errno));
}

void Topology::requireLive(const char* what) const {
    if (!live_) throw Error(std::string("cannot bind ") + what + " with a topology of " + info_.source + ": only with this machine's");
}

void Topology::bindThisThread(const CpuSet& set) const {
    requireLive("a thread");
    if (hwloc_set_cpubind(topo_, set.bitmap(), HWLOC_CPUBIND_THREAD) != 0)
        throw Error("cannot bind a load-generator thread to PUs " + set.toList() + ": " + strerror(errno));
}

void Topology::bindProcess(pid_t pid, const CpuSet& set) const {
    requireLive("a process");
    if (hwloc_set_proc_cpubind(topo_, pid, set.bitmap(), 0) != 0)
        throw Error("cannot bind process " + std::to_string(pid) + " to PUs " + set.toList() + ": " + strerror(errno));
}

} // namespace scalelab
