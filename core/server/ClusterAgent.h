#pragma once
// The agent's side of a server host (docs/hosts.md): the embedded server on the agent's machine,
// run as ScaleLab runs it here, for a coordinator elsewhere. One question, one answer:
//   -> {"cluster":{"op":OP,"data_dir":D,"pg_bindir":B,...}}   data_dir/pg_bindir optional
//   <- {"cluster":{"data_dir":D,"notes":[...],...}}            or {"cluster":{"error":"...","notes":[...]}}
// OP: "start" (-> "outcome", "status", "password"), "stop" (-> "stopped"), "status" (-> "status",
// "password" when running), "apply" ("settings":[[name,value],...] -> "reloaded", "restarted_for"),
// "reset" ("names":[...] -> the same), "accepting" (-> "accepting"), "log_size" (-> "size"),
// "log" ("offset", "max" -> "lines"), "keep_running".
// The server listens on every address, TCP with the superuser's password only (scram-sha-256);
// the password goes back over the agent's channel (ssh), never on a command line.
// A server's failure is an answer ("error" inside "cluster"): the agent itself goes on.
#include "server/EmbeddedServer.h"

#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <string>

namespace scalelab {

class ClusterAgent {
public:
    // The answer to {"cluster":...}.
    nlohmann::json answer(const nlohmann::json& question);

private:
    EmbeddedServer& server(const nlohmann::json& q);
    // Servers this agent started stop with it (as the sweep's own do here), unless kept running.
    std::map<std::string, std::unique_ptr<EmbeddedServer>> servers_;  // by data directory
    std::vector<std::string>* notes_ = nullptr;                        // the answer being made
};

nlohmann::json toJson(const ServerStatus& status);
ServerStatus serverStatusFromJson(const nlohmann::json& j);

} // namespace scalelab
