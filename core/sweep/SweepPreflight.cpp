#include "sweep/SweepPreflight.h"

#include "server/AlterSystem.h"
#include "server/ConnectionCapacity.h"
#include "server/EmbeddedServer.h"
#include "sweep/SweepServers.h"
#include "topo/CpuHotplug.h"
#include "topo/PlacementScope.h"
#include "topo/SmtControl.h"
#include "topo/Topology.h"
#include "util/Error.h"

#include <algorithm>
#include <map>

namespace scalelab {

namespace {

// A series that changes the machine (real_smt, offline_cpus) must be able to, here and now:
// refused before the sweep with the reason, not at each of its runs.
void checkMachineSwitches(const SweepPlan& plan) {
    for (size_t i = 0; i < plan.series.size(); ++i) {
        const SeriesSpec& s = plan.series[i];
        std::string path = "$.series[" + std::to_string(i) + "]";
        if (s.realSmt) {
            std::string why = SmtControl().whyNotSwitchable();
            if (!why.empty()) throw Error(path + ".real_smt: cannot switch SMT for real here: " + why);
        }
        if (s.offlineCpus) {
            TopologyInfo t = Topology::live().info();
            CpuHotplug hotplug;
            // A CPU the kernel keeps online stays (the run says so); any other reason refuses.
            for (int cpu : offlinePlan(t, place(t, parsePlacement(s.placement, s.separate)), hotplug).offline.pus()) {
                std::string why = hotplug.whyNotHotpluggable(cpu);
                if (!why.empty()) throw Error(path + ".offline_cpus: cannot take CPU " + std::to_string(cpu) + " offline: " + why);
            }
        }
    }
}

} // namespace

void preflightSweep(const SweepPlan& plan) {
    checkMachineSwitches(plan);
    if (!plan.embedded()) {
        checkConnectionCapacity(plan.conninfo, *std::max_element(plan.clients.begin(), plan.clients.end()));
        checkSettingNames(plan, settingNames(plan.conninfo));
        return;
    }
    // A server host's programs are there: its server refuses an unknown name when the setting is
    // applied, before the first run, in the host's words.
    if (plan.serverHost) return;
    // Each series' server is of its own build (pg_bindir) and gets the target's settings and its
    // own; each build's names are asked for once (postgres --describe-config, no server needed).
    std::map<std::string, std::set<std::string>> namesByBuild;
    for (size_t i = 0; i < plan.series.size(); ++i) {
        const SeriesSpec& series = plan.series[i];
        ServerOptions o;
        o.dataDir = embeddedDataDir(plan, series);
        o.pgBindir = series.pgBindir ? series.pgBindir : plan.pgBindir;
        std::string build = o.pgBindir ? o.pgBindir->string() : std::string();
        auto known = namesByBuild.find(build);
        if (known == namesByBuild.end()) known = namesByBuild.emplace(build, EmbeddedServer(o).knownSettingNames()).first;
        checkSettingNames(plan.serverSettings, "$.target.settings", known->second);
        checkSettingNames(series.settings, "$.series[" + std::to_string(i) + "].settings", known->second);
    }
}

} // namespace scalelab
