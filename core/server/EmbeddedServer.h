#pragma once
// The embedded PostgreSQL cluster: ScaleLab's default target and every database
// test's server. Creates it with initdb, starts it on a private unix socket, reuses
// one already running in the same data directory, applies settings, and stops it.
#include "server/Cluster.h"
#include "server/PgBinaries.h"
#include "server/ServerSettings.h"
#include "util/Subprocess.h"

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace scalelab {

struct ServerOptions {
    std::filesystem::path dataDir;
    int port = 0;                        // 0: a free one, chosen at start
    bool listenTcp = false;              // also listen on 127.0.0.1 (the superuser's password: passwordFile())
    bool listenEverywhere = false;       // TCP on every address (a server host's, docs/hosts.md), password only
    std::optional<std::filesystem::path> pgBindir;
    std::string superuser = "postgres";
    std::string database = "scalelab";   // created at first start; the default target
    bool throwaway = false;              // initdb --no-sync: for test clusters that die with the test
    std::chrono::seconds startTimeout{60};
    std::chrono::seconds stopTimeout{30};
    std::function<void(const std::string&)> note;  // progress lines for the user; may be empty
};

class EmbeddedServer : public Cluster {
public:
    // Finds the server programs and the account to run them as; touches no files.
    explicit EmbeddedServer(ServerOptions options);
    // Stops the server if this object started it, unless keepRunning() was called.
    ~EmbeddedServer() override;
    EmbeddedServer(const EmbeddedServer&) = delete;
    EmbeddedServer& operator=(const EmbeddedServer&) = delete;

    StartOutcome start() override;
    bool stop() override;
    void restart();
    ServerStatus status() const override;
    void keepRunning() override { keepRunning_ = true; }

    // libpq conninfo for the running server ("host=/tmp/... port=N user=postgres dbname=scalelab").
    std::string connectionString(const std::string& database = {}) const override;

    // ALTER SYSTEM for each setting, then a reload, and a restart when one of them needs it.
    // Throws Error for an unknown or fixed setting or a value the server rejects; settings
    // before the failing one stay applied.
    AppliedSettings applySettings(const std::vector<Setting>& settings) override;
    // ALTER SYSTEM RESET of each name (back to postgresql.conf's value), restarting when needed.
    AppliedSettings resetSettings(const std::vector<std::string>& names) override;
    // Every parameter name these server programs know (postgres --describe-config; no server needed).
    std::set<std::string> knownSettingNames() const;
    // Settings written by ALTER SYSTEM (postgresql.auto.conf), as the server reads them.
    std::vector<Setting> alteredSettings() const;

    const PgBinaries& binaries() const { return binaries_; }
    const std::filesystem::path& dataDir() const { return options_.dataDir; }
    // The unix socket directory of this data directory's server: /tmp/scalelab-UID-HASH, short
    // and stable (a predictable name: prepareServerDirectory refuses what someone planted there).
    std::filesystem::path socketDirFor() const;
    const std::optional<UserIdentity>& serverUser() const { return user_; }
    std::filesystem::path logFile() const { return logFileOf(options_.dataDir); }
    // The libpq password file (0600) with the superuser's password for TCP connections:
    // PGPASSFILE=this for pgbench -h 127.0.0.1 (server/TcpAuth.h).
    std::filesystem::path passwordFile() const;
    // Where the server of a data directory writes its log (the window tails it during a sweep).
    static std::filesystem::path logFileOf(const std::filesystem::path& dataDir) { return dataDir / "scalelab-server.log"; }
    // The log's size now, and its last lines written since it had `offset` bytes: what the
    // server said about a run (a crash, a FATAL) is read from there.
    std::uintmax_t logSize() const override;
    std::vector<std::string> logLinesSince(std::uintmax_t offset, size_t maxLines = 20) const override;
    // The postmaster is alive and takes connections (not starting, recovering from a crash or
    // shutting down).
    bool acceptingConnections() const override;
    std::string where() const override { return "the embedded server in " + options_.dataDir.string(); }
    bool local() const override { return true; }

private:
    bool initialize();
    void startPostmaster();
    void waitUntilAcceptingConnections(const std::string& conninfo);
    void ensureDatabase();
    void preloadLibraries();
    ProcessResult pgCtl(std::vector<std::string> args, std::chrono::seconds timeout) const;
    void say(const std::string& line) const;

    ServerOptions options_;
    PgBinaries binaries_;
    std::optional<UserIdentity> user_;
    bool startedHere_ = false;
    bool keepRunning_ = false;
};

// A cluster's postgresql.conf (`conf`) made to preload what ScaleLab reads each run:
// pg_stat_statements (statements) and pg_wait_sampling (waits), those of them the server
// programs in `bindir` have (a source build may lack contrib; pg_wait_sampling is a package of
// its own). "" when nothing is to change: the file sets shared_preload_libraries itself (the
// user's choice), or ScaleLab's line there already names them. An earlier start's line of
// ScaleLab's (after its "# Added by ScaleLab:" comment) is replaced, so that a cluster made
// before pg_wait_sampling was installed gains it. A plan's ALTER SYSTEM value
// (postgresql.auto.conf) wins over either.
std::string preloadedConf(const std::string& conf, const std::filesystem::path& bindir);
// Why a cluster in `dataDir` started with the programs in `bindir` would not load
// pg_wait_sampling; "" when it would (as far as postgresql.conf tells).
std::string waitSamplingPreloadRefusal(const std::filesystem::path& dataDir, const std::filesystem::path& bindir);

// $XDG_DATA_HOME/scalelab/cluster (or ~/.local/share/...); /var/lib/scalelab/cluster for root,
// because the postgres account cannot reach root's home.
std::filesystem::path defaultDataDir();

} // namespace scalelab
