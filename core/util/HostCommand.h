#pragma once
// How ScaleLab starts its agent on another host: OpenSSH with the user's keys and config (no
// password handling of our own), or this program directly for the host named "local". One
// rule for load hosts and the metrics host (docs/hosts.md).
#include <string>
#include <vector>

namespace scalelab {

// The agent's protocol, one for load hosts and the metrics host (2: the clock exchange).
constexpr int kAgentProtocol = 2;

// Why `host` cannot be an ssh destination ("" when it can): empty, with white space or control
// characters, or starting with '-', which ssh reads as an option wherever it stands
// (-oProxyCommand=... runs a command here; issue 60.8). "local" passes.
std::string sshDestinationProblem(const std::string& host);
// The same for the program ssh runs on the host: OpenSSH parses options again after the
// destination, so a program "-oProxyCommand=..." is an option too.
std::string remoteProgramProblem(const std::string& program);

struct HostCommand {
    // The command before the host name; a test or an unusual setup gives its own
    // ("ssh -F my_config", "ssh -p 2222 -i key").
    std::vector<std::string> ssh{"ssh", "-o", "BatchMode=yes"};
    std::string remoteProgram = "scalelab";  // what ssh runs on a host
    std::string localProgram;                // what "local" runs: this program (empty: /proc/self/exe)

    // The argv that starts `scalelab agent` on `host`. Throws Error when "local" has no program,
    // or when the host or the remote program would be read as an ssh option (checked here too,
    // whatever checked them before: every host command is built here).
    std::vector<std::string> agentArgv(const std::string& host) const;
};

} // namespace scalelab
