#include "util/Subprocess.h"

#include "util/ChildSignals.h"
#include "util/Error.h"

#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

extern char** environ;

namespace scalelab {
namespace {

std::vector<std::string> buildEnvironment(const ProcessOptions& options) {
    std::vector<std::string> env;
    for (char** e = environ; *e != nullptr; ++e) {
        std::string entry(*e);
        std::string name = entry.substr(0, entry.find('='));
        bool overridden = false;
        for (const auto& [key, value] : options.env) overridden = overridden || key == name;
        if (!overridden) env.push_back(entry);
    }
    for (const auto& [key, value] : options.env)
        if (value) env.push_back(key + "=" + *value);
    return env;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
    std::vector<char*> out;
    for (auto& s : strings) out.push_back(s.data());
    out.push_back(nullptr);
    return out;
}

// Between fork and exec only async-signal-safe calls are allowed.
[[noreturn]] void childFail(const char* what) {
    const char* reason = strerror(errno);
    (void)!write(STDERR_FILENO, what, strlen(what));
    (void)!write(STDERR_FILENO, ": ", 2);
    (void)!write(STDERR_FILENO, reason, strlen(reason));
    (void)!write(STDERR_FILENO, "\n", 1);
    _exit(127);
}

void switchUser(const UserIdentity& user) {
    if (setgroups(user.groups.size(), user.groups.data()) != 0) childFail("setgroups");
    if (setgid(user.gid) != 0) childFail("setgid");
    if (setuid(user.uid) != 0) childFail("setuid");
}

} // namespace

ProcessResult runProcess(const std::vector<std::string>& argv, const ProcessOptions& options) {
    if (argv.empty() || argv[0].empty() || argv[0][0] != '/')
        throw Error("internal: runProcess needs an absolute program path, got '" +
                    (argv.empty() ? std::string() : argv[0]) + "'");
    std::vector<std::string> args = argv;
    std::vector<std::string> envStrings = buildEnvironment(options);
    std::vector<char*> argp = pointers(args);
    std::vector<char*> envp = pointers(envStrings);

    int out[2];
    if (pipe2(out, O_CLOEXEC) != 0) throw Error(std::string("cannot create a pipe: ") + strerror(errno));
    int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    int err = -1;
    if (!options.stderrFile.empty()) {
        err = open(options.stderrFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (err < 0) {
            int e = errno;
            close(out[0]); close(out[1]); close(devnull);
            throw Error("cannot create " + options.stderrFile + ": " + strerror(e));
        }
    }

    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(out[0]); close(out[1]); close(devnull);
        if (err >= 0) close(err);
        throw Error("cannot start " + argv[0] + ": fork failed: " + strerror(e));
    }
    if (pid == 0) {
        dup2(devnull, STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        dup2(err >= 0 ? err : out[1], STDERR_FILENO);
        // Nothing else of ours (sockets, database files) may leak into the server.
        close_range(3, ~0U, 0);
        resetSignalsInChild();
        if (options.runAs) switchUser(*options.runAs);
        if (chdir(options.workDir.c_str()) != 0) childFail("chdir");
        execve(argp[0], argp.data(), envp.data());
        childFail(argp[0]);
    }
    close(out[1]);
    close(devnull);
    if (err >= 0) close(err);

    ProcessResult result;
    auto deadline = std::chrono::steady_clock::now() + options.timeout;
    char buf[4096];
    for (;;) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            result.timedOut = true;
            kill(pid, SIGKILL);
            break;
        }
        pollfd pfd{out[0], POLLIN, 0};
        int n = poll(&pfd, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) continue;
        ssize_t got = read(out[0], buf, sizeof buf);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        result.output.append(buf, static_cast<size_t>(got));
    }
    close(out[0]);

    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (WIFEXITED(status)) result.exitCode = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
    return result;
}

void rewriteFileAs(const std::optional<UserIdentity>& user, const std::string& path, const std::string& text) {
    auto write = [&]() -> int {  // 0, or an errno
        int fd = open(path.c_str(), O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) return errno;
        size_t done = 0;
        while (done < text.size()) {
            ssize_t n = ::write(fd, text.data() + done, text.size() - done);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                int err = n < 0 ? errno : EIO;
                close(fd);
                return err;
            }
            done += static_cast<size_t>(n);
        }
        return close(fd) == 0 ? 0 : errno;
    };
    if (!user) {
        if (int err = write()) throw Error("cannot write " + path + ": " + strerror(err));
        return;
    }
    pid_t pid = fork();
    if (pid < 0) throw Error(std::string("fork failed: ") + strerror(errno));
    if (pid == 0) {
        if (setgroups(user->groups.size(), user->groups.data()) != 0 || setgid(user->gid) != 0 || setuid(user->uid) != 0)
            _exit(255);
        _exit(write() & 0xff);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 255;
    if (code == 255) throw Error("cannot switch to user '" + user->name + "' to write " + path);
    if (code != 0) throw Error("cannot write " + path + " as " + user->name + ": " + strerror(code));
}

bool accessibleAs(const UserIdentity& user, const std::string& path, int mode) {
    const char* p = path.c_str();
    pid_t pid = fork();
    if (pid < 0) throw Error(std::string("fork failed: ") + strerror(errno));
    if (pid == 0) {
        if (setgroups(user.groups.size(), user.groups.data()) != 0 || setgid(user.gid) != 0 ||
            setuid(user.uid) != 0)
            _exit(2);
        _exit(access(p, mode) == 0 ? 0 : 1);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (!WIFEXITED(status) || WEXITSTATUS(status) == 2)
        throw Error("cannot switch to user '" + user.name + "' to check access to " + path);
    return WEXITSTATUS(status) == 0;
}

std::string shellQuote(const std::string& word) {
    if (!word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == std::string::npos)
        return word;
    std::string out = "'";
    for (char c : word) {
        if (c == '\'') out += "'\\''";
        else out += c;
    }
    return out + "'";
}

std::string shellQuote(const std::vector<std::string>& argv) {
    std::string out;
    for (const auto& a : argv) {
        if (!out.empty()) out += ' ';
        out += shellQuote(a);
    }
    return out;
}

} // namespace scalelab
