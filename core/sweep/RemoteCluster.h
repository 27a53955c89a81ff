#pragma once
// The embedded server on a server host (target.host, docs/hosts.md), run by ScaleLab's agent
// there (server/ClusterAgent.h has the questions): the same Cluster a sweep runs here, started,
// set, watched and restarted through the agent, reached by this machine's clients over TCP with
// the superuser's password. The password comes over the agent's channel (ssh) and is kept here
// only in a 0600 libpq password file in a private directory removed with this object; the
// connection string names that file, never the password.
#include "server/Cluster.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

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
};

// The host part of an ssh destination: "bench@db1" -> "db1", "local" -> "127.0.0.1".
std::string addressOfHost(const std::string& sshDestination);

} // namespace scalelab
