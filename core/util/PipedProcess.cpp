#include "util/PipedProcess.h"

#include "util/ChildSignals.h"
#include "util/Error.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

extern char** environ;

namespace scalelab {
namespace {
// Reads `fd` to its end, handing each line on; closes it. Each read's new bytes are scanned once
// (the whole buffer was scanned again per 4 KB: a 32 MB line took 3 s of CPU, issue 60.6). A
// line longer than PipedProcess::kMaxLineBytes ends the reading: what is handed on instead says
// so, with the line's start, and is not JSON, so the host that sent it fails saying that.
void readLines(int fd, const PipedProcess::LineHandler& onLine) {
    std::string buffer;
    char chunk[65536];
    size_t scanned = 0;  // bytes of `buffer` known to hold no newline
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        buffer.append(chunk, static_cast<size_t>(n));
        size_t start = 0, nl;
        while ((nl = buffer.find('\n', std::max(start, scanned))) != std::string::npos) {
            if (onLine) onLine(buffer.substr(start, nl - start));
            start = nl + 1;
        }
        buffer.erase(0, start);
        scanned = buffer.size();
        if (buffer.size() > PipedProcess::kMaxLineBytes) {
            if (onLine)
                onLine("(a line of more than " + std::to_string(PipedProcess::kMaxLineBytes >> 20) +
                       " MiB without its end, ScaleLab's limit; it began: " + buffer.substr(0, 200) + ")");
            buffer.clear();
            break;
        }
    }
    if (!buffer.empty() && onLine) onLine(buffer);
    close(fd);
}
} // namespace

PipedProcess::PipedProcess(const std::vector<std::string>& argv, LineHandler onLine, EndHandler onEnd,
                           LineHandler onErrorLine) {
    if (argv.empty()) throw Error("no program to start");
    int in[2], out[2], err[2];
    if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0)
        throw Error(std::string("cannot create pipes for ") + argv[0] + ": " + std::strerror(errno));
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err[1], 2);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    // A process group of its own: Ctrl-C at the terminal reaches this program, which stops the
    // child in order, not the child itself (an ssh killed by it would look like a lost host).
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    spawnWithDefaultSignals(attr);  // not the blocked SIGINT/SIGTERM of the thread starting it
    int rc = posix_spawnp(&pid_, args[0], &actions, &attr, args.data(), environ);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&actions);
    close(in[0]);
    close(out[1]);
    close(err[1]);
    if (rc != 0) {
        close(in[1]);
        close(out[0]);
        close(err[0]);
        throw Error("cannot start " + argv[0] + ": " + std::strerror(rc));
    }
    in_ = in[1];
    int outFd = out[0], errFd = err[0];
    out_ = std::thread([outFd, onLine = std::move(onLine), onEnd = std::move(onEnd)] {
        readLines(outFd, onLine);
        if (onEnd) onEnd();
    });
    err_ = std::thread([this, errFd, onErrorLine = std::move(onErrorLine)] {
        readLines(errFd, onErrorLine);
        errDone_.store(true);
    });
}

PipedProcess::~PipedProcess() {
    closeInput();
    reap(std::chrono::seconds(5));
    if (out_.joinable()) out_.join();
    if (err_.joinable()) err_.join();
}

bool PipedProcess::reapWithin(std::chrono::milliseconds limit) {
    auto deadline = std::chrono::steady_clock::now() + limit;
    while (!reaped_ && pid_ > 0) {
        pid_t r = waitpid(pid_, &status_, WNOHANG);
        if (r == pid_ || (r < 0 && errno != EINTR)) {
            reaped_ = true;
            break;
        }
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return true;
}

bool PipedProcess::reap(std::chrono::milliseconds limit) {
    if (reapWithin(limit)) return true;
    // Its whole process group (an ssh wrapper's children too): asked, then made, to end.
    kill(-pid_, SIGTERM);
    if (reapWithin(std::chrono::seconds(2))) return false;
    kill(-pid_, SIGKILL);
    while (!reaped_) {
        if (waitpid(pid_, &status_, 0) == pid_ || errno != EINTR) reaped_ = true;
    }
    return false;
}

bool PipedProcess::writeLine(const std::string& line) {
    if (in_ < 0) return false;
    std::string text = line + "\n";
    size_t done = 0;
    while (done < text.size()) {
        // MSG_NOSIGNAL is for sockets; a closed pipe must not kill us with SIGPIPE either.
        sigset_t block, old;
        sigemptyset(&block);
        sigaddset(&block, SIGPIPE);
        pthread_sigmask(SIG_BLOCK, &block, &old);
        ssize_t n = write(in_, text.data() + done, text.size() - done);
        int saved = errno;
        if (n < 0 && saved == EPIPE) {
            timespec zero{};
            sigtimedwait(&block, nullptr, &zero);  // the pending SIGPIPE, discarded
        }
        pthread_sigmask(SIG_SETMASK, &old, nullptr);
        if (n < 0 && saved == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<size_t>(n);
    }
    return true;
}

void PipedProcess::closeInput() {
    if (in_ >= 0) close(in_);
    in_ = -1;
}

int PipedProcess::wait(std::chrono::milliseconds limit) {
    killed_ = !reap(limit);
    // A process that exited has closed its stderr, unless a child of its own keeps it open.
    for (int i = 0; i < 100 && !errDone_.load(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (WIFEXITED(status_)) return WEXITSTATUS(status_);
    if (WIFSIGNALED(status_)) return 128 + WTERMSIG(status_);
    return -1;
}

} // namespace scalelab
