#include "metrics/MetricsMachine.h"

namespace scalelab {

std::string MetricsMachine::role() const {
    if (server && loadGenerator) return "server and load generator";
    if (server) return "server";
    if (loadGenerator) return "load generator, not the server";
    if (host != "local") return "neither the server nor the clients";
    return "ScaleLab only: neither the server nor the clients";
}

std::string MetricsMachine::describe() const {
    std::string name = hostname.empty() ? host : hostname;
    if (host != "local" && !hostname.empty() && host != hostname) name = host + " [" + hostname + "]";
    return name + " (" + role() + ")";
}

nlohmann::json toJson(const MetricsMachine& m) {
    return {{"host", m.host}, {"hostname", m.hostname}, {"server", m.server}, {"load_generator", m.loadGenerator},
            {"why", m.why}, {"describe", m.describe()}};
}

std::optional<MetricsMachine> metricsMachineFromJson(const nlohmann::json& detail) {
    if (!detail.is_object() || !detail.contains("metrics_machine") || !detail["metrics_machine"].is_object()) return std::nullopt;
    const auto& j = detail["metrics_machine"];
    MetricsMachine m;
    m.host = j.value("host", std::string());
    m.hostname = j.value("hostname", std::string());
    m.server = j.value("server", false);
    m.loadGenerator = j.value("load_generator", false);
    m.why = j.value("why", std::string());
    return m;
}

} // namespace scalelab
