#include "topo/ServerBinding.h"

#include "util/Error.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace scalelab {

std::vector<pid_t> serverProcesses(pid_t postmaster) {
    std::vector<pid_t> pids{postmaster};
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator("/proc", ec)) {
        std::string name = entry.path().filename().string();
        if (name.empty() || !std::all_of(name.begin(), name.end(), ::isdigit)) continue;
        std::ifstream stat(entry.path() / "stat");
        std::string text;
        std::getline(stat, text);
        auto close = text.rfind(')');
        if (close == std::string::npos) continue;
        std::istringstream rest(text.substr(close + 2));
        char state;
        long ppid = 0;
        if (rest >> state >> ppid && ppid == postmaster && state != 'Z') pids.push_back(static_cast<pid_t>(std::stol(name)));
    }
    return pids;
}

CpuSet allowedCpus(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    if (!in) throw Error("process " + std::to_string(pid) + " is gone");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("Cpus_allowed_list:", 0) == 0) return CpuSet::parse(line.substr(line.find(':') + 1));
    throw Error("no Cpus_allowed_list in /proc/" + std::to_string(pid) + "/status");
}

void bindServer(const Topology& topo, pid_t postmaster, const CpuSet& set) {
    for (pid_t pid : serverProcesses(postmaster)) {
        try {
            topo.bindProcess(pid, set);
            CpuSet got = allowedCpus(pid);
            if (got != set)
                throw Error("server process " + std::to_string(pid) + " runs on PUs " + got.toList() + " after binding to " +
                            set.toList());
        } catch (const Error&) {
            if (pid == postmaster || fs::exists("/proc/" + std::to_string(pid))) throw;
            // A backend that exited while we bound it: nothing left to bind.
        }
    }
}

ServerPlacement::ServerPlacement(const Topology& topo, pid_t postmaster, const CpuSet& set)
    : topo_(topo), postmaster_(postmaster) {
    bindServer(topo, postmaster, set);
}

ServerPlacement::~ServerPlacement() {
    try {
        bindServer(topo_, postmaster_, topo_.info().allPus());
    } catch (...) {
        // The server may be gone (stopped, crashed): nothing to restore then.
    }
}

} // namespace scalelab
