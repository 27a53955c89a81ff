#pragma once
// The embedded server on a server host (target.host, docs/hosts.md), run by ScaleLab's agent
// there (server/ClusterAgent.h has the questions): the same Cluster a sweep runs here, started,
// set, watched and restarted through the agent, reached by this machine's clients over TCP with
// the superuser's password. The password comes over the agent's channel (ssh) and is kept here
// only in a 0600 libpq password file in a private directory removed with this object; the
// connection string names that file, never the password.
#include "server/Cluster.h"
#include "topo/PlacementScope.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace scalelab {

class RemoteMachine;
class TempDir;

class RemoteCluster : public Cluster {
public:
    // The server host's agent now: started again when the last one was lost; throws Error when
    // it cannot be.
    using Agent = std::function<std::shared_ptr<RemoteMachine>()>;
    using Note = std::function<void(const std::string&)>;
    // `address`: what this machine's clients connect to. `dataDir`/`pgBindir` as on that machine;
    // none: the agent's defaults there.
    RemoteCluster(std::string host, std::string address, Agent agent, std::optional<std::filesystem::path> dataDir,
                  std::optional<std::filesystem::path> pgBindir, Note note);
    ~RemoteCluster() override;

    StartOutcome start() override;
    bool stop() override;
    ServerStatus status() const override;
    void keepRunning() override;
    std::string connectionString(const std::string& database = {}) const override;
    AppliedSettings applySettings(const std::vector<Setting>& settings) override;
    AppliedSettings resetSettings(const std::vector<std::string>& names) override;
    bool acceptingConnections() const override;
    std::uintmax_t logSize() const override;
    std::vector<std::string> logLinesSince(std::uintmax_t offset, size_t maxLines = 20) const override;
    std::string where() const override;
    bool local() const override { return false; }

    // Binds the server there (and switches that machine's SMT or CPUs as asked) until unplace();
    // returns the record the host made. Throws Error in the host's words.
    nlohmann::json place(const std::string& placement, bool separate, CpuMethod method);
    // Undoes it there. Throws Error when the host cannot be asked (an agent that is gone has
    // undone it already, as it ended).
    void unplace();

    // The server log's lines since the last call, for the window's live tail (the first call:
    // its last `backlog` lines), asked of `agent` directly: safe on another thread than the
    // sweep's, as it touches nothing else of this object and starts no agent. A "(N lines left
    // out)" line stands for a burst larger than `maxLines`. Nothing when the agent cannot answer.
    std::vector<std::string> followLog(RemoteMachine& agent, size_t backlog = 20, size_t maxLines = 200);

private:
    // Asks the agent; its notes go to `note`; a server's error is thrown as Error naming the host.
    nlohmann::json ask(const std::string& op, nlohmann::json extra = nlohmann::json::object(), int timeoutS = 0) const;
    void remember(const nlohmann::json& answer) const;  // the status and password an answer carries

    std::string host_, address_;
    Agent agent_;
    std::optional<std::filesystem::path> dataDir_, pgBindir_;
    Note note_;
    std::unique_ptr<TempDir> private_;          // holds the password file
    mutable std::string where_;                 // the data directory as the host resolved it
    mutable int passwordPort_ = 0;              // the port the password file names
    std::mutex following_;                      // guards the two below (followLog's thread)
    std::uintmax_t followOffset_ = 0;
    bool followed_ = false;
};

// A series' placement on the server host `host`, asked of its agent before the sweep (docs/hosts.md):
// nothing when it can be applied there now; otherwise the series member it is about and why,
// in the host's words. Throws Error when the agent cannot be asked.
std::optional<PlacementRefusal> checkPlacementOnHost(RemoteMachine& agent, const std::string& host,
                                                     const std::string& placement, bool separate, CpuMethod method);

// A series' placement on the server host for the length of one run: placed on construction,
// undone on destruction (never throws: a host that cannot be asked says so through `note`).
class ServerHostPlacement {
public:
    ServerHostPlacement(RemoteCluster& cluster, const std::string& placement, bool separate, CpuMethod method,
                        std::function<void(const std::string&)> note);
    ~ServerHostPlacement();
    ServerHostPlacement(const ServerHostPlacement&) = delete;
    ServerHostPlacement& operator=(const ServerHostPlacement&) = delete;
    const nlohmann::json& record() const { return record_; }

private:
    RemoteCluster& cluster_;
    std::function<void(const std::string&)> note_;
    nlohmann::json record_;
};

// The host part of an ssh destination: "bench@db1" -> "db1", "local" -> "127.0.0.1".
std::string addressOfHost(const std::string& sshDestination);

} // namespace scalelab
