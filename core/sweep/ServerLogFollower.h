#pragma once
// The live tail of a server host's log (docs/hosts.md): while a sweep runs, a thread of its own
// asks the host's agent each second for the lines the active server wrote since the last time,
// and hands them on (the window's Server log tab). The sweep's thread only says which server
// is active; the agent's questions are asked one after the other with the sweep's own.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace scalelab {

class RemoteCluster;
class RemoteMachine;

class ServerLogFollower {
public:
    // The host's agent now, or null while there is none (lost, not started yet): the follower
    // never starts one, the sweep does.
    using Agent = std::function<std::shared_ptr<RemoteMachine>()>;
    // Called on the follower's thread with each batch of new lines.
    using Lines = std::function<void(const std::vector<std::string>&)>;

    ServerLogFollower(Agent agent, Lines lines, std::chrono::milliseconds period = std::chrono::seconds(1));
    ~ServerLogFollower();  // a last read, then the thread ends
    ServerLogFollower(const ServerLogFollower&) = delete;
    ServerLogFollower& operator=(const ServerLogFollower&) = delete;

    // From now on, the log of `cluster` (null: none). It must outlive this object or the next
    // follow() call, whichever comes first: a read in progress ends before follow() returns.
    void follow(RemoteCluster* cluster);

private:
    void loop();
    void readOnce();  // with reading_ held

    Agent agent_;
    Lines lines_;
    std::chrono::milliseconds period_;
    std::mutex reading_;  // held for a read, and to change cluster_
    std::mutex mutex_;    // guards stop_ (and the wait)
    std::condition_variable wake_;
    RemoteCluster* cluster_ = nullptr;  // guarded by reading_
    bool stop_ = false;
    std::thread thread_;
};

} // namespace scalelab
