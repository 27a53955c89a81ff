#pragma once
// Which machine a run's system figures come from (CPU per PU, disks, pressure, the server's
// processes): the server's, the load generator's, both, or neither (ScaleLab coordinating load
// hosts for a server elsewhere). Every place that shows those figures names it, so that the
// CPU of the machine ScaleLab runs on is never read as the server's (docs/hosts.md).
#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace scalelab {

struct MetricsMachine {
    std::string host;      // as the plan or command line names it: "local" (this machine) or a metrics host
    std::string hostname;  // what the machine calls itself
    bool server = false;         // the database server runs there (its backend was found there)
    bool loadGenerator = false;  // the clients run there
    std::string why;             // how the server was told to be there, or why it was not found

    // "vm1 (server and load generator)", "db1 (server)", "vm1 (load generator, not the
    // server)", "vm1 (ScaleLab only: neither the server nor the clients)" (coordinating load
    // hosts); a metrics host is named as given, with its own name when that differs:
    // "db1 [db1.example.com] (server)".
    std::string describe() const;
    // The role alone: "server and load generator", "server", ...
    std::string role() const;
};

nlohmann::json toJson(const MetricsMachine& m);
// A run record's "metrics_machine"; nullopt for runs made before it was recorded.
std::optional<MetricsMachine> metricsMachineFromJson(const nlohmann::json& detail);

} // namespace scalelab
