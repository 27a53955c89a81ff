#include "sweep/LoadHostsPlan.h"

#include "util/Error.h"

#include <sstream>

namespace scalelab {
namespace {
[[noreturn]] void fail(const std::string& path, const std::string& what) { throw Error(path + ": " + what); }

std::vector<std::string> hostList(const nlohmann::json& v, const std::string& path) {
    if (!v.is_array() || v.empty()) fail(path, "expected a non-empty list of hosts, e.g. [\"bench@client1\", \"bench@client2\"]");
    std::vector<std::string> hosts;
    for (size_t i = 0; i < v.size(); ++i) {
        std::string at = path + "[" + std::to_string(i) + "]";
        if (!v[i].is_string()) fail(at, "expected an ssh destination (user@host, host) or \"local\"");
        std::string h = v[i].get<std::string>();
        if (h.empty() || h.find_first_of(" \t\n") != std::string::npos || h[0] == '-')
            fail(at, "'" + h + "' is not an ssh destination (user@host, host) or \"local\"");
        hosts.push_back(h);
    }
    return hosts;
}
} // namespace

LoadHostsPlan parseLoadHostsPlan(const nlohmann::json& v) {
    LoadHostsPlan p;
    if (v.is_array()) {
        p.hosts = hostList(v, "$.load_hosts");
        return p;
    }
    if (!v.is_object()) fail("$.load_hosts", "expected a list of hosts, or {\"hosts\": [...], \"ssh_command\": ..., \"scalelab\": ...}");
    for (auto it = v.begin(); it != v.end(); ++it)
        if (it.key() != "hosts" && it.key() != "ssh_command" && it.key() != "scalelab")
            fail("$.load_hosts." + it.key(), "unknown member (hosts, ssh_command, scalelab)");
    if (!v.contains("hosts")) fail("$.load_hosts.hosts", "missing: the hosts");
    p.hosts = hostList(v["hosts"], "$.load_hosts.hosts");
    if (v.contains("ssh_command")) {
        if (!v["ssh_command"].is_string()) fail("$.load_hosts.ssh_command", "expected a command, e.g. \"ssh -F ~/.ssh/bench\"");
        std::istringstream words(v["ssh_command"].get<std::string>());
        for (std::string w; words >> w;) p.sshCommand.push_back(w);
        if (p.sshCommand.empty()) fail("$.load_hosts.ssh_command", "is empty");
    }
    if (v.contains("scalelab")) {
        if (!v["scalelab"].is_string() || v["scalelab"].get<std::string>().empty())
            fail("$.load_hosts.scalelab", "expected ScaleLab's path on the hosts");
        p.scalelab = v["scalelab"].get<std::string>();
    }
    return p;
}

} // namespace scalelab
