// The embedded server against real PostgreSQL: each test makes its own throwaway cluster.
#include "ServerRequirement.h"
#include "ThrowawayServer.h"

#include "server/DataDirectory.h"
#include "server/EmbeddedServer.h"

#include "ErrorOf.h"
#include "util/TempDir.h"

#include <gtest/gtest.h>
#include <libpq-fe.h>
#include <pqxx/pqxx>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <functional>

namespace fs = std::filesystem;
using namespace scalelab;
using test::errorOf;

namespace {

ServerOptions throwaway(const fs::path& dir) { return test::throwawayOptions(dir); }

std::string readFile(const fs::path& file) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string query(const std::string& conninfo, const std::string& sql) {
    pqxx::connection c(conninfo);
    pqxx::nontransaction tx(c);
    return tx.exec(sql)[0][0].c_str();
}


class EmbeddedServerTest : public ::testing::Test {
protected:
    void SetUp() override { SCALELAB_REQUIRE_SERVER(); }
    TempDir dir_{"scalelab-dbtest"};
};

} // namespace

TEST_F(EmbeddedServerTest, StartsServesQueriesIsReusedAndStops) {
    EmbeddedServer server(throwaway(dir_.path()));
    EXPECT_EQ(server.start(), EmbeddedServer::StartOutcome::Started);
    ServerStatus st = server.status();
    ASSERT_TRUE(st.running);
    EXPECT_EQ(st.listenAddress, "");
    EXPECT_NE(query(server.connectionString(), "SELECT version()").find("PostgreSQL " + server.binaries().version), std::string::npos);
    EXPECT_EQ(query(server.connectionString(), "SELECT current_database()"), "scalelab");

    {
        EmbeddedServer again(throwaway(dir_.path()));
        EXPECT_EQ(again.start(), EmbeddedServer::StartOutcome::Reused);
        EXPECT_EQ(again.status().pid, st.pid);
        EXPECT_EQ(again.connectionString(), server.connectionString());
    }  // a reused server is not stopped by the object that reused it
    EXPECT_TRUE(isLivePostgres(st.pid));

    EXPECT_TRUE(server.stop());
    EXPECT_FALSE(isLivePostgres(st.pid));
    EXPECT_FALSE(server.status().running);
    EXPECT_FALSE(server.stop());
    EXPECT_EQ(errorOf([&] { server.connectionString(); }), "the server in " + dir_.path().string() + " is not running");
}

TEST_F(EmbeddedServerTest, TheObjectThatStartedTheServerStopsItWhenDestroyed) {
    pid_t pid = 0;
    {
        EmbeddedServer server(throwaway(dir_.path()));
        server.start();
        pid = server.status().pid;
        ASSERT_TRUE(isLivePostgres(pid));
    }
    EXPECT_FALSE(isLivePostgres(pid));
}

TEST_F(EmbeddedServerTest, ListensOnLoopbackTcpOnlyWhenAsked) {
    ServerOptions o = throwaway(dir_.path());
    o.listenTcp = true;
    EmbeddedServer server(o);
    server.start();
    EXPECT_EQ(server.status().listenAddress, "127.0.0.1");
    std::string tcp = "host=127.0.0.1 port=" + std::to_string(server.status().port) + " user=postgres dbname=scalelab" +
                      " passfile=" + server.passwordFile().string();
    EXPECT_EQ(query(tcp, "SELECT inet_server_addr()::text"), "127.0.0.1/32");
}

TEST_F(EmbeddedServerTest, RefusesADirectoryThatIsNotACluster) {
    std::ofstream(dir_.path() / "thesis.tex") << "precious\n";
    EmbeddedServer server(throwaway(dir_.path()));
    EXPECT_EQ(errorOf([&] { server.start(); }),
              dir_.path().string() + " is not empty and is not a PostgreSQL data directory (it has no PG_VERSION). "
              "ScaleLab will not initialize a cluster over existing files: choose an empty or new directory.");
    EXPECT_TRUE(fs::exists(dir_.path() / "thesis.tex"));
    EXPECT_FALSE(fs::exists(dir_.path() / "base"));
}

TEST_F(EmbeddedServerTest, RefusesAClusterOfAnotherMajorVersion) {
    EmbeddedServer server(throwaway(dir_.path()));
    int other = server.binaries().major - 1;
    std::ofstream(dir_.path() / "PG_VERSION") << other << "\n";
    EXPECT_NE(errorOf([&] { server.start(); }).find("holds a PostgreSQL " + std::to_string(other) + " cluster"),
              std::string::npos);
}

TEST_F(EmbeddedServerTest, ReloadsForWorkMemAndRestartsForMaxConnections) {
    EmbeddedServer server(throwaway(dir_.path()));
    server.start();
    pid_t before = server.status().pid;

    AppliedSettings reload = server.applySettings({{"work_mem", "64MB"}});
    EXPECT_EQ(reload.reloaded, std::vector<std::string>{"work_mem"});
    EXPECT_FALSE(reload.restarted());
    EXPECT_EQ(server.status().pid, before);
    EXPECT_EQ(query(server.connectionString(), "SHOW work_mem"), "64MB");

    AppliedSettings restart = server.applySettings({{"max_connections", "123"}, {"synchronous_commit", "off"}});
    EXPECT_EQ(restart.restartedFor, std::vector<std::string>{"max_connections"});
    EXPECT_EQ(restart.reloaded, std::vector<std::string>{"synchronous_commit"});
    EXPECT_NE(server.status().pid, before);
    EXPECT_EQ(query(server.connectionString(), "SHOW max_connections"), "123");
    EXPECT_EQ(query(server.connectionString(), "SHOW synchronous_commit"), "off");

    // Settings persist: they are in postgresql.auto.conf and survive a restart.
    server.restart();
    EXPECT_EQ(query(server.connectionString(), "SHOW work_mem"), "64MB");
    auto altered = server.alteredSettings();
    EXPECT_EQ(altered, (std::vector<Setting>{{"work_mem", "64MB"}, {"max_connections", "123"}, {"synchronous_commit", "off"}}));
}

TEST_F(EmbeddedServerTest, UnknownFixedAndInvalidSettingsAreRefusedAndChangeNothing) {
    EmbeddedServer server(throwaway(dir_.path()));
    server.start();
    EXPECT_EQ(errorOf([&] { server.applySettings({{"work_mem", "8MB"}, {"no_such_setting", "1"}}); }),
              "unknown server setting 'no_such_setting': PostgreSQL " + server.binaries().version + " has no such parameter");
    EXPECT_EQ(errorOf([&] { server.applySettings({{"block_size", "16384"}}); }),
              "server setting 'block_size' is fixed when PostgreSQL is built and cannot be changed");
    EXPECT_EQ(errorOf([&] { server.applySettings({{"work_mem", "8MB"}, {"shared_buffers", "lots"}}); }),
              "server setting shared_buffers=lots rejected: ERROR:  invalid value for parameter \"shared_buffers\": \"lots\"");
    EXPECT_TRUE(server.alteredSettings().empty());
    EXPECT_EQ(query(server.connectionString(), "SHOW work_mem"), "4MB");
}

TEST_F(EmbeddedServerTest, StartsAgainAfterThePostmasterWasKilled) {
    EmbeddedServer server(throwaway(dir_.path()));
    server.start();
    pid_t crashed = server.status().pid;
    ASSERT_EQ(kill(crashed, SIGKILL), 0);
    for (int i = 0; i < 100 && isLivePostgres(crashed); ++i) usleep(20000);
    ASSERT_TRUE(fs::exists(dir_.path() / "postmaster.pid")) << "the crash should leave a stale postmaster.pid";
    EXPECT_FALSE(server.status().running);

    EXPECT_EQ(server.start(), EmbeddedServer::StartOutcome::Started);
    EXPECT_NE(server.status().pid, crashed);
    EXPECT_EQ(query(server.connectionString(), "SELECT 1"), "1");
}

TEST_F(EmbeddedServerTest, AsRootRunsTheServerAsThePostgresAccount) {
    if (geteuid() != 0) GTEST_SKIP() << "needs root: checks that root hands the server to the postgres account";
    fs::permissions(dir_.path(), fs::perms::others_exec, fs::perm_options::add);
    EmbeddedServer server(throwaway(dir_.path() / "nested" / "data"));
    server.start();
    ASSERT_TRUE(server.serverUser());
    struct stat st {};
    ASSERT_EQ(stat((dir_.path() / "nested" / "data").c_str(), &st), 0);
    EXPECT_EQ(st.st_uid, server.serverUser()->uid);
    std::ifstream status("/proc/" + std::to_string(server.status().pid) + "/status");
    std::string line, uidLine;
    while (std::getline(status, line))
        if (line.rfind("Uid:", 0) == 0) uidLine = line;
    EXPECT_EQ(uidLine.substr(0, uidLine.find('\t', 5)), "Uid:\t" + std::to_string(server.serverUser()->uid));
    EXPECT_EQ(query(server.connectionString(), "SELECT current_user"), "postgres");
}

TEST_F(EmbeddedServerTest, AsRootNamesTheDirectoryThePostgresAccountCannotEnter) {
    if (geteuid() != 0) GTEST_SKIP() << "needs root: only root's server account can be locked out";
    fs::path locked = dir_.path() / "locked";
    fs::create_directories(locked);
    ASSERT_EQ(chown(dir_.path().c_str(), 0, 0), 0);
    fs::permissions(dir_.path(), fs::perms::owner_all, fs::perm_options::replace);
    EmbeddedServer server(throwaway(locked / "data"));
    std::string msg = errorOf([&] { server.start(); });
    EXPECT_EQ(msg.substr(0, msg.find(" on the way")),
              "PostgreSQL runs as user 'postgres', who cannot enter " + dir_.path().string());
}

namespace {

// Runs `act` in a child process as the unprivileged user `nobody`: what an attacker on the
// machine can do. Returns the child's exit status.
int asNobody(const std::function<int()>& act) {
    pid_t child = fork();
    if (child == 0) {
        if (setgid(65534) != 0 || setuid(65534) != 0) _exit(99);
        _exit(act());
    }
    int status = 0;
    waitpid(child, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

} // namespace

// Issue 31.1: the socket directory's name in /tmp is predictable. A symbolic link planted
// there by another user must not make root hand the link's target to the postgres account.
TEST_F(EmbeddedServerTest, AsRootASymlinkPlantedInTmpIsNotFollowed) {
    if (geteuid() != 0) GTEST_SKIP() << "needs root: the hijack is of root's server start";
    fs::permissions(dir_.path(), fs::perms::others_exec, fs::perm_options::add);
    fs::path precious = dir_.path() / "root-only";
    fs::create_directories(precious);
    fs::permissions(precious, fs::perms(0755), fs::perm_options::replace);
    EmbeddedServer server(throwaway(dir_.path() / "data"));
    fs::path socketDir = server.socketDirFor();
    ASSERT_EQ(socketDir.parent_path(), "/tmp");
    ASSERT_EQ(asNobody([&] { return symlink(precious.c_str(), socketDir.c_str()) == 0 ? 0 : 1; }), 0);
    std::string msg = errorOf([&] { server.start(); });
    EXPECT_EQ(msg, socketDir.string() + " is a symbolic link in /tmp, where others can write: someone may have planted "
                   "it to make ScaleLab hand its target to the server. ScaleLab does not follow it; remove it (or give "
                   "the directory's real path)");
    struct stat st {};
    ASSERT_EQ(stat(precious.c_str(), &st), 0);
    EXPECT_EQ(st.st_uid, 0u);
    EXPECT_EQ(st.st_mode & 07777, 0755u);
    fs::remove(socketDir);

    // A directory another user made there is not taken over either.
    ASSERT_EQ(asNobody([&] { return mkdir(socketDir.c_str(), 0777) == 0 ? 0 : 1; }), 0);
    msg = errorOf([&] { server.start(); });
    EXPECT_EQ(msg.substr(0, msg.find(", neither")), socketDir.string() + " exists and belongs to uid 65534");
    ASSERT_EQ(stat(socketDir.c_str(), &st), 0);
    EXPECT_EQ(st.st_uid, 65534u);
    fs::remove(socketDir);

    server.start();  // with the way clear, it starts
    EXPECT_EQ(query(server.connectionString(), "SELECT 1"), "1");
}

// Issue 31.2: pg_hba.conf trusted 127.0.0.1, so any local user connected as the superuser (and
// could run COPY ... TO PROGRAM as the postgres account). TCP now needs the superuser's password,
// which only the owner can read; the unix socket (in a 0700 directory) stays as it was.
TEST_F(EmbeddedServerTest, TcpNeedsThePasswordOnlyTheOwnerCanRead) {
    fs::permissions(dir_.path(), fs::perms::others_exec, fs::perm_options::add);
    ServerOptions o = throwaway(dir_.path() / "data");
    o.listenTcp = true;
    EmbeddedServer server(o);
    server.start();
    std::string tcp = "host=127.0.0.1 port=" + std::to_string(server.status().port) + " user=postgres dbname=scalelab connect_timeout=10";
    std::string refused = errorOf([&] { query(tcp + " passfile=/nonexistent", "SELECT 1"); });
    EXPECT_NE(refused.find("password"), std::string::npos) << refused;
    EXPECT_EQ(query(tcp + " passfile=" + server.passwordFile().string(), "SELECT current_user"), "postgres");
    EXPECT_EQ(query(server.connectionString(), "SELECT 1"), "1");  // the socket, as before
    struct stat st {};
    ASSERT_EQ(lstat(server.passwordFile().c_str(), &st), 0);
    EXPECT_TRUE(S_ISREG(st.st_mode));
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    EXPECT_EQ(st.st_uid, geteuid());
    std::string hba = readFile(server.dataDir() / "pg_hba.conf");
    EXPECT_EQ(hba.find("127.0.0.1/32            trust"), std::string::npos) << hba;
    EXPECT_NE(hba.find("scram-sha-256"), std::string::npos) << hba;
    // The password survives a restart (kept in the file), and the log never holds it.
    std::string password = readFile(server.passwordFile());
    password = password.substr(password.rfind(':', password.find('\n')) + 1, 32);
    ASSERT_EQ(password.size(), 32u);
    server.stop();
    server.start();
    tcp = "host=127.0.0.1 port=" + std::to_string(server.status().port) + " user=postgres dbname=scalelab connect_timeout=10";
    EXPECT_EQ(query(tcp + " password=" + password, "SELECT 1"), "1");
    EXPECT_EQ(readFile(server.logFile()).find(password), std::string::npos);

    if (geteuid() != 0) return;  // the second user: as root, `nobody`
    int asOther = asNobody([&] {
        int fd = ::open(server.passwordFile().c_str(), O_RDONLY);
        if (fd >= 0) return 3;  // it could read the password
        PGconn* c = PQconnectdb((tcp + " passfile=/nonexistent").c_str());
        bool in = PQstatus(c) == CONNECTION_OK;
        bool askedForPassword = std::string(PQerrorMessage(c)).find("password") != std::string::npos;
        PQfinish(c);
        return in ? 1 : askedForPassword ? 0 : 2;
    });
    EXPECT_EQ(asOther, 0) << "1: nobody connected over TCP; 2: refused for another reason; 3: it read the password file";
}
