#pragma once
// A load host's side of a run spread over several hosts (docs/load-hosts.md): `scalelab agent`,
// started by the coordinator through ssh (or directly, for a host named "local"). It talks one
// JSON object per line on stdin and stdout:
//   coordinator -> agent  {"protocol":1,"version":V,"job":{...},"share":{...}}
//   agent -> coordinator  {"hello":{"version":V,"host":NAME}}
//   agent -> coordinator  {"ready":{"connect_s":S}}        every client connected
//   coordinator -> agent  {"clock":true}                   (three times) what does your clock say?
//   agent -> coordinator  {"clock":{"unix_ns":T}}          the host's wall clock now
//   coordinator -> agent  {"go":{"at_unix_ns":T}}          the clock starts at T (the host's wall clock)
//   agent -> coordinator  {"sample":{...}}                 each interval, with its histogram
//   agent -> coordinator  {"result":{...},"host_load":{...}} the end (CPU, network); then it exits
//   agent -> coordinator  {"error":"..."}                  instead, when it cannot go on
//   coordinator -> agent  {"stop":true} or end of input   finish the transactions in flight
#include "util/HostCommand.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <iosfwd>

namespace scalelab {

constexpr int kLoadAgentProtocol = kAgentProtocol;  // one protocol with the metrics host

// Serves one job read from `in`, answering on `out`, or, asked for the machine (a metrics
// host, metrics/RemoteMachine.h), readings of this machine until told to stop; `provenance`
// describes this machine then. Returns the exit status: 0 when a result was sent (a failed run
// is a result too) or the readings ended as asked, 1 when an error was sent.
int serveLoadAgent(std::istream& in, std::ostream& out, std::function<nlohmann::json()> provenance = {});

} // namespace scalelab
