#include "server/ClusterAgent.h"

#include "server/TcpAuth.h"
#include "util/Error.h"
#include "util/FollowFile.h"

namespace scalelab {
namespace {

// The superuser's password, as the server's start kept it (DATA/scalelab.pgpass); "" without one.
std::string keptPassword(const std::filesystem::path& dataDir) {
    std::string text = readFileNoFollow(passwordFileOf(dataDir));
    std::string first = text.substr(0, text.find('\n'));
    size_t colon = first.rfind(':');
    return colon == std::string::npos ? std::string() : first.substr(colon + 1);
}

nlohmann::json toJson(const AppliedSettings& a) { return {{"reloaded", a.reloaded}, {"restarted_for", a.restartedFor}}; }

} // namespace

std::string cpuMethodName(CpuMethod m) {
    return m == CpuMethod::RealSmt ? "real_smt" : m == CpuMethod::Offline ? "offline" : "bind";
}

CpuMethod cpuMethodFromName(const std::string& name) {
    for (CpuMethod m : {CpuMethod::Bind, CpuMethod::RealSmt, CpuMethod::Offline})
        if (cpuMethodName(m) == name) return m;
    throw Error("no such way of placing: " + name);
}

nlohmann::json toJson(const ServerStatus& s) {
    return {{"running", s.running}, {"pid", s.pid}, {"port", s.port}, {"listen", s.listenAddress}};
}

ServerStatus serverStatusFromJson(const nlohmann::json& j) {
    ServerStatus s;
    s.running = j.value("running", false);
    s.pid = j.value("pid", 0);
    s.port = j.value("port", 0);
    s.listenAddress = j.value("listen", std::string());
    return s;
}

EmbeddedServer& ClusterAgent::server(const nlohmann::json& q) {
    std::filesystem::path dir = q.contains("data_dir") ? std::filesystem::path(q["data_dir"].get<std::string>()) : defaultDataDir();
    auto& s = servers_[dir.string()];
    if (!s) {
        ServerOptions o;
        o.dataDir = dir;
        if (q.contains("pg_bindir")) o.pgBindir = std::filesystem::path(q["pg_bindir"].get<std::string>());
        o.listenEverywhere = true;
        o.note = [this](const std::string& line) {
            if (notes_) notes_->push_back(line);
        };
        try {
            s = std::make_unique<EmbeddedServer>(o);
        } catch (...) {
            servers_.erase(dir.string());
            throw;
        }
    }
    return *s;
}

nlohmann::json ClusterAgent::answer(const nlohmann::json& question) {
    std::vector<std::string> notes;
    notes_ = &notes;
    nlohmann::json a = nlohmann::json::object();
    try {
        const nlohmann::json& q = question.at("cluster");
        std::string op = q.at("op").get<std::string>();
        if (op == "check_placement") {  // the machine as it is now; no server needed
            if (auto refusal = refusePlacementHere(q.at("placement").get<std::string>(), q.value("separate", false),
                                                   cpuMethodFromName(q.at("method").get<std::string>()), true))
                a["refusal"] = {{"member", refusal->member}, {"why", refusal->why}};
        } else if (op == "unplace") {
            a["unplaced"] = placement_ != nullptr;
            placement_.reset();
        } else {
            serverAnswer(op, q, a);
        }
    } catch (const nlohmann::json::exception& e) {
        a["error"] = std::string("a question this agent cannot read: ") + e.what();
    } catch (const std::exception& e) {
        a["error"] = e.what();
    }
    notes_ = nullptr;
    a["notes"] = notes;
    return {{"cluster", a}};
}

void ClusterAgent::serverAnswer(const std::string& op, const nlohmann::json& q, nlohmann::json& a) {
    EmbeddedServer& s = server(q);
    a["data_dir"] = s.dataDir().string();
    auto withPassword = [&] {
        ServerStatus st = s.status();
        a["status"] = toJson(st);
        if (st.running) a["password"] = keptPassword(s.dataDir());
    };
    if (op == "start") {
        a["outcome"] = s.start() == Cluster::StartOutcome::Started ? "started" : "reused";
        withPassword();
    } else if (op == "status") {
        withPassword();
    } else if (op == "stop") {
        a["stopped"] = s.stop();
    } else if (op == "apply") {
        std::vector<Setting> settings;
        for (const auto& pair : q.at("settings")) settings.push_back({pair.at(0).get<std::string>(), pair.at(1).get<std::string>()});
        a.update(toJson(s.applySettings(settings)));
    } else if (op == "reset") {
        a.update(toJson(s.resetSettings(q.at("names").get<std::vector<std::string>>())));
    } else if (op == "accepting") {
        a["accepting"] = s.acceptingConnections();
    } else if (op == "log_size") {
        a["size"] = s.logSize();
    } else if (op == "log") {
        a["lines"] = s.logLinesSince(q.at("offset").get<std::uintmax_t>(), q.value("max", size_t{20}));
    } else if (op == "follow") {  // the window's live tail: complete lines, and where to go on
        FollowedLines f = followFile(s.logFile(), q.at("offset").get<std::uintmax_t>(), q.value("max", size_t{200}));
        a["lines"] = f.lines;
        a["offset"] = f.offset;
        a["skipped"] = f.skipped;
    } else if (op == "place") {
        placement_.reset();  // one placement at a time: the last one undone first
        ServerStatus st = s.status();
        if (!st.running) throw Error("the server in " + s.dataDir().string() + " is not running: nothing to place");
        placement_ = std::make_unique<PlacementScope>(q.at("placement").get<std::string>(), q.value("separate", false),
                                                      cpuMethodFromName(q.at("method").get<std::string>()), st.pid,
                                                      [this](const std::string& line) {
                                                          if (notes_) notes_->push_back(line);
                                                      });
        nlohmann::json record = toJson(placement_->record());
        record.erase("client_pus");  // the clients are on another machine
        a["placement"] = record;
    } else if (op == "keep_running") {
        s.keepRunning();
    } else {
        throw Error("no such operation: " + op);
    }
}

} // namespace scalelab
