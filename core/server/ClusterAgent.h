#pragma once
// The agent's side of a server host (docs/hosts.md): the embedded server on the agent's machine,
// run as ScaleLab runs it here, for a coordinator elsewhere. One question, one answer:
//   -> {"cluster":{"op":OP,"data_dir":D,"pg_bindir":B,...}}   data_dir/pg_bindir optional
//   <- {"cluster":{"data_dir":D,"notes":[...],...}}            or {"cluster":{"error":"...","notes":[...]}}
// OP: "start" (-> "outcome", "status", "password"), "stop" (-> "stopped"), "status" (-> "status",
// "password" when running), "apply" ("settings":[[name,value],...] -> "reloaded", "restarted_for"),
// "reset" ("names":[...] -> the same), "accepting" (-> "accepting"), "log_size" (-> "size"),
// "log" ("offset", "max" -> "lines"), "follow" ("offset", "max" -> "lines", "offset", "skipped":
// the complete lines since the offset, for a live tail; util/FollowFile.h), "keep_running"; and the server's placement on this machine:
// "check_placement" ("placement", "separate", "method": bind|real_smt|offline -> "refusal":
// {"member","why"} when it cannot be applied here), "place" (the same -> "placement": the
// record, the server bound and the machine switched as asked), "unplace" (-> "unplaced": the
// binding and any switch undone). A placement is undone when the agent ends too, however it ends.
// The server listens on every address, TCP with the superuser's password only (scram-sha-256);
// the password goes back over the agent's channel (ssh), never on a command line.
// A server's failure is an answer ("error" inside "cluster"): the agent itself goes on.
#include "server/EmbeddedServer.h"
#include "topo/PlacementScope.h"

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
    // The questions about one server (all but check_placement and unplace); fills `a`.
    void serverAnswer(const std::string& op, const nlohmann::json& q, nlohmann::json& a);
    // Servers this agent started stop with it (as the sweep's own do here), unless kept running.
    std::map<std::string, std::unique_ptr<EmbeddedServer>> servers_;  // by data directory
    std::vector<std::string>* notes_ = nullptr;                        // the answer being made
    // Declared after the servers: undone before a server it binds is stopped.
    std::unique_ptr<PlacementScope> placement_;
};

nlohmann::json toJson(const ServerStatus& status);
ServerStatus serverStatusFromJson(const nlohmann::json& j);
// "bind", "real_smt", "offline" and back; an unknown name throws Error.
std::string cpuMethodName(CpuMethod m);
CpuMethod cpuMethodFromName(const std::string& name);

} // namespace scalelab
