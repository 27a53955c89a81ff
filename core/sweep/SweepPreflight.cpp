#include "sweep/SweepPreflight.h"

#include "metrics/CpuProfiler.h"
#include "metrics/ProcessCpu.h"
#include "metrics/WaitSampler.h"
#include "server/PgBinaries.h"
#include "server/AlterSystem.h"
#include "server/ConnectionCapacity.h"
#include "server/EmbeddedServer.h"
#include "sweep/SweepServers.h"
#include "topo/PlacementScope.h"
#include "store/Pg.h"
#include "util/Error.h"

#include <libpq-fe.h>

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

// A CPU profile asked for that cannot be recorded is refused now, with what to do, never found
// missing from every run afterwards.
void checkCpuProfile(const SweepPlan& plan) {
    if (!plan.cpuProfile) return;
    const std::string member = "$.diagnostics.cpu_profile: ";
    if (plan.agentHost()) return;  // the host's agent is asked when it starts (SweepRunner)
    if (plan.embedded()) {
        // The embedded server runs as this user, or (as root) as postgres, whom root may profile.
        if (std::string why = perfRefusal(); !why.empty()) throw Error(member + why);
        return;
    }
    pgsql::Connection c(plan.conninfo);
    std::string why;
    std::optional<pid_t> postmaster = postmasterOfBackend("/", PQbackendPID(c.handle()), why);
    if (!postmaster) throw Error(member + "the server's backend is not on this machine (" + why + "): perf cannot see its processes");
    if (std::string refusal = cpuProfileRefusal(*postmaster); !refusal.empty()) throw Error(member + refusal);
}

// Waits asked of pg_wait_sampling alone: refused now where it cannot serve.
void checkWaitSource(const SweepPlan& plan) {
    if (!plan.waits || plan.waitSource != WaitSource::WaitSampling) return;
    const std::string member = "$.diagnostics.waits_source: pg_wait_sampling cannot be used: ";
    if (plan.connectPerTransaction)
        throw Error(member + "the load connects for each transaction (-C), too briefly to tell its sessions apart; "
                             "use \"auto\" or \"pg_stat_activity\"");
    if (plan.serverHost) return;  // the host's server says, at each run, through the connection
    if (!plan.embedded()) {
        pgsql::Connection c(plan.conninfo);
        if (std::string why = waitSamplingRefusal(c.handle(), false); !why.empty()) throw Error(member + why);
        return;
    }
    for (const SeriesSpec& series : plan.series) {
        PgSearch search = PgSearch::fromEnvironment();
        if (auto bindir = series.pgBindir ? series.pgBindir : plan.pgBindir) search.explicitBindir = bindir;
        PgBinaries binaries = findPgBinaries(search);
        std::string why = waitSamplingPreloadRefusal(embeddedDataDir(plan, series), binaries.bindir);
        if (!why.empty()) throw Error(member + why);
    }
}

} // namespace

void preflightSweep(const SweepPlan& plan) {
    checkMachineSwitches(plan);
    checkCpuProfile(plan);
    checkWaitSource(plan);
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
