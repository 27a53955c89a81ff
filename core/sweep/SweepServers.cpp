#include "sweep/SweepServers.h"

#include "load/data/PgbenchData.h"
#include "server/AlterSystem.h"
#include "server/Conninfo.h"
#include "util/Error.h"
#include "util/Format.h"

#include <algorithm>
#include <chrono>
#include <cstring>

namespace scalelab {
namespace {

std::vector<std::string> namesOf(const std::vector<Setting>& settings) {
    std::vector<std::string> names;
    for (const auto& s : settings) names.push_back(s.name);
    return names;
}

// "2026-11-30 18:11:52.455 UTC [23164] LOG:  server process ..." -> "server process ...".
std::string messageOf(const std::string& logLine) {
    for (const char* level : {"LOG:  ", "FATAL:  ", "PANIC:  ", "ERROR:  "})
        if (auto at = logLine.find(level); at != std::string::npos) return logLine.substr(at + std::strlen(level));
    return logLine;
}

// The postmaster's own words when a server process crashed and it reinitialized everything.
bool isCrashLine(const std::string& line) {
    return line.find(") was terminated by signal ") != std::string::npos ||
           line.find(") was terminated by exception ") != std::string::npos ||
           line.find("all server processes terminated; reinitializing") != std::string::npos;
}

std::string indented(const std::vector<std::string>& lines) {
    if (lines.empty()) return "\n  (no line since the run began: a postmaster killed outright writes nothing)";
    std::string out;
    for (const auto& l : lines) out += "\n  " + l;
    return out;
}

constexpr std::chrono::seconds kRecoveryWait{120};  // an embedded server recovering from a crash by itself
constexpr std::chrono::seconds kSilenceAllowed{30}; // a live postmaster that does not answer, before a run fails for it

} // namespace

SweepServers::SweepServers(const SweepPlan& plan, Note note, Wait wait, RemoteCluster::Agent serverHost)
    : plan_(plan), note_(std::move(note)), wait_(std::move(wait)), serverHost_(std::move(serverHost)) {}

void SweepServers::note(const std::string& s) const {
    if (note_) note_(s);
}

std::string SweepServers::activate(const SeriesSpec& series) {
    if (plan_.embedded()) return activateEmbedded(series);
    awaitTarget(plan_.conninfo);
    applyOverrides(nullptr, plan_.conninfo, series.settings);
    return plan_.conninfo;
}

std::filesystem::path embeddedDataDir(const SweepPlan& plan, const SeriesSpec& series) {
    return series.dataDir ? *series.dataDir : plan.dataDir ? *plan.dataDir : defaultDataDir();
}

std::string SweepServers::activateEmbedded(const SeriesSpec& series) {
    auto bindir = series.pgBindir ? series.pgBindir : plan_.pgBindir;
    std::unique_ptr<Cluster>* slot = nullptr;
    if (plan_.serverHost) {
        // On the server host: its data directories, its default when none is given.
        auto dir = series.dataDir ? series.dataDir : plan_.dataDir;
        slot = &embedded_[dir ? dir->string() : std::string()];
        if (!*slot) {
            const auto& h = *plan_.serverHost;
            *slot = std::make_unique<RemoteCluster>(h.host, h.address.empty() ? addressOfHost(h.host) : h.address, serverHost_,
                                                    dir, bindir, [this](const std::string& s) { note(s); });
        }
    } else {
        std::filesystem::path dir = embeddedDataDir(plan_, series);
        slot = &embedded_[dir.string()];
        if (!*slot) {
            ServerOptions o;
            o.dataDir = dir;
            o.pgBindir = bindir;
            o.note = [this](const std::string& s) { note(s); };
            *slot = std::make_unique<EmbeddedServer>(o);
        }
    }
    auto& server = *slot;
    if (active_ && active_ != server.get()) {
        // Two servers at once would compete for the CPUs being measured. A dead one keeps its
        // overrides in postgresql.auto.conf; they are reset when it is next used.
        if (active_->status().running) {
            resetOverrides(active_);
            active_->stop();
        }
        active_ = nullptr;
    }
    if (active_ == server.get()) recoverIfCrashed(*server);
    if (!server->status().running || active_ != server.get()) {
        if (server->start() == Cluster::StartOutcome::Reused) reused_.insert(server.get());
        server->applySettings(plan_.serverSettings);
    }
    active_ = server.get();
    activePid_ = active_->status().pid;
    applyOverrides(active_, active_->connectionString(), series.settings);
    return active_->connectionString();
}

// The active server died or crashed since it was last used: say so, with what its log says,
// and bring it back. Its settings survive: ALTER SYSTEM wrote them to postgresql.auto.conf.
void SweepServers::recoverIfCrashed(Cluster& server) {
    std::string where = server.where();
    if (!server.status().running) {
        // Its log lines went with the failed run when the death was noticed there.
        std::string log = lossSaid_ ? "" : "; its log since the last run began:" + indented(logSinceRunStart()) + "\n";
        note(where + " died (its postmaster, pid " + std::to_string(activePid_) + ", is gone)" +
             (log.empty() ? "; " : log) + "starting it again; PostgreSQL recovers from the crash");
        server.start();
        // A server the user had running before the sweep stays running after it, as it would have.
        if (reused_.count(&server)) server.keepRunning();
        return;
    }
    if (server.acceptingConnections()) return;
    note(where + " " + describe(pingServer(server.connectionString("postgres"), 5)) +
         "; waiting up to " + std::to_string(kRecoveryWait.count()) + " s for it");
    auto deadline = std::chrono::steady_clock::now() + kRecoveryWait;
    while (!server.acceptingConnections()) {
        if (!server.status().running) return recoverIfCrashed(server);
        if (std::chrono::steady_clock::now() > deadline)
            throw Error(where + " still takes no connections after " +
                        std::to_string(kRecoveryWait.count()) + " s; its log:" +
                        indented(server.logLinesSince(logOffset_)));
        wait_(0.2);
    }
    note(where + " takes connections again");
}

// A server of the user's that does not answer is asked again, waiting 1, 2, 4, 8, then 15 s
// between tries, for up to target.reconnect seconds.
void SweepServers::awaitTarget(const std::string& conninfo) {
    Ping ping = pingServer(conninfo, 5);
    if (ping == Ping::Accepting) return;
    auto since = std::chrono::steady_clock::now();
    auto waited = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count(); };
    note("the target server " + describe(ping) + "; asking again for up to " + std::to_string(int(plan_.reconnectS)) +
         " s (target.reconnect)");
    for (double delay = 1;; delay = std::min(delay * 2, 15.0)) {
        double left = plan_.reconnectS - waited();
        if (left <= 0)
            throw TargetGone("the target server " + describe(ping) + " after " + std::to_string(int(waited() + 0.5)) +
                             " s of asking again (target.reconnect = " + std::to_string(int(plan_.reconnectS)) + " s)");
        if (!wait_(std::min(delay, left))) throw Error("stopped while waiting for the target server");
        ping = pingServer(conninfo, 5);
        if (ping == Ping::Accepting) {
            note("the target server takes connections again after " + std::to_string(int(waited() + 0.5)) + " s");
            return;
        }
    }
}

void SweepServers::markRunStart() {
    logOffset_ = active_ ? active_->logSize() : 0;
    lossSaid_ = false;
}

std::vector<std::string> SweepServers::logSinceRunStart() const {
    if (!active_) return {};
    try {
        return active_->logLinesSince(logOffset_, 20);
    } catch (const Error& e) {
        if (active_->local()) throw;
        return {std::string("(its log could not be read: ") + e.what() + ")"};
    }
}

std::optional<ServerLoss> SweepServers::lossSinceRunStart() {
    std::optional<ServerLoss> loss;
    try {
        loss = findLoss();
    } catch (const Error& e) {
        // A server host whose agent cannot be reached: the run is lost with it (run again at the
        // end, as for a server that died); here, a failure to ask is the sweep's own error.
        if (!active_ || active_->local()) throw;
        loss = ServerLoss{e.what(), {}};
    }
    lossSaid_ = lossSaid_ || loss;
    return loss;
}

std::optional<ServerLoss> SweepServers::findLoss() const {
    if (!plan_.embedded()) {
        Ping ping = pingServer(plan_.conninfo, 5);
        if (ping == Ping::Accepting) return std::nullopt;
        return ServerLoss{"the target server " + describe(ping), {}};
    }
    if (!active_) return std::nullopt;
    if (!active_->status().running)
        return ServerLoss{whoLost() + " died: its postmaster (pid " + std::to_string(activePid_) + ") is gone",
                          logSinceRunStart()};
    auto crashed = [this]() -> std::optional<ServerLoss> {
        auto lines = active_->logLinesSince(logOffset_, 1000);
        auto crash = std::find_if(lines.begin(), lines.end(), isCrashLine);
        if (crash == lines.end()) return std::nullopt;
        return ServerLoss{whoLost() + " crashed and restarted itself (" + messageOf(*crash) + ")", logSinceRunStart()};
    };
    if (auto loss = crashed()) return loss;
    // A live postmaster that wrote no crash line but gives no answer within 5 s is more often a
    // machine too busy to start a session than a lost server (a session start needs a fork and
    // CPU): it is asked again, once a second, before a run is failed for it. A refusal is the
    // server's own word (starting, recovering, shutting down) and counts at once.
    std::string conninfo = active_->connectionString("postgres");
    auto since = std::chrono::steady_clock::now();
    auto askedFor = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count(); };
    Ping ping = pingServer(conninfo, 5);
    while (ping == Ping::NoResponse && askedFor() < kSilenceAllowed.count() && wait_(1)) {
        if (!active_->status().running) return findLoss();
        ping = pingServer(conninfo, 5);
    }
    if (ping == Ping::Accepting) return std::nullopt;
    if (auto loss = crashed()) return loss;  // a crash logged while it was asked
    std::string asked = ping == Ping::NoResponse ? " (asked for " + std::to_string(int(askedFor() + 0.5)) + " s)" : "";
    return ServerLoss{whoLost() + " " + describe(ping) + asked, logSinceRunStart()};
}

// How a lost run names its server: "the embedded server", or where it runs when that is a server host.
std::string SweepServers::whoLost() const { return active_->local() ? "the embedded server" : active_->where(); }

bool SweepServers::alive() const { return !plan_.embedded() || !active_ || active_->status().running; }

void SweepServers::applyOverrides(Cluster* server, const std::string& conninfo, const std::vector<Setting>& wanted) {
    auto& current = server ? overrides_[server] : remoteOverrides_;
    std::vector<std::string> drop;
    for (const auto& name : current)
        if (std::none_of(wanted.begin(), wanted.end(), [&](const Setting& s) { return s.name == name; }))
            drop.push_back(name);
    if (server) {
        server->resetSettings(drop);
        server->applySettings(wanted);
    } else {
        resetSettings(conninfo, drop, false);
        alterSystem(conninfo, wanted, false, "the target server");
        remoteOverridesConninfo_ = conninfo;
    }
    current = namesOf(wanted);
}

void SweepServers::resetOverrides(Cluster* server) {
    auto it = overrides_.find(server);
    if (it == overrides_.end() || it->second.empty()) return;
    server->resetSettings(it->second);
    it->second.clear();
}

void SweepServers::restore() noexcept {
    try {
        // A server the user had running, found dead at the end (it died during or after the
        // last run), is started again: running after the sweep, as it would have been.
        if (active_ && reused_.count(active_) && !active_->status().running) recoverIfCrashed(*active_);
    } catch (const std::exception& e) {
        note(std::string("could not start the embedded server again: ") + e.what());
    }
    try {
        for (auto& [server, names] : overrides_)
            if (!names.empty() && server->status().running) server->resetSettings(names);
        if (!remoteOverrides_.empty() && pingServer(remoteOverridesConninfo_, 5) == Ping::Accepting)
            resetSettings(remoteOverridesConninfo_, remoteOverrides_, false);
    } catch (const std::exception& e) {
        note(std::string("could not reset the series' server settings: ") + e.what());
    }
}

std::optional<double> SweepServers::ensureData(const std::string& conninfo, bool usesPgbenchTables, int64_t scale) {
    if (!usesPgbenchTables) return std::nullopt;
    auto at = prepared_.find(conninfo);
    if (at != prepared_.end() && at->second == scale) return std::nullopt;
    bool first = at == prepared_.end();
    PgbenchDataNeed need;
    need.ownServer = plan_.embedded();
    // "init": "reinit" re-creates them at the start and at each new scale, not before every run.
    need.reinit = plan_.reinit && (first || at->second != scale);
    need.scale = scale;
    // With a list of scales the tables must be at the run's (parsePlan asked a server of the
    // user's for "reinit"); with one, tables already there are used at whatever scale they are.
    need.matchScale = plan_.scales.size() > 1;
    need.otherwise = "run `scalelab init --conninfo ...` first, or set \"data\": {\"init\": \"reinit\"} in the plan";
    PgbenchDataInfo before = inspectPgbenchData(conninfo);
    auto start = std::chrono::steady_clock::now();
    PgbenchDataInfo after = ensurePgbenchData(conninfo, need, [this](const std::string& s) { note(s); });
    prepared_[conninfo] = scale;
    bool built = need.reinit || !before.complete || (need.matchScale && before.scale != scale);
    if (!built) return std::nullopt;
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    note("pgbench tables at scale " + std::to_string(after.scale) + " built in " + formatNumber("%.1f", seconds) + " s");
    return seconds;
}

SweepServers::TpccData SweepServers::ensureTpccData(const std::string& conninfo, uint64_t seed) {
    if (auto at = tpccPrepared_.find(conninfo); at != tpccPrepared_.end()) return {at->second, std::nullopt};
    tpcc::DataInfo before = tpcc::inspectData(conninfo);
    int wanted = plan_.warehouses.value_or(before.complete && before.createdByScaleLab ? before.warehouses : 1);
    bool usable = before.complete && before.createdByScaleLab && before.warehouses == wanted;
    // First time for this cluster here: "reinit" re-creates them now, at the start, only.
    if (usable && !plan_.reinit) {
        tpccPrepared_[conninfo] = before;
        return {before, std::nullopt};
    }
    if (!plan_.embedded() && !plan_.reinit)
        throw Error(std::string(before.complete && before.createdByScaleLab
                                    ? "TPROC-C's tables on the target hold " + std::to_string(before.warehouses) +
                                          " warehouses, the plan's data.warehouses " + std::to_string(wanted)
                                    : "TPROC-C's tables are not on the target") +
                    ": run `scalelab init --workload tprocc -w " + std::to_string(wanted) +
                    " --conninfo ...` first, or set \"data\": {\"init\": \"reinit\"} in the plan");
    tpcc::InitOptions o;
    o.warehouses = wanted;
    o.seed = seed;
    o.reinit = before.createdByScaleLab;  // ScaleLab's own are reloaded; tables of anyone else are refused by initData
    o.note = [this](const std::string& line) { note(line); };
    auto start = std::chrono::steady_clock::now();
    tpcc::initData(conninfo, o);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    tpcc::DataInfo after = tpcc::inspectData(conninfo);
    tpccPrepared_[conninfo] = after;
    note("TPROC-C's tables, " + std::to_string(after.warehouses) + (after.warehouses == 1 ? " warehouse" : " warehouses") +
         ", loaded in " + formatNumber("%.1f", seconds) + " s");
    return {after, seconds};
}

} // namespace scalelab
