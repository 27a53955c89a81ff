#pragma once
// Ctrl-C and SIGTERM as a clean stop: while an object of this class lives, those signals are
// blocked in every thread and a dedicated thread waits for them and calls `onInterrupt`, so a
// run or a sweep ends cleanly and what was measured is still reported and kept. The command
// then exits as a shell reports a process killed by that signal (130 for SIGINT, 143 for
// SIGTERM: exitCode()), so that a script can tell a stopped run from a finished one.
#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <cstdio>
#include <functional>
#include <string>
#include <thread>

namespace scalelab::app {

class InterruptToStop {
public:
    InterruptToStop(std::string message, std::function<void()> onInterrupt) {
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, SIGINT);
        sigaddset(&set, SIGTERM);
        sigaddset(&set, SIGUSR1);  // the wake-up that ends the waiting thread
        pthread_sigmask(SIG_BLOCK, &set, nullptr);
        thread_ = std::thread([this, set, message = std::move(message), onInterrupt = std::move(onInterrupt)] {
            int sig = 0;
            while (sigwait(&set, &sig) == 0 && sig != SIGUSR1) {
                int none = 0;
                received_.compare_exchange_strong(none, sig);  // the first one names the stop
                std::fprintf(stderr, "\nscalelab: %s\n", message.c_str());
                onInterrupt();
            }
        });
    }
    ~InterruptToStop() {
        pthread_kill(thread_.native_handle(), SIGUSR1);
        thread_.join();
    }
    // 128 + the first signal that stopped the command, or 0 when none came.
    int exitCode() const {
        int sig = received_.load();
        return sig ? 128 + sig : 0;
    }
    InterruptToStop(const InterruptToStop&) = delete;
    InterruptToStop& operator=(const InterruptToStop&) = delete;

private:
    std::atomic<int> received_{0};
    std::thread thread_;
};

} // namespace scalelab::app
