#include "sweep/ServerLogFollower.h"

#include "metrics/RemoteMachine.h"
#include "sweep/RemoteCluster.h"

namespace scalelab {

ServerLogFollower::ServerLogFollower(Agent agent, Lines lines, std::chrono::milliseconds period)
    : agent_(std::move(agent)), lines_(std::move(lines)), period_(period) {
    thread_ = std::thread([this] { loop(); });
}

ServerLogFollower::~ServerLogFollower() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

void ServerLogFollower::follow(RemoteCluster* cluster) {
    std::lock_guard<std::mutex> lock(reading_);
    if (cluster_ && cluster_ != cluster) readOnce();  // the last words of the server left behind
    cluster_ = cluster;
}

void ServerLogFollower::loop() {
    for (;;) {
        {
            std::unique_lock<std::mutex> lock(mutex_);
            wake_.wait_for(lock, period_, [this] { return stop_; });
            if (stop_) break;
        }
        std::lock_guard<std::mutex> lock(reading_);
        readOnce();
    }
    std::lock_guard<std::mutex> lock(reading_);
    readOnce();  // what the server wrote as the sweep ended
}

void ServerLogFollower::readOnce() {
    if (!cluster_) return;
    std::shared_ptr<RemoteMachine> agent = agent_();
    if (!agent || !agent->lost().empty()) return;
    std::vector<std::string> lines = cluster_->followLog(*agent);
    if (!lines.empty() && lines_) lines_(lines);
}

} // namespace scalelab
