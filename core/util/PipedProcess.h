#pragma once
// A child process that talks in lines: its stdin and stdout are pipes of this object, its
// stderr is read line by line into a callback. What a load host's agent runs on (through ssh,
// or directly for "local"). Started with posix_spawnp (safe in a threaded process), in a
// process group of its own (the terminal's Ctrl-C is for this program); the program is looked
// up in PATH.
#include <sys/types.h>

#include <atomic>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace scalelab {

class PipedProcess {
public:
    using LineHandler = std::function<void(const std::string& line)>;  // called on a reader thread
    using EndHandler = std::function<void()>;

    // Throws Error naming the program when it cannot be started. `onLine` gets each stdout line
    // (without its newline), `onEnd` once stdout is closed (the process ended or closed it);
    // `onErrorLine` each stderr line.
    PipedProcess(const std::vector<std::string>& argv, LineHandler onLine, EndHandler onEnd, LineHandler onErrorLine);
    // Closes stdin, waits up to 5 s for the process to end, then kills it.
    ~PipedProcess();
    PipedProcess(const PipedProcess&) = delete;
    PipedProcess& operator=(const PipedProcess&) = delete;

    bool writeLine(const std::string& line);  // false when the process no longer reads
    void closeInput();
    // Waits for the process (after its stdout ended), and up to a second for its last stderr
    // lines to be handed on (they come on another pipe, read by another thread). Exit code, or
    // 128 + signal.
    int wait();
    pid_t pid() const { return pid_; }

private:
    pid_t pid_ = -1;
    int in_ = -1;
    bool reaped_ = false;
    int status_ = 0;
    std::thread out_, err_;
    std::atomic<bool> errDone_{false};  // stderr read to its end
};

} // namespace scalelab
