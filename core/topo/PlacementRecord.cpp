#include "topo/PlacementRecord.h"

namespace scalelab {

std::string PlacementRecord::describe() const {
    if (method == "none") return "none (server and load generator on all PUs: " + topology + ")";
    std::string s = scenario + " (" + method + "): ";
    s += serverPus.empty() ? "server not bound" : "server PUs " + serverPus;
    s += ", load generator PUs " + clientPus;
    if (method == "real SMT control" || method == "CPUs taken offline") s += "; PUs online " + onlinePus;
    return s;
}

nlohmann::json toJson(const PlacementRecord& r) {
    return {{"topology", r.topology}, {"cpu_model", r.cpuModel},     {"smt_available", r.smtAvailable},
            {"smt_control", r.smtControl}, {"scenario", r.scenario}, {"server_pus", r.serverPus},
            {"client_pus", r.clientPus}, {"method", r.method},
            {"smt_present", r.smtPresent}, {"online_pus", r.onlinePus}};
}

} // namespace scalelab
