#include "sweep/SweepPreflight.h"

#include "server/AlterSystem.h"
#include "server/ConnectionCapacity.h"
#include "server/EmbeddedServer.h"
#include "sweep/SweepServers.h"
#include "topo/PlacementScope.h"
#include "util/Error.h"

#include <algorithm>
#include <map>

namespace scalelab {

namespace {

// A series that changes the machine (real_smt, offline_cpus) must be able to, here and now:
// refused before the sweep with the reason, not at each of its runs.
void checkMachineSwitches(const SweepPlan& plan) {
    if (plan.serverHost) return;  // the server host's agent is asked, at the sweep's start
    for (size_t i = 0; i < plan.series.size(); ++i) {
        const SeriesSpec& s = plan.series[i];
        if (!s.realSmt && !s.offlineCpus) continue;
        auto refusal = refusePlacementHere(s.placement, s.separate, cpuMethodOf(s.realSmt, s.offlineCpus), false);
        if (refusal) throw Error("$.series[" + std::to_string(i) + "]." + refusal->member + ": " + refusal->why);
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
    std::map<std::string, std::set<std::string>> namesByBuild;
    checkEmbeddedSettingNames(plan, namesByBuild);
}

void checkEmbeddedSettingNames(const SweepPlan& plan, std::map<std::string, std::set<std::string>>& namesByBuild) {
    // A server host's programs are there: its server refuses an unknown name when the setting is
    // applied, before the first run, in the host's words.
    if (!plan.embedded() || plan.serverHost) return;
    // Each series' server is of its own build (pg_bindir) and gets the target's settings and its
    // own; each build's names are asked for once (postgres --describe-config, no server needed).
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
