#pragma once
// The agent's side of a metrics host (metrics/RemoteMachine.h has the protocol): after the
// hello, this machine's description, then a reading of its /proc for each question, until
// "stop" or the end of input. Anything that is not the protocol ends it with an error.
#include <nlohmann/json.hpp>

#include <functional>
#include <iosfwd>
#include <mutex>

namespace scalelab {

// `send` writes one message; `root` is where /proc and /sys are read (tests give captured ones).
// `more` answers questions this layer does not know (a server host's {"cluster":...}); null for
// one it does not know either. Returns the exit status: 0 when told to stop, 1 after an error.
using AgentQuestion = std::function<nlohmann::json(const nlohmann::json&)>;
int serveMachineAgent(std::istream& in, const std::function<void(const nlohmann::json&)>& send,
                      const std::function<nlohmann::json()>& provenance, const std::string& root = "/",
                      const AgentQuestion& more = {});

} // namespace scalelab
