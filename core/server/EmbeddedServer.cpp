#include "server/EmbeddedServer.h"

#include "server/Conninfo.h"
#include "server/AlterSystem.h"
#include "server/DataDirectory.h"
#include "server/ServerUser.h"
#include "server/TcpAuth.h"
#include "util/Format.h"
#include "util/Error.h"

#include <arpa/inet.h>
#include <libpq-fe.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <pqxx/pqxx>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace scalelab {
namespace {

fs::path normalizedAbsolute(const fs::path& p) {
    fs::path out = fs::absolute(p).lexically_normal();
    if (out.filename().empty() && out.has_parent_path() && out != out.root_path()) out = out.parent_path();
    return out;
}

int freeTcpPort() {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) throw Error("cannot create a socket to find a free port");
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    socklen_t len = sizeof addr;
    int port = 0;
    if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
        getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
        port = ntohs(addr.sin_port);
    close(fd);
    if (port == 0) throw Error("cannot find a free TCP port on 127.0.0.1");
    return port;
}

// The last `maxLines` lines appended to `file` since it had `offset` bytes.
std::vector<std::string> linesSince(const fs::path& file, std::uintmax_t offset, size_t maxLines) {
    std::ifstream in(file);
    if (!in) return {};
    in.seekg(static_cast<std::streamoff>(offset));
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) {
        lines.push_back(std::move(line));
        if (lines.size() > maxLines) lines.erase(lines.begin());
    }
    return lines;
}

// The same, indented for a message.
std::string tailSince(const fs::path& file, std::uintmax_t offset, size_t maxLines = 25) {
    if (!fs::exists(file)) return "(no server log at " + file.string() + ")";
    std::string out;
    for (const auto& line : linesSince(file, offset, maxLines)) out += "  " + line + "\n";
    return out.empty() ? "  (nothing)\n" : out;
}

std::uintmax_t sizeOrZero(const fs::path& file) {
    std::error_code ec;
    auto size = fs::file_size(file, ec);
    return ec ? 0 : size;
}



} // namespace

EmbeddedServer::EmbeddedServer(ServerOptions options) : options_(std::move(options)) {
    if (options_.dataDir.empty()) throw Error("no data directory given for the embedded server");
    options_.dataDir = normalizedAbsolute(options_.dataDir);
    PgSearch search = PgSearch::fromEnvironment();
    if (options_.pgBindir) search.explicitBindir = options_.pgBindir;
    binaries_ = findPgBinaries(search);
    refuseShellCharacters(options_.dataDir, "the data directory");
    refuseShellCharacters(logFile(), "the server log");
    refuseShellCharacters(binaries_.bindir, "PostgreSQL's program directory");
    user_ = serverUserForThisProcess();
}

EmbeddedServer::~EmbeddedServer() {
    if (!startedHere_ || keepRunning_) return;
    try {
        stop();
    } catch (const std::exception& e) {
        say(std::string("could not stop the server: ") + e.what());
    }
}

void EmbeddedServer::say(const std::string& line) const {
    if (options_.note) options_.note(line);
}

ProcessResult EmbeddedServer::pgCtl(std::vector<std::string> args, std::chrono::seconds timeout) const {
    args.insert(args.begin(), binaries_.pgCtl().string());
    ProcessOptions po;
    po.runAs = user_;
    po.timeout = timeout;
    // English messages we can show; no PG* variable of the user's may redirect pg_ctl.
    po.env = {{"LC_ALL", "C"}, {"LANG", "C"}, {"PGDATA", std::nullopt}, {"PGPORT", std::nullopt},
              {"PGHOST", std::nullopt}, {"PGOPTIONS", std::nullopt}};
    return runProcess(args, po);
}

fs::path EmbeddedServer::socketDirFor() const {
    // Short and stable per data directory: unix socket paths are limited to 107 bytes,
    // and after a crash the next start finds (and postgres cleans) the same directory.
    std::uint32_t hash = 2166136261u;
    for (unsigned char c : options_.dataDir.string()) hash = (hash ^ c) * 16777619u;
    char name[64];
    std::snprintf(name, sizeof name, "scalelab-%u-%08x", static_cast<unsigned>(geteuid()), hash);
    return fs::path("/tmp") / name;
}

bool EmbeddedServer::initialize() {
    prepareServerDirectory(options_.dataDir, user_, fs::perms::owner_all);
    say("initdb: creating a PostgreSQL " + std::to_string(binaries_.major) + " cluster in " + options_.dataDir.string());
    std::vector<std::string> args = {binaries_.initdb().string(), "-D", options_.dataDir.string(),
                                     "-U", options_.superuser, "--auth-local=trust", "--auth-host=trust",
                                     "-E", "UTF8", "--locale=C", "--no-instructions"};
    if (options_.throwaway) args.push_back("--no-sync");
    ProcessOptions po;
    po.runAs = user_;
    po.timeout = 300s;
    po.env = {{"LC_ALL", "C"}, {"LANG", "C"}, {"PGDATA", std::nullopt}};
    auto result = runProcess(args, po);
    if (!result.ok())
        throw Error("initdb failed for " + options_.dataDir.string() + " (exit " + std::to_string(result.exitCode) +
                    "):\n" + result.output);
    return true;
}

EmbeddedServer::StartOutcome EmbeddedServer::start() {
    DataDirState state = inspectDataDir(options_.dataDir);
    checkDataDirUsable(options_.dataDir, state, binaries_.major);

    if (state.kind == DataDirState::Kind::Cluster) {
        ServerStatus st = status();
        if (st.running) {
            say("reusing the server already running in " + options_.dataDir.string() + " (pid " +
                std::to_string(st.pid) + ", port " + std::to_string(st.port) + ")");
            waitUntilAcceptingConnections(connectionString("postgres"));
            ensureDatabase();
            return StartOutcome::Reused;
        }
        checkServerCanUse(options_.dataDir, user_);
    } else {
        initialize();
    }
    startPostmaster();
    startedHere_ = true;
    ensureDatabase();
    return StartOutcome::Started;
}

void EmbeddedServer::startPostmaster() {
    fs::path socketDir = socketDirFor();
    prepareServerDirectory(socketDir, user_, fs::perms::owner_all);
    // TCP needs a password (server/TcpAuth.h), in clusters an older ScaleLab made too. Written
    // as the server's account: root never writes through a link that account could plant.
    fs::path hba = options_.dataDir / "pg_hba.conf";
    std::string secured = hbaRequiringPasswordsOverTcp(readFileNoFollow(hba));
    if (!secured.empty()) {
        rewriteFileAs(user_, hba.string(), secured);
        say("pg_hba.conf: connections over TCP now need the superuser's password (scram-sha-256)");
    }
    if (options_.listenEverywhere) {
        std::string text = readFileNoFollow(hba);
        std::string open = hbaAcceptingOtherHosts(text);
        if (!open.empty()) {
            rewriteFileAs(user_, hba.string(), open);
            say("pg_hba.conf: clients on other machines may connect with the superuser's password (scram-sha-256)");
        }
    }
    preloadLibraries();
    clearStaleLocks(options_.dataDir, socketDir, options_.startTimeout);
    int port = options_.port > 0 ? options_.port : freeTcpPort();
    auto deadline = std::chrono::steady_clock::now() + options_.startTimeout;
    for (int attempt = 1;; ++attempt) {
        std::string postgresOptions = "-p " + std::to_string(port) + " -k " + shellQuote(socketDir.string()) +
                                      " -c listen_addresses=" +
                                      shellQuote(options_.listenEverywhere ? "*" : options_.listenTcp ? "127.0.0.1" : "");
        auto logOffset = sizeOrZero(logFile());
        say("starting PostgreSQL " + binaries_.version + " on port " + std::to_string(port) + ", socket in " +
            socketDir.string());
        auto result = pgCtl({"start", "-D", options_.dataDir.string(), "-l", logFile().string(), "-w", "-t",
                             std::to_string(options_.startTimeout.count()), "-o", postgresOptions},
                            options_.startTimeout + 10s);
        if (result.ok()) break;
        std::string log = tailSince(logFile(), logOffset);
        bool early = std::chrono::steady_clock::now() < deadline;
        // After a crash (kill -9 of the postmaster) its children need a moment to notice
        // and detach from shared memory; until then postgres refuses to start.
        if (early && log.find("pre-existing shared memory block") != std::string::npos) {
            std::this_thread::sleep_for(500ms);
            continue;
        }
        // The free port we picked was taken before postgres bound it.
        if (early && options_.port == 0 && attempt < 5 &&
            log.find("could not bind") != std::string::npos) {
            port = freeTcpPort();
            continue;
        }
        throw Error("PostgreSQL did not start in " + options_.dataDir.string() + " (pg_ctl " +
                    (result.timedOut ? std::string("timed out") : "exit " + std::to_string(result.exitCode)) +
                    "):\n" + result.output + "server log " + logFile().string() + ", last lines:\n" + log);
    }
    waitUntilAcceptingConnections(connectionString("postgres"));
    // The superuser's password for TCP: kept (or made) in the owner's 0600 password file, set
    // through the socket as a SCRAM verifier, the file naming this start's port.
    fs::path passwordFile = passwordFileOf(options_.dataDir);
    std::string password = keptOrNewPassword(passwordFile);
    writePasswordFile(passwordFile, port, options_.superuser, password);
    setRolePassword(connectionString("postgres"), options_.superuser, password);
}

void EmbeddedServer::preloadLibraries() {
    fs::path conf = options_.dataDir / "postgresql.conf";
    std::string text = readFileNoFollow(conf);
    std::string changed = preloadedConf(text, binaries_.bindir);
    if (changed.empty()) return;
    // As the server's account, as pg_hba.conf above: root never writes through a planted link.
    rewriteFileAs(user_, conf.string(), changed);
    size_t at = changed.rfind("\nshared_preload_libraries = '");
    say(at == std::string::npos
            ? "postgresql.conf: ScaleLab's shared_preload_libraries line removed (its libraries are gone)"
            : "postgresql.conf: " + changed.substr(at + 1, changed.find('\n', at + 1) - at - 1) +
                  " (each run's statements and waits; docs/metrics.md)");
}

fs::path EmbeddedServer::passwordFile() const { return passwordFileOf(options_.dataDir); }

void EmbeddedServer::waitUntilAcceptingConnections(const std::string& conninfo) {
    auto deadline = std::chrono::steady_clock::now() + options_.startTimeout;
    std::string withTimeout = conninfo + " connect_timeout=5";
    for (;;) {
        PGPing ping = PQping(withTimeout.c_str());
        if (ping == PQPING_OK) return;
        if (ping == PQPING_NO_ATTEMPT) throw Error("invalid connection string for the server: " + conninfo);
        if (std::chrono::steady_clock::now() > deadline)
            throw Error("the server in " + options_.dataDir.string() + " does not accept connections after " +
                        std::to_string(options_.startTimeout.count()) + " s; see " + logFile().string());
        std::this_thread::sleep_for(100ms);
    }
}

void EmbeddedServer::ensureDatabase() {
    if (options_.database.empty() || options_.database == "postgres") return;
    try {
        pqxx::connection c(connectionString("postgres"));
        pqxx::nontransaction tx(c);
        auto r = tx.exec("SELECT 1 FROM pg_database WHERE datname = " + tx.quote(options_.database));
        if (r.empty()) {
            say("creating database " + options_.database);
            tx.exec("CREATE DATABASE " + tx.quote_name(options_.database));
        }
    } catch (const pqxx::failure& e) {
        throw Error("cannot create database '" + options_.database + "': " + firstLineOf(e.what()));
    }
}

bool EmbeddedServer::stop() {
    ServerStatus st = status();
    if (!st.running) {
        startedHere_ = false;
        return false;
    }
    say("stopping the server in " + options_.dataDir.string() + " (pid " + std::to_string(st.pid) + ")");
    auto result = pgCtl({"stop", "-D", options_.dataDir.string(), "-m", "fast", "-w", "-t",
                         std::to_string(options_.stopTimeout.count())},
                        options_.stopTimeout + 10s);
    if (!result.ok()) {
        say("fast shutdown did not finish within " + std::to_string(options_.stopTimeout.count()) +
            " s; using immediate shutdown");
        auto immediate = pgCtl({"stop", "-D", options_.dataDir.string(), "-m", "immediate", "-w", "-t", "30"}, 40s);
        if (!immediate.ok() && isLivePostgres(st.pid))
            throw Error("cannot stop the server in " + options_.dataDir.string() + " (pid " + std::to_string(st.pid) +
                        "):\n" + result.output + immediate.output);
    }
    for (int i = 0; i < 100 && isLivePostgres(st.pid); ++i) std::this_thread::sleep_for(50ms);
    std::error_code ec;
    if (st.socketDir == socketDirFor() && fs::is_empty(st.socketDir, ec)) fs::remove(st.socketDir, ec);
    startedHere_ = false;
    return true;
}

void EmbeddedServer::restart() {
    say("restarting the server in " + options_.dataDir.string());
    auto logOffset = sizeOrZero(logFile());
    // pg_ctl restart reuses the command line recorded in postmaster.opts (port, socket).
    auto result = pgCtl({"restart", "-D", options_.dataDir.string(), "-m", "fast", "-l", logFile().string(), "-w",
                         "-t", std::to_string(options_.startTimeout.count())},
                        options_.startTimeout + options_.stopTimeout + 10s);
    if (!result.ok())
        throw Error("PostgreSQL did not restart in " + options_.dataDir.string() + ":\n" + result.output +
                    "server log, last lines:\n" + tailSince(logFile(), logOffset));
    waitUntilAcceptingConnections(connectionString("postgres"));
}

ServerStatus EmbeddedServer::status() const {
    ServerStatus st;
    auto pm = readPostmasterPid(options_.dataDir);
    if (!pm || !isLivePostgres(pm->pid)) return st;
    st.running = true;
    st.pid = pm->pid;
    st.port = pm->port;
    st.socketDir = pm->socketDir;
    st.listenAddress = pm->listenAddress;
    return st;
}

std::string EmbeddedServer::connectionString(const std::string& database) const {
    ServerStatus st = status();
    if (!st.running) throw Error("the server in " + options_.dataDir.string() + " is not running");
    return makeConninfo({{"host", st.socketDir.string()},
                         {"port", std::to_string(st.port)},
                         {"user", options_.superuser},
                         {"dbname", database.empty() ? options_.database : database}});
}

AppliedSettings EmbeddedServer::applySettings(const std::vector<Setting>& settings) {
    AppliedSettings applied = alterSystem(connectionString("postgres"), settings, true, "PostgreSQL " + binaries_.version);
    if (applied.restarted()) restart();
    return applied;
}

AppliedSettings EmbeddedServer::resetSettings(const std::vector<std::string>& names) {
    AppliedSettings applied = scalelab::resetSettings(connectionString("postgres"), names, true);
    if (applied.restarted()) restart();
    return applied;
}

std::set<std::string> EmbeddedServer::knownSettingNames() const {
    ProcessOptions po;
    po.runAs = user_;
    po.env = {{"LC_ALL", "C"}, {"LANG", "C"}};
    auto result = runProcess({binaries_.postgres().string(), "--describe-config"}, po);
    if (!result.ok()) throw Error("postgres --describe-config failed:\n" + result.output);
    std::set<std::string> names;
    std::istringstream in(result.output);
    for (std::string line; std::getline(in, line);) names.insert(line.substr(0, line.find('\t')));
    return names;
}

std::uintmax_t EmbeddedServer::logSize() const { return sizeOrZero(logFile()); }

std::vector<std::string> EmbeddedServer::logLinesSince(std::uintmax_t offset, size_t maxLines) const {
    return linesSince(logFile(), offset, maxLines);
}

bool EmbeddedServer::acceptingConnections() const {
    ServerStatus st = status();
    if (!st.running) return false;
    return pingServer(connectionString("postgres"), 5) == Ping::Accepting;
}

std::vector<Setting> EmbeddedServer::alteredSettings() const { return scalelab::alteredSettings(connectionString("postgres")); }

namespace {

// A postgresql.conf line that sets shared_preload_libraries (not a comment).
bool setsPreload(const std::string& line) {
    size_t start = line.find_first_not_of(" \t");
    return start != std::string::npos && line.compare(start, 24, "shared_preload_libraries") == 0;
}

bool hasLibrary(const fs::path& bindir, const std::string& lib) {
    std::error_code ec;
    fs::path prefix = (bindir.has_filename() ? bindir : bindir.parent_path()).parent_path();
    for (const char* dir : {"lib/", "lib/postgresql/"})
        if (fs::exists(prefix / (dir + lib + ".so"), ec)) return true;
    return false;
}

} // namespace

std::string waitSamplingPreloadRefusal(const fs::path& dataDir, const fs::path& bindir) {
    if (!hasLibrary(bindir, "pg_wait_sampling"))
        return "the server programs in " + bindir.string() +
               " have no pg_wait_sampling (Debian: apt-get install postgresql-15-pg-wait-sampling, its major version the server's)";
    std::error_code ec;
    fs::path conf = dataDir / "postgresql.conf";
    if (!fs::exists(conf, ec)) return "";  // a new cluster: ScaleLab's line will name it
    std::string text = readFileNoFollow(conf);
    std::string effective = preloadedConf(text, bindir);
    std::istringstream in(effective.empty() ? text : effective);
    std::string last;
    for (std::string line; std::getline(in, line);)
        if (setsPreload(line)) last = line;
    if (last.find("pg_wait_sampling") == std::string::npos)
        return conf.string() + " sets shared_preload_libraries without pg_wait_sampling (" + last + ")";
    return "";
}

std::string preloadedConf(const std::string& conf, const fs::path& bindir) {
    static const std::string ours = "# Added by ScaleLab:";
    std::vector<std::string> lines;
    std::istringstream in(conf);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    int oursAt = -1;  // the index of ScaleLab's comment before its line
    for (size_t i = 0; i < lines.size(); ++i) {
        if (!setsPreload(lines[i])) continue;
        if (i == 0 || lines[i - 1].rfind(ours, 0) != 0 || oursAt >= 0) return "";  // the user's choice
        oursAt = static_cast<int>(i) - 1;
    }
    std::vector<std::string> libs;
    for (const char* lib : {"pg_stat_statements", "pg_wait_sampling"})
        if (hasLibrary(bindir, lib)) libs.push_back(lib);
    if (libs.empty() && oursAt < 0) return "";
    std::string value;
    for (const auto& lib : libs) value += (value.empty() ? "" : ",") + lib;
    const std::string line = "shared_preload_libraries = '" + value + "'";
    const std::string comment = ours + " each run's statements (pg_stat_statements) and waits (pg_wait_sampling); docs/metrics.md.";
    if (oursAt >= 0) {
        if (lines[static_cast<size_t>(oursAt) + 1] == line) return "";
        lines.erase(lines.begin() + oursAt, lines.begin() + oursAt + 2);
    }
    std::string out;
    for (const auto& l : lines) out += l + "\n";
    if (!libs.empty()) out += comment + "\n" + line + "\n";
    return out;
}

fs::path defaultDataDir() {
    if (geteuid() == 0) return "/var/lib/scalelab/cluster";
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg == '/') return fs::path(xdg) / "scalelab" / "cluster";
    const char* home = std::getenv("HOME");
    if (!home || !*home) throw Error("neither XDG_DATA_HOME nor HOME is set; pass --data DIR");
    return fs::path(home) / ".local" / "share" / "scalelab" / "cluster";
}

} // namespace scalelab
