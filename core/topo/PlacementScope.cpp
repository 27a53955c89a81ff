#include "topo/PlacementScope.h"

#include "topo/CpuHotplug.h"
#include "topo/SmtControl.h"
#include "util/Error.h"


namespace scalelab {
namespace {

PlacementRecord recordFor(const TopologyInfo& t, const std::string& scenario, const std::string& method) {
    PlacementRecord r;
    r.topology = t.summary();
    r.cpuModel = t.cpuModel;
    r.smtAvailable = t.smtAvailable();
    r.smtPresent = t.smtPresent();
    r.smtControl = t.smtControl.empty() ? "absent" : t.smtControl;
    r.scenario = scenario;
    r.method = method;
    r.onlinePus = CpuHotplug().online().value_or(t.allPus()).toList();
    return r;
}

bool isSmtScenario(const PlacementSpec& spec) {
    return spec.kind == PlacementSpec::Kind::SmtOn || spec.kind == PlacementSpec::Kind::SmtOff;
}

} // namespace

OfflinePlan offlinePlan(const TopologyInfo& machine, const Placement& placement, const CpuHotplug& hotplug) {
    OfflinePlan plan;
    for (int cpu : (machine.allPus() - (placement.server | placement.client)).pus())
        (hotplug.hasOnlineFile(cpu) ? plan.offline : plan.kept).add(cpu);
    return plan;
}

CpuMethod cpuMethodOf(bool realSmt, bool offlineCpus) {
    if (realSmt && offlineCpus)
        throw Error("real SMT switching and taking CPUs offline are two ways of doing one thing: choose one");
    return realSmt ? CpuMethod::RealSmt : offlineCpus ? CpuMethod::Offline : CpuMethod::Bind;
}

std::optional<PlacementRefusal> refusePlacementHere(const std::string& placement, bool separate, CpuMethod method,
                                                    bool checkFit) {
    if (method == CpuMethod::RealSmt) {
        std::string why = SmtControl().whyNotSwitchable();
        if (!why.empty()) return PlacementRefusal{"real_smt", "cannot switch SMT for real here: " + why};
    }
    if (method != CpuMethod::Offline && !checkFit) return std::nullopt;
    TopologyInfo t = Topology::live().info();
    Placement p;
    try {
        p = place(t, parsePlacement(placement, separate));
    } catch (const std::exception& e) {
        return PlacementRefusal{"placement", e.what()};
    }
    if (method == CpuMethod::Offline) {
        // A CPU the kernel keeps online stays (the run says so); any other reason refuses.
        CpuHotplug hotplug;
        for (int cpu : offlinePlan(t, p, hotplug).offline.pus()) {
            std::string why = hotplug.whyNotHotpluggable(cpu);
            if (!why.empty())
                return PlacementRefusal{"offline_cpus", "cannot take CPU " + std::to_string(cpu) + " offline: " + why};
        }
    }
    return std::nullopt;
}

PlacementScope::PlacementScope(const std::string& placement, bool separate, CpuMethod method, pid_t postmaster,
                               const std::function<void(const std::string&)>& note)
    : postmaster_(postmaster) {
    if (placement.empty()) {
        if (separate || method != CpuMethod::Bind)
            throw Error("separate, real SMT switching and taking CPUs offline need a placement");
        topo_ = std::make_unique<Topology>(Topology::live());
        record_ = recordFor(topo_->info(), "none", "none");
        client_ = topo_->info().allPus();
        record_.serverPus = record_.clientPus = client_.toList();
        topo_.reset();  // nothing to bind
        return;
    }
    PlacementSpec spec = parsePlacement(placement, separate);
    // The machine as it is before ScaleLab switches anything: after a real smt-off it would
    // look like a machine without SMT.
    TopologyInfo before = Topology::live().info();
    if (note && isSmtScenario(spec)) {
        std::string warning = smtComparisonWarning(before, method == CpuMethod::RealSmt);
        if (!warning.empty()) note("warning: " + warning);
    }
    std::string methodText = "emulated by binding";
    Placement p;
    if (method == CpuMethod::RealSmt) {
        if (!isSmtScenario(spec)) throw Error("real SMT switching goes with the placements smt-on and smt-off");
        lease_ = std::make_unique<MachineLease>(MachineSwitchDirs::standard(), note);
        lease_->switchSmt(spec.kind == PlacementSpec::Kind::SmtOn);
        spec = parsePlacement("smt-on", separate);  // the kernel now shows only the PUs wanted
        spec.text = placement;
        methodText = "real SMT control";
        topo_ = std::make_unique<Topology>(Topology::live());
        p = place(topo_->info(), spec);
    } else if (method == CpuMethod::Offline) {
        p = place(before, spec);
        // The server stays bound to its PUs, so it does not run on a PU the kernel keeps online.
        OfflinePlan plan = offlinePlan(before, p);
        if (!plan.kept.empty() && note)
            note("note: PU " + plan.kept.toList() + " stays online (the kernel cannot take it offline); the server is "
                 "bound to PUs " + p.server.toList() + " and does not run there");
        lease_ = std::make_unique<MachineLease>(MachineSwitchDirs::standard(), note);
        lease_->takeOffline(plan.offline);
        methodText = "CPUs taken offline";
        topo_ = std::make_unique<Topology>(Topology::live());
    } else {
        topo_ = std::make_unique<Topology>(Topology::live());
        p = place(topo_->info(), spec);
    }
    if (postmaster_) server_ = std::make_unique<ServerPlacement>(*topo_, postmaster_, p.server);
    else methodText = method == CpuMethod::Bind ? "load generator only (remote server)" : methodText;
    record_ = recordFor(before, p.scenario, methodText);  // online PUs read now: after the switch
    if (postmaster_) record_.serverPus = p.server.toList();
    record_.clientPus = p.client.toList();
    client_ = p.client;
}

PlacementScope::~PlacementScope() {
    server_.reset();
    if (lease_) {
        lease_.reset();  // the machine back as it was; PUs that came back are in no process's mask yet
        try {
            if (postmaster_) {
                Topology live = Topology::live();
                bindServer(live, postmaster_, live.info().allPus());
            }
        } catch (...) {
        }
    }
}

std::function<void(int)> PlacementScope::bindWorkers() const {
    if (!topo_) return {};
    return [topo = topo_.get(), set = client_](int) { topo->bindThisThread(set); };
}

} // namespace scalelab
