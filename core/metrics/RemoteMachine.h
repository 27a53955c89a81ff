#pragma once
// Another machine's /proc, read by ScaleLab's agent there (`scalelab agent`, started through
// ssh as for load hosts, or directly for "local"): the metrics host of a server that runs
// elsewhere (docs/hosts.md). The agent answers one JSON line for each question:
//   this -> agent  {"protocol":P,"version":V,"machine":{}}
//   agent -> this  {"hello":{"version":V,"host":NAME,"protocol":P}}
//   agent -> this  {"machine":{"hostname":NAME,"ticks_per_second":N,"whole_disks":[...],"provenance":{...}}}
//   this -> agent  {"server":{"backend_pid":N}}     is the server this backend belongs to here?
//   agent -> this  {"server":{"postmaster":N}} or {"server":{"why":"..."}}
//   this -> agent  {"read":true}                     the machine now (MachineReading)
//   agent -> this  {"reading":{...}}
//   this -> agent  {"profile":{"check":true}}        can perf profile here? (CpuProfiler.h)
//   agent -> this  {"profile":{"refusal":"..."}}     "" when it can
//   this -> agent  {"profile":{"start":{"hz":H}}}    profile the server found above, from now
//   agent -> this  {"profile":{"started":true}} or {"profile":{"unavailable":"..."}}
//   this -> agent  {"profile":{"stop":true}}         the profile since the start
//   agent -> this  {"profile":{...}}                 as stored with a run (CpuProfile's JSON)
//   this -> agent  {"stop":true} or end of input     the agent exits
// A reading is taken when asked, so it belongs to the moment this machine asked, within half
// the round trip (kept as roundTripMs); no clock offset is needed.
#include "metrics/MachineReading.h"
#include "util/HostCommand.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <set>
#include <string>

namespace scalelab {

class PipedProcess;

class RemoteMachine {
public:
    // Starts the agent and reads its hello. Throws Error "metrics host HOST: ..." when it cannot
    // be started, answers with something else, runs another version (both named), or is silent
    // for `answerTimeoutS`.
    // `role` names the host in every message ("metrics host", "server host").
    RemoteMachine(std::string host, const HostCommand& command, int answerTimeoutS = 60, std::string role = "metrics host");
    ~RemoteMachine();
    RemoteMachine(const RemoteMachine&) = delete;
    RemoteMachine& operator=(const RemoteMachine&) = delete;

    const std::string& host() const { return host_; }         // as the user named it
    const std::string& hostname() const { return hostname_; } // what it calls itself
    const nlohmann::json& provenance() const { return provenance_; }
    long ticksPerSecond() const { return ticksPerSecond_; }
    bool isWholeDisk(const std::string& name) const { return wholeDisks_.count(name) > 0; }

    // Whether the server that runs backend `backendPid` runs there: true, or false with why
    // not in `why`. From then on every reading carries that server's processes' CPU.
    bool findServer(int backendPid, std::string& why);
    bool serverFound() const { return serverFound_; }

    MachineReading read();  // throws Error naming the host when the agent is gone or silent
    // Why it stopped answering, once it did ("" while it answers): a run it was measuring lost
    // its machine's figures, and a new agent is needed.
    std::string lost() const;
    double roundTripMs() const { return roundTripMs_; }  // the last reading's

    // One question and its answer's member `answer`, waiting up to `timeoutS` (0: the
    // agent's answer timeout). Questions from several threads are asked one after the other
    // (a sweep's server control between runs, the sampler's readings during them).
    nlohmann::json ask(const nlohmann::json& question, const char* answer, const std::string& waitingFor, int timeoutS = 0);

private:
    nlohmann::json next(const std::string& waitingFor, int timeoutS = 0);
    [[noreturn]] void failed(const std::string& why);  // records it as lost() too
    // The hello and the machine the agent describes (the constructor's second half).
    void readGreeting(const nlohmann::json& hello);
    std::string stderrTail() const;                    // the agent's (ssh's) last lines on stderr

    std::string host_, hostname_, role_;
    int answerTimeoutS_;
    nlohmann::json provenance_;
    long ticksPerSecond_ = 100;
    std::set<std::string> wholeDisks_;
    bool serverFound_ = false;
    double roundTripMs_ = 0;

    std::mutex asking_;  // one question at a time
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<std::string> lines_, stderrTail_;  // guarded by mutex_
    bool ended_ = false;                          // guarded by mutex_
    std::string lost_;                            // guarded by mutex_
    std::unique_ptr<PipedProcess> process_;
};

} // namespace scalelab
