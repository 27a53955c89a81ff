#pragma once
// A plan's load hosts (docs/load-hosts.md): every run's clients from these machines.
// Also the server's metrics host (docs/hosts.md).
//   "load_hosts": ["bench@client1", "bench@client2"]
//   "load_hosts": {"hosts": [...], "ssh_command": "ssh -F cfg", "scalelab": "/opt/scalelab/bin/scalelab"}
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace scalelab {

struct LoadHostsPlan {
    std::vector<std::string> hosts;        // ssh destinations, or "local"
    std::vector<std::string> sshCommand;   // empty: ssh -o BatchMode=yes
    std::string scalelab;                  // the program on every host, "local" included; empty: the default
};

// Throws Error "$.load_hosts...: what" for anything else than the two forms above.
LoadHostsPlan parseLoadHostsPlan(const nlohmann::json& v);

// A server's metrics host (docs/hosts.md): the machine a server of the user's runs on, where
// ScaleLab's agent reads the CPU, disks, pressure and the server's processes.
//   "metrics_host": "bench@db1"
//   "metrics_host": {"host": "bench@db1", "ssh_command": "ssh -F cfg", "scalelab": "/opt/scalelab/bin/scalelab"}
//
// The same forms for a server host (target.host), which also takes "address": what this
// machine's clients connect to (default: the destination's host part; "local": 127.0.0.1).
struct MetricsHostPlan {
    std::string host;
    std::vector<std::string> sshCommand;  // empty: ssh -o BatchMode=yes
    std::string scalelab;                 // empty: the default
    std::string address;                  // a server host's only; empty: from `host`
};
// Throws Error "PATH...: what".
MetricsHostPlan parseMetricsHostPlan(const nlohmann::json& v, const std::string& path, bool serverHost = false);

} // namespace scalelab
