#pragma once
// A child process that talks in lines: its stdin and stdout are pipes of this object, its
// stderr is read line by line into a callback. What a load host's agent runs on (through ssh,
// or directly for "local"). Started with posix_spawnp (safe in a threaded process), in a
// process group of its own (the terminal's Ctrl-C is for this program); the program is looked
// up in PATH.
#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace scalelab {

class PipedProcess {
public:
    using LineHandler = std::function<void(const std::string& line)>;  // called on a reader thread
    using EndHandler = std::function<void()>;
    // The longest line read from a process (an agent's answer, a load host's result): no honest
    // line comes near it (a result with its latency histograms is tens of KB).
    static constexpr size_t kMaxLineBytes = size_t{16} << 20;

    // Throws Error naming the program when it cannot be started. `onLine` gets each stdout line
    // (without its newline), `onEnd` once stdout is closed (the process ended or closed it);
    // `onErrorLine` each stderr line.
    PipedProcess(const std::vector<std::string>& argv, LineHandler onLine, EndHandler onEnd, LineHandler onErrorLine);
    // Closes stdin, waits up to 5 s for the process to end, then ends its process group.
    ~PipedProcess();
    PipedProcess(const PipedProcess&) = delete;
    PipedProcess& operator=(const PipedProcess&) = delete;

    bool writeLine(const std::string& line);  // false when the process no longer reads
    void closeInput();
    // Waits up to `limit` for the process (after its stdout ended), then ends its process group
    // (SIGTERM, SIGKILL 2 s later: killed() says so); and up to a second for its last stderr
    // lines to be handed on (they come on another pipe, read by another thread). Exit code, or
    // 128 + signal. Every wait has a limit: a command that never exits cannot hang the caller.
    int wait(std::chrono::milliseconds limit);
    bool killed() const { return killed_; }
    pid_t pid() const { return pid_; }

private:
    pid_t pid_ = -1;
    int in_ = -1;
    bool reaped_ = false;
    bool killed_ = false;
    int status_ = 0;
    std::thread out_, err_;
    std::atomic<bool> errDone_{false};  // stderr read to its end

    bool reapWithin(std::chrono::milliseconds limit);  // false: still running at the limit
    bool reap(std::chrono::milliseconds limit);        // false: it had to be killed
};

} // namespace scalelab
