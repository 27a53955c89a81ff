#include "sweep/ExamplePlans.h"

#include "sweep/SweepEstimate.h"
#include "sweep/SweepPlan.h"
#include "util/Error.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace scalelab {
namespace {

// A first run should finish while its user watches: 3 rounds of 10-second runs (the first 2 s
// warm-up, the last 8 counted), client counts up to twice the PUs (1, 2, 4 on a 2-PU laptop),
// the shipped scale of 10, built in seconds. The files keep their longer runs for real studies.
constexpr double kFirstRunDurationS = 10, kFirstRunWarmupS = 2;
constexpr int kFirstRunRounds = 3;

std::string exampleMinutesText(const SweepPlan& plan) {
    SweepEstimate e = estimateSweep(plan);
    if (!e.seconds) return "";
    int minutes = std::max(1, static_cast<int>(std::lround(*e.seconds / 60)));
    return "; " + std::to_string(e.runs) + " runs, about " + std::to_string(minutes) + " min here";
}

std::string clientRangeText(int maxClients) {
    return maxClients == 1 ? "1 client" : "1-" + std::to_string(maxClients) + " clients";
}

} // namespace

ExamplePlan sizedExample(const std::string& name, nlohmann::json shipped, const TopologyInfo& machine,
                         const std::filesystem::path& dataDir) {
    ExamplePlan e;
    e.name = name;
    const int pus = std::max(1, machine.puCount());
    const int cores = std::max<int>(1, static_cast<int>(machine.cores.size()));
    const int maxClients = 2 * pus;
    nlohmann::json p = std::move(shipped);
    p["clients"] = "1-" + std::to_string(maxClients) + " x2";
    p["duration"] = kFirstRunDurationS;
    p["warmup"] = kFirstRunWarmupS;
    p["repetitions"] = kFirstRunRounds;
    const std::string workload = p["workload"].value("builtin", std::string("tpcb-like"));
    if (name == "smt-on-off") {
        e.title = "SMT on against SMT off";
        if (!machine.smtAvailable())
            e.unusable = machine.smtSwitchedOff()
                             ? "SMT is switched off in this kernel: both series would run on the same PUs"
                             : "this machine has no SMT (" + std::to_string(cores) + " cores, " + std::to_string(pus) +
                                   " PUs): both series would run on the same PUs; compare core counts instead";
        e.sentence = "Is hyper-threading good for PostgreSQL here? " + workload + " at " + clientRangeText(maxClients) +
                     " on every PU, then on one PU per core, " + std::to_string(kFirstRunRounds) +
                     " rounds interleaved";
    } else if (name == "cores-half") {
        const int half = std::max(1, cores / 2);
        e.title = "All cores against half";
        p["series"] = {{{"label", "all " + std::to_string(cores) + (cores == 1 ? " core" : " cores")},
                        {"placement", "cores:" + std::to_string(cores)}},
                       {{"label", "half: " + std::to_string(half) + (half == 1 ? " core" : " cores")},
                        {"placement", "cores:" + std::to_string(half)}}};
        if (cores < 2) e.unusable = "this machine has one core: there is no half to compare";
        e.sentence = "How does throughput scale with cores? " + workload + " at " + clientRangeText(maxClients) + " on " +
                     std::to_string(cores) + " cores, then on " + std::to_string(half) + ", " +
                     std::to_string(kFirstRunRounds) + " rounds interleaved";
    } else if (name == "head-vs-patched") {
        e.title = "Two PostgreSQL builds";
        // Each build gets a cluster of its own beside the default one; a patched build not
        // there yet is left out, so both series run this machine's PostgreSQL: HEAD against
        // itself shows what "no difference" looks like before a patch is measured.
        std::string patchedBin;
        for (const auto& s : p["series"])
            if (s.value("label", std::string()) != "HEAD") patchedBin = s.value("pg_bindir", std::string());
        std::error_code ec;
        const bool haveBuild = !patchedBin.empty() && std::filesystem::exists(std::filesystem::path(patchedBin) / "postgres", ec);
        if (dataDir.empty()) e.unusable = "no default data directory for the two clusters (neither XDG_DATA_HOME nor HOME is set)";
        for (auto& s : p["series"]) {
            const bool head = s.value("label", std::string()) == "HEAD";
            if (!dataDir.empty()) s["data_dir"] = dataDir.string() + (head ? "-head" : "-patched");
            if (head || !haveBuild) s.erase("pg_bindir");  // the embedded default: what `scalelab server` finds
        }
        e.sentence = "Does a patch change throughput beyond noise? " + workload + " at " + clientRangeText(maxClients) +
                     (haveBuild ? ", this machine's PostgreSQL against the build in " + patchedBin
                                : ", this machine's PostgreSQL against itself (no build in " + patchedBin +
                                      " yet: put yours in the patched row's pg_bindir) to show what no difference looks like");
    } else {
        throw Error("no example plan named '" + name + "': smt-on-off, cores-half or head-vs-patched");
    }
    e.plan = p;
    e.sentence += exampleMinutesText(parsePlan(p)) + ".";
    return e;
}

} // namespace scalelab
