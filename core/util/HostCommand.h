#pragma once
// How ScaleLab starts its agent on another host: OpenSSH with the user's keys and config (no
// password handling of our own), or this program directly for the host named "local". One
// rule for load hosts and the metrics host (docs/hosts.md).
#include <string>
#include <vector>

namespace scalelab {

// The agent's protocol, one for load hosts and the metrics host (2: the clock exchange).
constexpr int kAgentProtocol = 2;

struct HostCommand {
    // The command before the host name; a test or an unusual setup gives its own
    // ("ssh -F my_config", "ssh -p 2222 -i key").
    std::vector<std::string> ssh{"ssh", "-o", "BatchMode=yes"};
    std::string remoteProgram = "scalelab";  // what ssh runs on a host
    std::string localProgram;                // what "local" runs: this program (empty: /proc/self/exe)

    // The argv that starts `scalelab agent` on `host`. Throws Error when "local" has no program.
    std::vector<std::string> agentArgv(const std::string& host) const;
};

} // namespace scalelab
