#include "util/ShellCommand.h"

#include "util/ChildSignals.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

extern char** environ;

namespace scalelab {
namespace {

// Starts /bin/sh -c `command`, its stdout on `outFd` when that is not -1.
bool spawnShell(const std::string& command, int outFd, pid_t& pid) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (outFd >= 0) posix_spawn_file_actions_adddup2(&actions, outFd, 1);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    spawnWithDefaultSignals(attr);
    const char* argv[] = {"sh", "-c", command.c_str(), nullptr};
    int rc = posix_spawn(&pid, "/bin/sh", &actions, &attr, const_cast<char* const*>(argv), environ);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&actions);
    return rc == 0;
}

int waitFor(pid_t pid) {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return -1;
    return status;
}

} // namespace

ShellRun runShellCommand(const std::string& command) {
    ShellRun r;
    pid_t pid;
    if (!spawnShell(command, -1, pid)) return r;
    r.started = true;
    r.status = waitFor(pid);
    return r;
}

ShellRun runShellCommandForLine(const std::string& command, int maxLine) {
    ShellRun r;
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return r;
    pid_t pid;
    bool started = spawnShell(command, fds[1], pid);
    close(fds[1]);
    if (!started) {
        close(fds[0]);
        return r;
    }
    r.started = true;
    // fgets: up to maxLine - 1 bytes, to the first newline (kept) or the end of output.
    char c;
    while (static_cast<int>(r.line.size()) < maxLine - 1) {
        ssize_t n = read(fds[0], &c, 1);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        r.line += c;
        r.gotLine = true;
        if (c == '\n') break;
    }
    close(fds[0]);  // what the command still writes gets SIGPIPE (a default action again)
    r.status = waitFor(pid);
    return r;
}

} // namespace scalelab
