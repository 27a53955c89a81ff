#pragma once
// Runs one LoadSpec: opens every connection, starts the clock, drives the clients from
// worker threads (each an event loop over its clients' sockets), samples each interval,
// and returns the result. run() blocks; requestStop() may be called from any thread.
#include "load/LoadSpec.h"

#include <atomic>
#include <functional>
#include <memory>

namespace scalelab {

struct RunShared;

class LoadRun {
public:
    // `observer` gets each interval's sample on the sampling thread (the one inside run());
    // it must not block for long: the GUI turns it into a queued signal.
    // With `metrics`, each sample and the result carry system metrics taken at the same
    // instants (the sampler must outlive run()).
    explicit LoadRun(LoadSpec spec, std::function<void(const LoadSample&)> observer = {},
                     SystemSampler* metrics = nullptr);
    ~LoadRun();
    LoadRun(const LoadRun&) = delete;
    LoadRun& operator=(const LoadRun&) = delete;

    // Throws Error for an invalid spec. A failure while running (lost connection, connect
    // error, script error) comes back as status Failed with the reason, never as a throw.
    LoadResult run();

    // finishInFlight: stop starting transactions and let running ones end (abandoned after
    // 5 s); otherwise cancel them now. The result is marked Stopped.
    void requestStop(bool finishInFlight = true);

private:
    LoadSpec spec_;
    std::function<void(const LoadSample&)> observer_;
    SystemSampler* metrics_;
    std::shared_ptr<RunShared> shared_;
};

// Raises the soft limit of open files so that `clients` connections fit. Throws Error when
// the hard limit is too low, naming both numbers.
void ensureFileDescriptors(int clients);


} // namespace scalelab
