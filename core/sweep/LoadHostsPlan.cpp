#include "sweep/LoadHostsPlan.h"

#include "sweep/PlanReader.h"
#include "util/HostCommand.h"

#include <sstream>

namespace scalelab {
namespace {
using plan::fail;  // "PATH: WHAT", as every plan error

std::string hostName(const nlohmann::json& v, const std::string& at) {
    if (!v.is_string()) fail(at, "expected an ssh destination (user@host, host) or \"local\"");
    std::string h = v.get<std::string>();
    if (!sshDestinationProblem(h).empty())
        fail(at, "'" + h + "' is not an ssh destination (user@host, host) or \"local\"");
    return h;
}

std::vector<std::string> hostList(const nlohmann::json& v, const std::string& path) {
    if (!v.is_array() || v.empty()) fail(path, "expected a non-empty list of hosts, e.g. [\"bench@client1\", \"bench@client2\"]");
    std::vector<std::string> hosts;
    for (size_t i = 0; i < v.size(); ++i) hosts.push_back(hostName(v[i], path + "[" + std::to_string(i) + "]"));
    return hosts;
}

// ssh_command and scalelab of an object form; other members than `hostsKey` are refused.
void sshOptions(const nlohmann::json& v, const std::string& path, const char* hostsKey, std::vector<std::string>& ssh,
                std::string& scalelab, bool address = false) {
    for (auto it = v.begin(); it != v.end(); ++it)
        if (it.key() != hostsKey && it.key() != "ssh_command" && it.key() != "scalelab" && (!address || it.key() != "address"))
            fail(path + "." + it.key(), std::string("unknown member (") + hostsKey + ", ssh_command, scalelab" +
                                            (address ? ", address" : "") + ")");
    if (v.contains("ssh_command")) {
        if (!v["ssh_command"].is_string()) fail(path + ".ssh_command", "expected a command, e.g. \"ssh -F ~/.ssh/bench\"");
        std::istringstream words(v["ssh_command"].get<std::string>());
        for (std::string w; words >> w;) ssh.push_back(w);
        if (ssh.empty()) fail(path + ".ssh_command", "is empty");
    }
    if (v.contains("scalelab")) {
        if (!v["scalelab"].is_string() || v["scalelab"].get<std::string>().empty())
            fail(path + ".scalelab", "expected ScaleLab's path on the hosts");
        scalelab = v["scalelab"].get<std::string>();
        if (std::string why = remoteProgramProblem(scalelab); !why.empty()) fail(path + ".scalelab", why);
    }
}
} // namespace

LoadHostsPlan parseLoadHostsPlan(const nlohmann::json& v) {
    LoadHostsPlan p;
    if (v.is_array()) {
        p.hosts = hostList(v, "$.load_hosts");
        return p;
    }
    if (!v.is_object()) fail("$.load_hosts", "expected a list of hosts, or {\"hosts\": [...], \"ssh_command\": ..., \"scalelab\": ...}");
    sshOptions(v, "$.load_hosts", "hosts", p.sshCommand, p.scalelab);
    if (!v.contains("hosts")) fail("$.load_hosts.hosts", "missing: the hosts");
    p.hosts = hostList(v["hosts"], "$.load_hosts.hosts");
    return p;
}

MetricsHostPlan parseMetricsHostPlan(const nlohmann::json& v, const std::string& path, bool serverHost) {
    MetricsHostPlan p;
    if (v.is_string()) {
        p.host = hostName(v, path);
        return p;
    }
    if (!v.is_object())
        fail(path, std::string("expected a host (\"db1\", \"bench@db1\"), or {\"host\": ..., \"ssh_command\": ..., \"scalelab\": ...") +
                       (serverHost ? ", \"address\": ...}" : "}"));
    sshOptions(v, path, "host", p.sshCommand, p.scalelab, serverHost);
    if (!v.contains("host")) fail(path + ".host", "missing: the host");
    p.host = hostName(v["host"], path + ".host");
    if (v.contains("address")) {
        if (!v["address"].is_string() || v["address"].get<std::string>().empty() ||
            v["address"].get<std::string>().find_first_of(" \t\n,") != std::string::npos)
            fail(path + ".address", "expected the host name or IP address this machine's clients connect to, e.g. \"10.0.0.5\"");
        p.address = v["address"].get<std::string>();
    }
    return p;
}

} // namespace scalelab
