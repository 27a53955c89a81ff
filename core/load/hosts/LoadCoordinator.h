#pragma once
// The coordinator of a run spread over load hosts (docs/load-hosts.md): starts `scalelab agent`
// on each host through OpenSSH (the user's keys and ssh config; no password handling of our
// own) or directly for a host named "local", checks that every host runs this version, shares
// the clients out, starts every host's clock at one agreed moment once all are connected, and
// merges what they send back (LoadHosts.h). A host that fails or goes away fails the run, named.
#include "load/hosts/LoadHosts.h"

#include <nlohmann/json.hpp>

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace scalelab {

struct LoadHostsOptions {
    std::vector<std::string> hosts;
    // The command before the host name; a test or an unusual setup gives its own
    // ("ssh -F my_config", "ssh -p 2222 -i key").
    std::vector<std::string> ssh{"ssh", "-o", "BatchMode=yes"};
    std::string remoteProgram = "scalelab";  // what ssh runs on a host
    std::string localProgram;                // what "local" runs: this program (empty: /proc/self/exe)
    double startMarginS = 0.5;               // the agreed start lies this far after the last host is ready
    int answerTimeoutS = 120;                // for hello and ready (ssh login, connecting the clients)
    // A libpq password file every host gets a copy of for the run: a server host's superuser
    // password (docs/hosts.md). Sent over each host's agent channel (ssh), kept there 0600 in a
    // private directory removed when the agent ends, and named by its conninfo's passfile.
    std::string sharedPassfile;
};

struct HostOutcome {
    HostShare share;
    std::string version, hostname;
    LoadResult result;
    std::optional<double> cpuBusyPct, loadGeneratorCpuPct;  // over the run, from the host's /proc
    bool clientBound = false;
    std::optional<double> rxMBps, txMBps;                   // network, every interface but lo
    ClockOffset clock;  // the host's clock against this one's; its start was moved by it
};

// A host's share and what it measured, as `run --json` and a sweep's run record keep it.
nlohmann::json toJson(const HostOutcome& host);

struct LoadHostsResult {
    LoadResult merged;
    std::vector<HostOutcome> hosts;
    double coordinatorCpuS = 0;  // this process's CPU from the start to the last result (reading, merging)
};

class LoadCoordinator {
public:
    // `spec`: the whole run (every host's clients and threads together). Its seed is fixed here
    // when it is empty, so every host draws from the same sequence.
    LoadCoordinator(LoadHostsOptions options, LoadSpec spec);
    ~LoadCoordinator();

    // Throws Error naming the host when one cannot be started, answers wrongly or in time, runs
    // another version, or goes away. `observer` gets each interval merged over the hosts.
    LoadHostsResult run(std::function<void(const LoadSample&)> observer = {});
    // From any thread: every host finishes its transactions in flight and reports.
    void requestStop();

    // The argv that starts the agent on `host`.
    std::vector<std::string> agentCommand(const std::string& host) const;

private:
    struct Host;
    struct Event {
        size_t host = 0;
        bool end = false;  // the host's output ended (it exited or the connection broke)
        std::string line;
    };
    void post(Event e);
    // The next line or end from any host; throws Error after `timeoutS` (0: no limit).
    Event next(int timeoutS, const std::string& waitingFor);
    [[noreturn]] void hostFailed(size_t host, const std::string& why);
    // A host's line as a JSON object; anything else (not JSON, nested past the limit) fails the host.
    nlohmann::json lineOf(const Event& e);
    void sendAll(const std::string& line);
    void measureClock(size_t host);

    LoadHostsOptions options_;
    LoadSpec spec_;
    std::vector<std::unique_ptr<Host>> hosts_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<Event> events_;  // guarded by mutex_
    std::mutex sendMutex_;      // a stop from another thread beside the run's own messages
};

} // namespace scalelab
