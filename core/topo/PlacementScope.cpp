#include "topo/PlacementScope.h"

#include "util/Error.h"

namespace scalelab {
namespace {

PlacementRecord recordFor(const TopologyInfo& t, const std::string& scenario, const std::string& method) {
    PlacementRecord r;
    r.topology = t.summary();
    r.cpuModel = t.cpuModel;
    r.smtAvailable = t.smtAvailable();
    r.smtControl = SmtControl().state().value_or("absent");
    r.scenario = scenario;
    r.method = method;
    return r;
}

} // namespace

PlacementScope::PlacementScope(const std::string& placement, bool separate, bool realSmt, pid_t postmaster,
                               const std::function<void(const std::string&)>& note)
    : postmaster_(postmaster) {
    if (placement.empty()) {
        if (separate || realSmt) throw Error("separate and real SMT switching need a placement");
        topo_ = std::make_unique<Topology>(Topology::live());
        record_ = recordFor(topo_->info(), "none", "none");
        client_ = topo_->info().allPus();
        record_.serverPus = record_.clientPus = client_.toList();
        topo_.reset();  // nothing to bind
        return;
    }
    PlacementSpec spec = parsePlacement(placement, separate);
    std::string method = "emulated by binding";
    if (realSmt) {
        if (spec.kind != PlacementSpec::Kind::SmtOn && spec.kind != PlacementSpec::Kind::SmtOff)
            throw Error("real SMT switching goes with the placements smt-on and smt-off");
        smt_ = std::make_unique<SmtSwitch>(smtControl_, spec.kind == PlacementSpec::Kind::SmtOn);
        spec = parsePlacement("smt-on", separate);  // the kernel now shows only the PUs wanted
        spec.text = placement;
        method = "real SMT control";
    }
    topo_ = std::make_unique<Topology>(Topology::live());
    Placement p = place(topo_->info(), spec);
    std::string warning = smtComparisonWarning(topo_->info());
    if (note && !warning.empty() && (spec.kind == PlacementSpec::Kind::SmtOn || spec.kind == PlacementSpec::Kind::SmtOff))
        note("warning: " + warning);
    if (postmaster_) server_ = std::make_unique<ServerPlacement>(*topo_, postmaster_, p.server);
    else method = "load generator only (remote server)";
    record_ = recordFor(topo_->info(), p.scenario, method);
    if (postmaster_) record_.serverPus = p.server.toList();
    record_.clientPus = p.client.toList();
    client_ = p.client;
}

PlacementScope::~PlacementScope() {
    server_.reset();
    if (smt_) {
        smt_.reset();  // SMT back as it was; PUs that came back online are in no process's mask yet
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
