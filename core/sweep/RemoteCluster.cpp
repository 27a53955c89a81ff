#include "sweep/RemoteCluster.h"

#include "metrics/RemoteMachine.h"
#include "server/ClusterAgent.h"
#include "server/Conninfo.h"
#include "util/AtomicFile.h"
#include "util/Error.h"
#include "util/TempDir.h"

namespace scalelab {
namespace {

// What the agent's EmbeddedServer may take: initdb (up to 300 s) and a start (60 s); a stop with
// its immediate fallback; a setting that restarts.
constexpr int kStartS = 420, kStopS = 90, kSettingsS = 150;
// A real SMT switch or CPUs taken offline: seconds on a busy or emulated machine.
constexpr int kPlaceS = 120;

AppliedSettings appliedOf(const nlohmann::json& a) {
    AppliedSettings applied;
    applied.reloaded = a.value("reloaded", std::vector<std::string>{});
    applied.restartedFor = a.value("restarted_for", std::vector<std::string>{});
    return applied;
}

// pgpass escapes ':' and '\' in its fields.
std::string pgpassField(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == ':' || c == '\\') out += '\\';
        out += c;
    }
    return out;
}

} // namespace

std::string addressOfHost(const std::string& destination) {
    if (destination == "local") return "127.0.0.1";
    std::string host = destination.substr(destination.find('@') == std::string::npos ? 0 : destination.find('@') + 1);
    // [::1] or [fe80::1]:22 forms of ssh are not ssh destinations; a plain IPv6 address is kept whole.
    return host;
}

RemoteCluster::RemoteCluster(std::string host, std::string address, Agent agent, std::optional<std::filesystem::path> dataDir,
                             std::optional<std::filesystem::path> pgBindir, Note note)
    : host_(std::move(host)),
      address_(std::move(address)),
      agent_(std::move(agent)),
      dataDir_(std::move(dataDir)),
      pgBindir_(std::move(pgBindir)),
      note_(std::move(note)),
      private_(std::make_unique<TempDir>("scalelab-server-host")) {
    where_ = dataDir_ ? dataDir_->string() : std::string("its default data directory");
}

RemoteCluster::~RemoteCluster() = default;

nlohmann::json RemoteCluster::ask(const std::string& op, nlohmann::json extra, int timeoutS) const {
    nlohmann::json q = std::move(extra);
    q["op"] = op;
    if (dataDir_) q["data_dir"] = dataDir_->string();
    if (pgBindir_) q["pg_bindir"] = pgBindir_->string();
    nlohmann::json a = agent_()->ask({{"cluster", q}}, "cluster", "the server (" + op + ")", timeoutS);
    if (note_ && a.contains("notes"))
        for (const auto& line : a["notes"]) note_("server host " + host_ + ": " + line.get<std::string>());
    if (a.contains("data_dir")) where_ = a["data_dir"].get<std::string>();
    if (a.contains("error")) throw Error("server host " + host_ + ": " + a["error"].get<std::string>());
    remember(a);
    return a;
}

// The password file names the address and port the server listens on now: libpq finds the
// password by them. Rewritten (0600, a fresh name renamed into place) when the port changes.
void RemoteCluster::remember(const nlohmann::json& a) const {
    if (!a.contains("password") || !a.contains("status")) return;
    int port = a["status"].value("port", 0);
    if (port == passwordPort_) return;
    std::string text = pgpassField(address_) + ":" + std::to_string(port) + ":*:postgres:" +
                       pgpassField(a["password"].get<std::string>()) + "\n";
    writeFileAtomically((private_->path() / "pgpass").string(), text, 0600);
    passwordPort_ = port;
}

Cluster::StartOutcome RemoteCluster::start() {
    nlohmann::json a = ask("start", nlohmann::json::object(), kStartS);
    return a.value("outcome", std::string()) == "reused" ? StartOutcome::Reused : StartOutcome::Started;
}

bool RemoteCluster::stop() { return ask("stop", nlohmann::json::object(), kStopS).value("stopped", false); }

ServerStatus RemoteCluster::status() const { return serverStatusFromJson(ask("status").value("status", nlohmann::json::object())); }

void RemoteCluster::keepRunning() { ask("keep_running"); }

std::string RemoteCluster::connectionString(const std::string& database) const {
    ServerStatus st = status();
    if (!st.running) throw Error("the server in " + where_ + " on server host " + host_ + " is not running");
    return makeConninfo({{"host", address_},
                         {"port", std::to_string(st.port)},
                         {"user", "postgres"},
                         {"dbname", database.empty() ? std::string("scalelab") : database},
                         {"passfile", (private_->path() / "pgpass").string()}});
}

AppliedSettings RemoteCluster::applySettings(const std::vector<Setting>& settings) {
    if (settings.empty()) return {};
    nlohmann::json pairs = nlohmann::json::array();
    for (const auto& s : settings) pairs.push_back({s.name, s.value});
    return appliedOf(ask("apply", {{"settings", pairs}}, kSettingsS));
}

AppliedSettings RemoteCluster::resetSettings(const std::vector<std::string>& names) {
    if (names.empty()) return {};
    return appliedOf(ask("reset", {{"names", names}}, kSettingsS));
}

bool RemoteCluster::acceptingConnections() const { return ask("accepting").value("accepting", false); }

std::uintmax_t RemoteCluster::logSize() const { return ask("log_size").value("size", std::uintmax_t{0}); }

std::vector<std::string> RemoteCluster::logLinesSince(std::uintmax_t offset, size_t maxLines) const {
    return ask("log", {{"offset", offset}, {"max", maxLines}}).value("lines", std::vector<std::string>{});
}

std::vector<std::string> RemoteCluster::followLog(RemoteMachine& agent, size_t backlog, size_t maxLines) {
    std::lock_guard<std::mutex> lock(following_);
    nlohmann::json q = {{"op", "follow"}, {"offset", followOffset_}, {"max", followed_ ? maxLines : backlog}};
    if (dataDir_) q["data_dir"] = dataDir_->string();
    if (pgBindir_) q["pg_bindir"] = pgBindir_->string();
    nlohmann::json a;
    try {
        a = agent.ask({{"cluster", q}}, "cluster", "the server log");
    } catch (const std::exception&) {
        return {};  // the sweep's own questions say what became of the host
    }
    if (a.contains("error")) return {};
    std::vector<std::string> lines;
    size_t skipped = a.value("skipped", size_t{0});
    if (followed_ && skipped > 0) lines.push_back("(" + std::to_string(skipped) + " lines left out)");
    for (const auto& line : a.value("lines", nlohmann::json::array())) lines.push_back(line.get<std::string>());
    followOffset_ = a.value("offset", followOffset_);
    followed_ = true;
    return lines;
}

std::optional<PlacementRefusal> checkPlacementOnHost(RemoteMachine& agent, const std::string& host,
                                                     const std::string& placement, bool separate, CpuMethod method) {
    nlohmann::json q = {{"op", "check_placement"}, {"placement", placement}, {"separate", separate}, {"method", cpuMethodName(method)}};
    nlohmann::json a = agent.ask({{"cluster", q}}, "cluster", "the placement check");
    if (a.contains("error")) throw Error("server host " + host + ": " + a["error"].get<std::string>());
    if (!a.contains("refusal")) return std::nullopt;
    std::string why = a["refusal"].value("why", std::string());
    // "cannot switch SMT for real here: ..." is said of the host.
    if (size_t here = why.find(" here: "); here != std::string::npos) why.replace(here, 7, " on server host " + host + ": ");
    else why = "server host " + host + ": " + why;
    return PlacementRefusal{a["refusal"].value("member", std::string("placement")), why};
}

nlohmann::json RemoteCluster::place(const std::string& placement, bool separate, CpuMethod method) {
    nlohmann::json a = ask("place", {{"placement", placement}, {"separate", separate}, {"method", cpuMethodName(method)}}, kPlaceS);
    nlohmann::json record = a.value("placement", nlohmann::json::object());
    record["server_host"] = host_;
    return record;
}

void RemoteCluster::unplace() { ask("unplace", nlohmann::json::object(), kPlaceS); }

ServerHostPlacement::ServerHostPlacement(RemoteCluster& cluster, const std::string& placement, bool separate,
                                         CpuMethod method, std::function<void(const std::string&)> note)
    : cluster_(cluster), note_(std::move(note)), record_(cluster.place(placement, separate, method)) {}

ServerHostPlacement::~ServerHostPlacement() {
    try {
        cluster_.unplace();
    } catch (const std::exception& e) {
        if (note_) note_(std::string("the placement could not be undone through the agent (") + e.what() +
                         "); an agent that ends undoes it, and the next ScaleLab command there restores a switch left behind");
    }
}

std::string RemoteCluster::where() const { return "the embedded server in " + where_ + " on server host " + host_; }

} // namespace scalelab
