#include "stats/MachineMarkers.h"

#include "topo/Topology.h"

#include <sys/utsname.h>

#include <algorithm>

namespace scalelab {
namespace {

void add(std::vector<MachineMarker>& out, const std::string& who, int cores, int pus) {
    auto push = [&](int at, const std::string& what) {
        MachineMarker m{at, who + ": " + std::to_string(at) + " " + what};
        if (at > 0 && std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
    };
    push(cores, "cores");
    if (pus != cores) push(pus, "PUs");
}

int intOf(const nlohmann::json& j, const char* key) {
    return j.contains(key) && j[key].is_number_integer() ? j[key].get<int>() : 0;
}

} // namespace

std::string thisHostname() {
    utsname u{};
    return uname(&u) == 0 ? std::string(u.nodename) : std::string();
}

ThisMachine thisMachine() {
    ThisMachine m;
    m.hostname = thisHostname();
    TopologyInfo t = Topology::live().info();
    m.cores = static_cast<int>(t.cores.size());
    m.pus = t.puCount();
    return m;
}

std::vector<MachineMarker> machineMarkers(const std::vector<RunRecord>& runs, const std::vector<nlohmann::json>& provenance,
                                          const ThisMachine& here) {
    bool sweepRuns = false;
    std::vector<MachineMarker> out;
    for (const auto& r : runs) {
        if (!countsInStatistics(r)) continue;
        if (r.source == "sweep") {
            sweepRuns = true;
        } else if (r.detail.contains("machine") && r.detail["machine"].is_object()) {
            const auto& m = r.detail["machine"];
            add(out, "imported", intOf(m, "cores"), intOf(m, "pus"));
        }
    }
    if (!sweepRuns) return out;
    // A sweep's runs were measured on the machine its provenance names; an experiment without
    // provenance is being written here, now. When the server ran on another machine (a server
    // host, or a metrics host's), its cores are the ones the curve scales against, not those
    // of the machine that ran the clients.
    bool any = false;
    for (const auto& p : provenance) {
        const char* key = p.contains("server_machine") && p["server_machine"].is_object() && intOf(p["server_machine"], "cores") > 0
                              ? "server_machine"
                              : "machine";
        if (!p.contains(key) || !p[key].is_object()) continue;
        const auto& m = p[key];
        std::string host = m.value("hostname", std::string());
        int cores = intOf(m, "cores"), pus = intOf(m, "pus");
        bool here_ = host == here.hostname && cores == here.cores && pus == here.pus;
        add(out, here_ ? std::string("this machine") : (host.empty() ? std::string("measuring machine") : host), cores, pus);
        any = true;
    }
    if (!any) add(out, "this machine", here.cores, here.pus);
    return out;
}

} // namespace scalelab
