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
bool hasSpaceOrControl(const std::string& s) {
    for (unsigned char c : s)
        if (c <= 0x20 || c == 0x7f) return true;
    return false;
}
} // namespace

std::string sshDestinationProblem(const std::string& host) {
    if (host.empty()) return "an ssh destination cannot be empty";
    if (host[0] == '-') return "'" + host + "' starts with '-': ssh would read it as an option, not a destination";
    if (hasSpaceOrControl(host)) return "an ssh destination has no spaces or control characters";
    return "";
}

std::string remoteProgramProblem(const std::string& program) {
    if (program.empty()) return "ScaleLab's path on the host cannot be empty";
    if (program[0] == '-') return "'" + program + "' starts with '-': ssh would read it as an option, not the program to run";
    return "";
}

std::vector<std::string> HostCommand::agentArgv(const std::string& host) const {
    if (host == "local") return {localProgram.empty() ? selfExe() : localProgram, "agent"};
    if (std::string why = sshDestinationProblem(host); !why.empty()) throw Error("host " + host + ": " + why);
    if (std::string why = remoteProgramProblem(remoteProgram); !why.empty()) throw Error("host " + host + ": " + why);
    std::vector<std::string> argv = ssh;
    argv.push_back(host);
    argv.push_back(remoteProgram);
    argv.push_back("agent");
    return argv;
}

} // namespace scalelab
