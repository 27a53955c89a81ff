#pragma once
// Ctrl-C and SIGTERM as a clean stop: while an object of this class lives, those signals are
// blocked in every thread and a dedicated thread waits for them and calls `onInterrupt`, so a
// run or a sweep ends cleanly and what was measured is still reported and kept.
#include <pthread.h>
#include <signal.h>

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
        thread_ = std::thread([set, message = std::move(message), onInterrupt = std::move(onInterrupt)] {
            int sig = 0;
            while (sigwait(&set, &sig) == 0 && sig != SIGUSR1) {
                std::fprintf(stderr, "\nscalelab: %s\n", message.c_str());
                onInterrupt();
            }
        });
    }
    ~InterruptToStop() {
        pthread_kill(thread_.native_handle(), SIGUSR1);
        thread_.join();
    }
    InterruptToStop(const InterruptToStop&) = delete;
    InterruptToStop& operator=(const InterruptToStop&) = delete;

private:
    std::thread thread_;
};

} // namespace scalelab::app
