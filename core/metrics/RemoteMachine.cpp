#include "metrics/RemoteMachine.h"

#include "util/Error.h"
#include "util/JsonParse.h"
#include "util/PipedProcess.h"
#include "util/Versions.h"

namespace scalelab {
namespace {
constexpr std::chrono::seconds kExitLimit{5};
} // namespace

RemoteMachine::RemoteMachine(std::string host, const HostCommand& command, int answerTimeoutS, std::string role)
    : host_(std::move(host)), role_(std::move(role)), answerTimeoutS_(answerTimeoutS) {
    try {
        process_ = std::make_unique<PipedProcess>(
            command.agentArgv(host_),
            [this](const std::string& line) {
                {
                    std::lock_guard<std::mutex> lock(mutex_);
                    lines_.push_back(line);
                }
                changed_.notify_all();
            },
            [this] {
                {
                    std::lock_guard<std::mutex> lock(mutex_);
                    ended_ = true;
                }
                changed_.notify_all();
            },
            [this](const std::string& line) {
                std::lock_guard<std::mutex> lock(mutex_);
                stderrTail_.push_back(line);
                if (stderrTail_.size() > 8) stderrTail_.pop_front();
            });
    } catch (const Error& e) {
        throw Error(role_ + " " + host_ + ": " + e.what());
    }
    process_->writeLine(nlohmann::json{{"protocol", kAgentProtocol}, {"version", scalelabVersion()}, {"machine", nlohmann::json::object()}}.dump());
    nlohmann::json hello = next("its hello");
    if (!hello.contains("hello") || !hello["hello"].is_object())
        failed("answered with something else than hello: " + hello.dump().substr(0, 200));
    // A member of the wrong type is said with the host's name, not in nlohmann's words alone.
    try {
        readGreeting(hello);
    } catch (const nlohmann::json::exception& e) {
        failed(std::string("sent a hello ScaleLab cannot read (") + e.what() + ")");
    }
}

void RemoteMachine::readGreeting(const nlohmann::json& hello) {
    std::string version = hello["hello"].value("version", std::string("?"));
    if (version != scalelabVersion())
        failed("runs ScaleLab " + version + ", this is " + scalelabVersion() + ": install the same version on every host");
    nlohmann::json machine = next("what machine it is");
    if (!machine.contains("machine") || !machine["machine"].is_object())
        failed("answered with something else than its machine: " + machine.dump().substr(0, 200));
    const auto& m = machine["machine"];
    hostname_ = m.value("hostname", std::string());
    ticksPerSecond_ = m.value("ticks_per_second", 100L);
    if (m.contains("whole_disks"))
        for (const auto& d : m["whole_disks"]) wholeDisks_.insert(d.get<std::string>());
    provenance_ = m.value("provenance", nlohmann::json::object());
}

RemoteMachine::~RemoteMachine() {
    if (!process_) return;
    process_->writeLine(R"({"stop":true})");
    process_->closeInput();
    process_->wait(kExitLimit);
}

void RemoteMachine::failed(const std::string& why) {
    std::string tail = stderrTail();
    std::string what = role_ + " " + host_ + ": " + why + (tail.empty() || why.find(tail) != std::string::npos ? "" : " (" + tail + ")");
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (lost_.empty()) lost_ = what;
    }
    throw Error(what);
}

std::string RemoteMachine::stderrTail() const {
    std::lock_guard<std::mutex> lock(mutex_);
    std::string tail;
    for (const auto& l : stderrTail_) tail += (tail.empty() ? "" : " / ") + l;
    return tail;
}

std::string RemoteMachine::lost() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return lost_;
}

nlohmann::json RemoteMachine::next(const std::string& waitingFor, int timeoutS) {
    int limit = timeoutS > 0 ? timeoutS : answerTimeoutS_;
    std::string line;
    {
        std::unique_lock<std::mutex> lock(mutex_);
        auto ready = [&] { return !lines_.empty() || ended_; };
        if (!changed_.wait_for(lock, std::chrono::seconds(limit), ready)) {
            lock.unlock();
            failed("no answer within " + std::to_string(limit) + " s while waiting for " + waitingFor);
        }
        if (lines_.empty()) {
            lock.unlock();
            int status = process_->wait(kExitLimit);
            std::string tail = stderrTail();
            failed("disconnected (exit status " + std::to_string(status) + ")" + (tail.empty() ? "" : ": " + tail));
        }
        line = std::move(lines_.front());
        lines_.pop_front();
    }
    nlohmann::json m;
    try {
        m = parseJson(line, false);
    } catch (const Error& e) {
        failed(std::string("sent ") + e.what());
    }
    if (!m.is_object()) failed("sent something that is not JSON: " + line.substr(0, 200));
    if (m.contains("error")) failed(peerText(m["error"]));
    return m;
}

nlohmann::json RemoteMachine::ask(const nlohmann::json& question, const char* answer, const std::string& waitingFor, int timeoutS) {
    std::lock_guard<std::mutex> one(asking_);
    // An agent lost before stays lost: its answers would belong to an earlier question.
    if (std::string gone = lost(); !gone.empty()) throw Error(gone);
    // A question that cannot be written means the connection is gone: the agent's end (its exit
    // status, ssh's last words) says why, as for an answer that never came.
    process_->writeLine(question.dump());
    nlohmann::json m = next(waitingFor, timeoutS);
    if (!m.contains(answer)) failed("answered " + question.dump() + " with " + m.dump().substr(0, 200));
    return m[answer];
}

bool RemoteMachine::findServer(int backendPid, std::string& why) {
    nlohmann::json a = ask({{"server", {{"backend_pid", backendPid}}}}, "server", "whether the server runs there");
    serverFound_ = a.contains("postmaster");
    if (!serverFound_) why = a.value("why", std::string("no reason given"));
    return serverFound_;
}

MachineReading RemoteMachine::read() {
    auto sent = std::chrono::steady_clock::now();
    nlohmann::json a = ask({{"read", true}}, "reading", "a reading");
    roundTripMs_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - sent).count();
    try {
        return machineReadingFromJson(a);
    } catch (const Error& e) {
        failed(e.what());
    } catch (const nlohmann::json::exception& e) {
        failed(std::string("sent a reading ScaleLab cannot read (") + e.what() + ")");
    }
}

} // namespace scalelab
