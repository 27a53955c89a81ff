#include "topo/PlacementRecord.h"

namespace scalelab {

std::string PlacementRecord::describe() const {
    if (method == "none") return "none (server and load generator on all PUs: " + topology + ")";
    std::string s = scenario + " (" + method + "): ";
    s += serverPus.empty() ? "server not bound" : "server PUs " + serverPus;
    return s + ", load generator PUs " + clientPus;
}

nlohmann::json toJson(const PlacementRecord& r) {
    return {{"topology", r.topology}, {"cpu_model", r.cpuModel},     {"smt_available", r.smtAvailable},
            {"smt_control", r.smtControl}, {"scenario", r.scenario}, {"server_pus", r.serverPus},
            {"client_pus", r.clientPus}, {"method", r.method}};
}

} // namespace scalelab
