#include "util/HostCommand.h"

#include "util/Error.h"

#include <climits>
#include <unistd.h>

namespace scalelab {
namespace {
std::string selfExe() {
    char path[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n <= 0) throw Error("cannot find this program's path (/proc/self/exe) to start a local agent");
    path[n] = '\0';
    return path;
}
} // namespace

std::vector<std::string> HostCommand::agentArgv(const std::string& host) const {
    if (host == "local") return {localProgram.empty() ? selfExe() : localProgram, "agent"};
    std::vector<std::string> argv = ssh;
    argv.push_back(host);
    argv.push_back(remoteProgram);
    argv.push_back("agent");
    return argv;
}

} // namespace scalelab
