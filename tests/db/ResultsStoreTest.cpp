// The PostgreSQL results store against a real server (the embedded one): the same behaviour
// as an experiment file, test by test (each runs on both), experiments side by side in one
// store, and a file -> store -> file copy that keeps every row of every table.
#include "SharedServer.h"

#include "store/CopyExperiment.h"
#include "store/ExperimentStore.h"
#include "store/PgStore.h"
#include "util/TempDir.h"

#include "ErrorOf.h"
#include "RunRecords.h"

#include <gtest/gtest.h>
#include <pqxx/pqxx>
#include <sqlite3.h>

#include <libpq-fe.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>
#include <thread>

using namespace scalelab;
using test::errorOf;

namespace {

RunRecord run(const std::string& series, int clients, int rep, double tps, std::optional<int64_t> index = {}) {
    return test::completedRun(series, clients, rep, tps, index);
}

// Each test twice: on a file and on an experiment in a results store.
class BothStores : public ::testing::TestWithParam<bool> {
protected:
    void SetUp() override {
        SCALELAB_REQUIRE_SERVER();
        if (GetParam()) {
            db_ = std::make_unique<test::TestDatabase>(test::SharedServer::get(), "template0");
            store = db_->conninfo();
            location = storeLocation(store, "smt on/off #1");
        } else {
            location = (dir.path() / "e.slab").string();
        }
    }
    bool inStore() const { return GetParam(); }
    TempDir dir{"scalelab-results-store"};
    std::unique_ptr<test::TestDatabase> db_;
    std::string store, location;
};

std::string nameOf(const ::testing::TestParamInfo<bool>& info) { return info.param ? "Store" : "File"; }

// A unix-socket proxy in front of the store's server. Once armed, it passes the client's
// COMMIT on, waits for the server's answer and drops the client's end without passing it back,
// keeping the server's open: the network broke at the worst moment, the run is stored, the
// writer cannot know it, and the server has not noticed (its session still holds the lock).
class CommitAnswerLost {
public:
    // conninfo: the real server's (host is its socket directory); dir: where the proxy listens.
    CommitAnswerLost(const std::string& conninfo, const std::filesystem::path& dir) {
        char* err = nullptr;
        PQconninfoOption* opts = PQconninfoParse(conninfo.c_str(), &err);
        if (!opts) throw std::runtime_error(err ? err : "bad conninfo");
        std::string host, port = "5432";
        for (auto* o = opts; o->keyword; ++o) {
            if (!o->val) continue;
            if (std::strcmp(o->keyword, "host") == 0) host = o->val;
            if (std::strcmp(o->keyword, "port") == 0) port = o->val;
        }
        PQconninfoFree(opts);
        server_ = host + "/.s.PGSQL." + port;
        host_ = dir.string();
        listener_ = socket(AF_UNIX, SOCK_STREAM, 0);
        sockaddr_un a = address(host_ + "/.s.PGSQL." + port);
        if (bind(listener_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || listen(listener_, 16) != 0)
            throw std::runtime_error("the proxy cannot listen in " + host_);
        accepting_ = std::thread([this] { acceptLoop(); });
    }
    ~CommitAnswerLost() {
        shutdown(listener_, SHUT_RDWR);
        close(listener_);
        accepting_.join();
        for (auto& t : pumps_) t.join();
        for (int fd : lingering_) close(fd);
    }
    std::string host() const { return host_; }
    void arm() { armed_ = true; }
    int dropped() const { return dropped_; }

private:
    static sockaddr_un address(const std::string& path) {
        sockaddr_un a{};
        a.sun_family = AF_UNIX;
        std::strncpy(a.sun_path, path.c_str(), sizeof a.sun_path - 1);
        return a;
    }
    void acceptLoop() {
        for (;;) {
            int client = accept(listener_, nullptr, nullptr);
            if (client < 0) return;
            int server = socket(AF_UNIX, SOCK_STREAM, 0);
            sockaddr_un a = address(server_);
            if (connect(server, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
                close(client);
                close(server);
                continue;
            }
            pumps_.emplace_back([this, client, server] { pump(client, server); });
        }
    }
    void pump(int client, int server) {
        char buf[65536];
        pollfd fds[2] = {{client, POLLIN, 0}, {server, POLLIN, 0}};
        bool running = true;
        while (running && poll(fds, 2, -1) > 0) {
            for (int side = 0; side < 2 && running; ++side) {
                if (!(fds[side].revents & (POLLIN | POLLHUP | POLLERR))) continue;
                ssize_t n = read(fds[side].fd, buf, sizeof buf);
                if (n <= 0) { running = false; break; }
                int to = side == 0 ? server : client;
                if (write(to, buf, static_cast<size_t>(n)) != n) { running = false; break; }
                static const char commit[] = "COMMIT";  // the simple-query message's text and its NUL
                bool isCommit = side == 0 && std::search(buf, buf + n, commit, commit + sizeof commit) != buf + n;
                if (isCommit && armed_.exchange(false)) {
                    pollfd answer{server, POLLIN, 0};
                    poll(&answer, 1, 10000);  // the server committed and answered; the answer is lost
                    ++dropped_;
                    close(client);
                    std::lock_guard<std::mutex> lock(mutex_);
                    lingering_.push_back(server);
                    return;
                }
            }
        }
        close(client);
        close(server);
    }

    std::string server_, host_;
    int listener_ = -1;
    std::atomic<bool> armed_{false};
    std::atomic<int> dropped_{0};
    std::thread accepting_;
    std::vector<std::thread> pumps_;  // touched by the accepting thread only, joined after it
    std::mutex mutex_;
    std::vector<int> lingering_;      // server ends of dropped connections, closed at the end
};

} // namespace

INSTANTIATE_TEST_SUITE_P(, BothStores, ::testing::Bool(), nameOf);

TEST_P(BothStores, KeepsRunsSamplesPlanAndProvenanceExactly) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    int64_t id = 0;
    {
        auto e = ExperimentStore::create(location);
        e->savePlan({{"version", 1}, {"clients", {1, 2}}}, 0xFFFFFFFFFFFFFFF1ull);
        e->addProvenance({{"machine", "x"}});
        e->ensureSeries("HEAD", {{"server", {{"shared_buffers", "1GB"}}}});
        StoredSample s;
        s.endS = 1;
        s.tps = 0.1 + 0.2;  // not a short decimal: must come back as the same double
        s.latP99Ms = nan;   // missing stays missing
        s.system = {{"cpu", {{"user", 12.5}}}};
        RunRecord r = run("HEAD", 4, 1, 1234.56789012345678, 0);
        r.flags = {RunFlag::Unstable};
        r.latency.p95Ms = 1e-300;
        r.latency.meanMs = nan;
        r.cpuBusyPct = 80;
        r.transactions = (1ull << 62) + 3;
        r.detail = {{"placement", "smt-off"}};
        id = e->saveRun(r, {s, StoredSample{}});
    }
    auto e = ExperimentStore::open(location, true);
    EXPECT_EQ(e->path(), location);
    EXPECT_EQ(e->plan()->second, 0xFFFFFFFFFFFFFFF1ull);
    EXPECT_EQ(e->plan()->first["clients"], nlohmann::json({1, 2}));
    EXPECT_EQ(e->provenance().at(0)["machine"], "x");
    EXPECT_EQ(e->meta("application"), "ScaleLab");
    EXPECT_EQ(e->series().at(0).config["server"]["shared_buffers"], "1GB");
    auto runs = e->runs();
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].id, id);
    EXPECT_EQ(runs[0].tps, 1234.56789012345678);
    EXPECT_EQ(runs[0].latency.p95Ms, 1e-300);
    EXPECT_TRUE(std::isnan(runs[0].latency.meanMs));
    EXPECT_FALSE(runs[0].serverCpuPct.has_value());
    EXPECT_EQ(*runs[0].cpuBusyPct, 80);
    EXPECT_EQ(runs[0].transactions, (1ull << 62) + 3);
    EXPECT_EQ(runs[0].flags, RunFlags{RunFlag::Unstable});
    EXPECT_EQ(runs[0].detail["placement"], "smt-off");
    auto samples = e->samples(id);
    ASSERT_EQ(samples.size(), 2u);
    EXPECT_EQ(samples[0].tps, 0.1 + 0.2);
    EXPECT_TRUE(std::isnan(samples[0].latP99Ms));
    EXPECT_EQ(samples[0].system["cpu"]["user"], 12.5);
    EXPECT_TRUE(samples[1].system.is_null());
}

TEST_P(BothStores, APlannedRunIsFinishedOnceAndNotesAndExclusionsAreKept) {
    auto e = ExperimentStore::create(location);
    RunRecord stopped = run("A", 1, 1, 10, 3);
    stopped.status = RunStatus::Stopped;
    int64_t stoppedId = e->saveRun(stopped, {});
    e->saveRun(run("A", 1, 1, 100, 3), {});
    EXPECT_EQ(e->finishedRunIndexes(), std::set<int64_t>{3});
    EXPECT_EQ(errorOf([&] { e->saveRun(run("A", 1, 1, 100, 3), {}); }),
              location + " already holds a completed run number 3 of this plan; not writing it twice");
    e->setExcluded(stoppedId, false);  // included on purpose
    e->setRunNote(stoppedId, "stopped by hand");
    e->setNote("HEAD vs patch");
    e->setNote("HEAD vs patch, box 2");
    EXPECT_EQ(errorOf([&] { e->setRunNote(99, "x"); }), location + " has no run 99");
    EXPECT_EQ(errorOf([&] { e->setExcluded(99, true); }), location + " has no run 99");
    auto runs = e->runs();
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[0].flags, RunFlags{RunFlag::Included});
    EXPECT_EQ(runs[0].note, "stopped by hand");
    EXPECT_EQ(runs[1].id, stoppedId + 1);
    EXPECT_EQ(e->note(), "HEAD vs patch, box 2");
}

TEST_P(BothStores, OneWriterAtATimeAndReadersFollowIt) {
    auto writer = ExperimentStore::create(location);
    EXPECT_TRUE(ExperimentStore::beingWritten(location));
    std::string refused = errorOf([&] { ExperimentStore::open(location); });
    EXPECT_NE(refused.find(location + " is being written by another ScaleLab"), std::string::npos) << refused;
    EXPECT_EQ(errorOf([&] { ExperimentStore::create(location); }).find(location + " already exists"), 0u);
    auto reader = ExperimentStore::open(location, true);
    writer->saveRun(run("s", 4, 1, 100), {});
    EXPECT_EQ(reader->runs().size(), 1u) << "a reader sees what the writer stored";
    writer.reset();
    EXPECT_FALSE(ExperimentStore::beingWritten(location));
    auto next = ExperimentStore::open(location);  // the lock went with the first writer
    EXPECT_EQ(next->runs().size(), 1u);
}

// Every table of two experiment files, row by row (ids included), as text.
std::vector<std::string> rowsOf(const std::string& file) {
    sqlite3* db = nullptr;
    sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    std::vector<std::string> rows;
    for (const char* table : {"meta", "plan", "provenance", "series", "runs", "samples"}) {
        sqlite3_stmt* st = nullptr;
        sqlite3_prepare_v2(db, (std::string("SELECT * FROM ") + table + " ORDER BY 1, 2").c_str(), -1, &st, nullptr);
        while (sqlite3_step(st) == SQLITE_ROW) {
            std::string row = table;
            for (int c = 0; c < sqlite3_column_count(st); ++c) {
                const unsigned char* t = sqlite3_column_text(st, c);
                // Doubles as SQLite prints them with 17 digits: equal text, equal value.
                if (sqlite3_column_type(st, c) == SQLITE_FLOAT) {
                    char buf[40];
                    std::snprintf(buf, sizeof buf, "%.17g", sqlite3_column_double(st, c));
                    row += std::string("|") + buf;
                } else {
                    row += "|" + (t ? std::string(reinterpret_cast<const char*>(t)) : std::string("NULL"));
                }
            }
            rows.push_back(row);
        }
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return rows;
}

TEST(ResultsStore, AFileCopiedIntoTheStoreAndBackKeepsEveryRow) {
    SCALELAB_REQUIRE_SERVER();
    test::TestDatabase db(test::SharedServer::get(), "template0");
    TempDir dir("scalelab-results-store");
    std::string original = (dir.path() / "original.slab").string();
    {
        auto e = ExperimentStore::create(original);
        e->savePlan({{"series", {{{"label", "HEAD"}}}}}, 7);
        e->addProvenance({{"machine", {{"cpus", 2}}}});
        e->addProvenance({{"machine", {{"cpus", 16}}}});
        e->ensureSeries("HEAD", {{"build", "/opt/pg-head"}});
        e->ensureSeries("patch", {{"build", "/opt/pg-patch"}});
        StoredSample s;
        s.startS = 0.5, s.endS = 1.5, s.transactions = 3, s.tps = 3.0 / 1.1;
        s.latMeanMs = std::numeric_limits<double>::quiet_NaN();
        s.system = {{"disk", {{"read_mb_s", 1.25}}}};
        StoredSample warm = s;
        warm.warmup = true;
        warm.system = nullptr;
        e->saveRun(run("HEAD", 1, 1, 100.125, 0), {warm, s});
        RunRecord failed = run("patch", 1, 1, 0, 1);
        failed.status = RunStatus::Failed;
        failed.error = "server closed the connection unexpectedly\n\tThis probably means ...";
        failed.latency.p50Ms = std::numeric_limits<double>::quiet_NaN();
        e->saveRun(failed, {});
        int64_t excluded = e->saveRun(run("patch", 1, 1, 97.5, 1), {s});
        e->setExcluded(excluded, true);
        e->setRunNote(excluded, "backup ran; «quoted» 'text'");
        e->setNote("HEAD vs patch");
    }
    std::string inStore = storeLocation(db.conninfo(), "copied");
    CopyCount there = copyExperiment(original, inStore);
    EXPECT_EQ(there.runs, 3u);
    EXPECT_EQ(there.samples, 3u);
    EXPECT_EQ(there.series, 2u);
    std::string back = (dir.path() / "back.slab").string();
    copyExperiment(inStore, back);
    auto want = rowsOf(original), got = rowsOf(back);
    EXPECT_GT(want.size(), 12u);
    EXPECT_EQ(got, want);
    // Into an existing experiment: refused, nothing written.
    EXPECT_EQ(errorOf([&] { copyExperiment(original, inStore); }).find(inStore + " already exists"), 0u);
}

TEST(ResultsStore, ExperimentsLiveSideBySideAndAreListedAndDeleted) {
    SCALELAB_REQUIRE_SERVER();
    test::TestDatabase db(test::SharedServer::get(), "template0");
    EXPECT_TRUE(listExperiments(db.conninfo()).empty()) << "a database without ScaleLab's schema holds none";
    std::string a = storeLocation(db.conninfo(), "head-2026-11"), b = storeLocation(db.conninfo(), "patch");
    {
        auto ea = ExperimentStore::create(a);
        ea->saveRun(run("HEAD", 1, 1, 100), {});
        ea->saveRun(run("HEAD", 2, 1, 190), {});
    }
    auto eb = ExperimentStore::create(b);
    eb->saveRun(run("patch", 1, 1, 120), {});
    eb->setNote("the patch");
    EXPECT_EQ(ExperimentStore::open(a, true)->runs().size(), 2u);
    EXPECT_EQ(ExperimentStore::open(b, true)->runs().at(0).id, 1) << "run ids are the experiment's own";
    auto list = listExperiments(db.conninfo());
    ASSERT_EQ(list.size(), 2u);
    EXPECT_EQ(list[0].name, "head-2026-11");
    EXPECT_EQ(list[0].location, a);
    EXPECT_EQ(list[0].runs, 2);
    EXPECT_EQ(list[0].series, std::vector<std::string>{"HEAD"});
    EXPECT_FALSE(list[0].beingWritten);
    EXPECT_TRUE(list[1].beingWritten);
    EXPECT_EQ(list[1].note, "the patch");
    EXPECT_NE(errorOf([&] { deleteExperiment(b); }).find("is being written by another ScaleLab"), std::string::npos);
    eb.reset();
    deleteExperiment(b);
    EXPECT_EQ(listExperiments(db.conninfo()).size(), 1u);
    EXPECT_FALSE(ExperimentStore::exists(b));
    EXPECT_TRUE(ExperimentStore::exists(a));
    EXPECT_EQ(errorOf([&] { ExperimentStore::open(b, true); }),
              "no experiment " + b + " (`scalelab experiments " + storeOf(b) + "` lists the store's experiments)");
}

// Issue 31.6: after the documented grants, a second role changed another's note, excluded its
// runs, multiplied its tps by 10 and deleted it. Two real roles now: each experiment is its
// creator's; others read it, and write it only where its owner listed them; row-level security
// holds for plain SQL as for ScaleLab, and the last writer is recorded.
TEST(ResultsStore, EachExperimentIsItsCreatorsOthersReadItAndWriteOnlyWhereTheOwnerLetThem) {
    SCALELAB_REQUIRE_SERVER();
    test::TestDatabase db(test::SharedServer::get(), "template0");
    std::string admin = db.conninfo();
    auto sql = [](const std::string& conninfo, const std::string& statement) {
        pqxx::connection c(conninfo);
        pqxx::nontransaction tx(c);
        return tx.exec(statement).affected_rows();
    };
    for (const char* role : {"scalelab_alice", "scalelab_bob"})
        sql(admin, std::string("DO $$ BEGIN CREATE ROLE ") + role + " LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$");
    // The administrator sets the store up (one ScaleLab command), then the documented grants.
    ExperimentStore::create(storeLocation(admin, "admin's"));
    sql(admin, "GRANT USAGE ON SCHEMA scalelab TO scalelab_alice, scalelab_bob; "
               "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA scalelab TO scalelab_alice, scalelab_bob; "
               "GRANT USAGE ON ALL SEQUENCES IN SCHEMA scalelab TO scalelab_alice, scalelab_bob");
    std::string alice = admin + " user=scalelab_alice", bob = admin + " user=scalelab_bob";
    std::string hers = storeLocation(alice, "alice's"), asBob = storeLocation(bob, "alice's");
    {
        auto e = ExperimentStore::create(hers);
        e->saveRun(run("A", 1, 1, 100), {});
        e->setNote("alice's words");
    }
    // Bob reads it, and cannot change it: not through ScaleLab, not with plain SQL.
    EXPECT_EQ(ExperimentStore::open(asBob, true)->runs().size(), 1u);
    EXPECT_EQ(errorOf([&] { ExperimentStore::open(asBob)->setNote("bob's words"); }),
              asBob + " belongs to role scalelab_alice; you (scalelab_bob) may read it but not change it: its owner can add "
                      "you to its writers (docs/results-store.md)");
    EXPECT_EQ(sql(bob, "UPDATE scalelab.runs SET tps = tps * 10"), 0u);
    EXPECT_EQ(sql(bob, "UPDATE scalelab.runs SET excluded = 1"), 0u);
    EXPECT_EQ(sql(bob, "UPDATE scalelab.meta SET value = 'bob''s words' WHERE key = 'note'"), 0u);
    EXPECT_EQ(sql(bob, "UPDATE scalelab.experiments SET writers = '{scalelab_bob}'"), 0u);
    EXPECT_EQ(sql(bob, "DELETE FROM scalelab.samples"), 0u);
    EXPECT_EQ(sql(bob, "DELETE FROM scalelab.experiments"), 0u);
    EXPECT_NE(errorOf([&] { sql(bob, "INSERT INTO scalelab.meta (experiment_id, key, value) "
                                     "SELECT id, 'x', 'y' FROM scalelab.experiments WHERE name = 'alice''s'"); })
                  .find("row-level security"),
              std::string::npos);
    EXPECT_EQ(errorOf([&] { deleteExperiment(asBob); }),
              asBob + " belongs to role scalelab_alice: only its owner may delete it (you are scalelab_bob)");
    auto seen = ExperimentStore::open(hers, true);
    EXPECT_EQ(seen->runs().at(0).tps, 100);
    EXPECT_FALSE(seen->runs().at(0).excluded);
    EXPECT_EQ(seen->note(), "alice's words");
    seen.reset();

    // Alice lets Bob write: he adds a note and is recorded as the last writer; the experiment
    // stays hers, and neither its writers nor its owner are his to change.
    EXPECT_EQ(sql(alice, "UPDATE scalelab.experiments SET writers = array_append(writers, 'scalelab_bob') "
                         "WHERE name = 'alice''s'"),
              1u);
    ExperimentStore::open(asBob)->setNote("bob's words, allowed");
    EXPECT_EQ(ExperimentStore::open(hers, true)->note(), "bob's words, allowed");
    EXPECT_NE(errorOf([&] { sql(bob, "UPDATE scalelab.experiments SET writers = '{}' WHERE name = 'alice''s'"); })
                  .find("only the owner of experiment \"alice's\" (role scalelab_alice) may rename it or change who may write it"),
              std::string::npos);
    EXPECT_NE(errorOf([&] { sql(bob, "UPDATE scalelab.experiments SET owner = 'scalelab_bob' WHERE name = 'alice''s'"); })
                  .find("only the owner"),
              std::string::npos);
    EXPECT_NE(errorOf([&] { deleteExperiment(asBob); }).find("only its owner may delete it"), std::string::npos);
    for (const auto& e : listExperiments(admin))
        if (e.name == "alice's") {
            EXPECT_EQ(e.owner, "scalelab_alice");
            EXPECT_EQ(e.lastWrittenBy, "scalelab_bob");
        }
    // The admin's own experiment is not Alice's either; she deletes hers.
    EXPECT_EQ(sql(alice, "DELETE FROM scalelab.experiments WHERE name = 'admin''s'"), 0u);
    deleteExperiment(hers);
    EXPECT_FALSE(ExperimentStore::exists(hers));
}

TEST(ResultsStore, LocationsSayWhatIsWrong) {
    EXPECT_EQ(errorOf([] { ExperimentStore::open("postgresql://db1/results", true); }),
              "postgresql://db1/results names a results store but no experiment in it: add #NAME "
              "(`scalelab experiments postgresql://db1/results` lists them)");
    EXPECT_EQ(errorOf([] { ExperimentStore::open("postgresql://bench:secret@db1/results#x", true); }),
              "the results store location postgresql://bench:secret@db1/results holds a password; ScaleLab never stores "
              "or logs passwords: put it in ~/.pgpass (or PGPASSFILE) or the PGPASSWORD environment variable");
    EXPECT_EQ(storeLocation("host=/tmp/s port=5433 dbname=results", "a b#c"),
              "postgresql://?dbname=results&host=%2Ftmp%2Fs&port=5433#a%20b%23c");
    EXPECT_EQ(parseStoreLocation("postgresql://?dbname=r#a%20b%23c").experiment, "a b#c");
    EXPECT_EQ(storeLocation("postgres://db1/r", "x"), "postgres://db1/r#x");
    EXPECT_NE(errorOf([] { parseStoreLocation("postgresql://db1/r#bad%zz"); }).find("two hex digits"), std::string::npos);
}

TEST(ResultsStore, ANewerStoreIsRefusedUntouched) {
    SCALELAB_REQUIRE_SERVER();
    test::TestDatabase db(test::SharedServer::get(), "template0");
    std::string at = storeLocation(db.conninfo(), "x");
    ExperimentStore::create(at);
    {
        pqxx::connection c(db.conninfo());
        pqxx::work tx(c);
        tx.exec("UPDATE scalelab.store_version SET version = 99");
        tx.commit();
    }
    EXPECT_EQ(errorOf([&] { ExperimentStore::open(at, true); }),
              "the results store " + storeOf(at) +
                  " was set up by a newer ScaleLab (store schema 99, this ScaleLab reads up to " + std::to_string(pgstore::kSchemaVersion) + "); update ScaleLab to use it");
}

// The store's server restarted, or a network blip: a sweep's next run is stored on a new
// connection, under the same writer's lock.
TEST(ResultsStore, AWriterWhoseConnectionBrokeStoresTheNextRunOnANewOne) {
    SCALELAB_REQUIRE_SERVER();
    test::TestDatabase db(test::SharedServer::get(), "template0");
    std::string at = storeLocation(db.conninfo(), "x");
    auto e = ExperimentStore::create(at);
    e->saveRun(run("s", 1, 1, 100), {});
    {
        pqxx::connection c(db.conninfo());
        pqxx::nontransaction tx(c);
        auto killed = tx.exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                              "WHERE application_name = 'scalelab results store' AND datname = current_database()");
        ASSERT_EQ(killed.size(), 1u);
    }
    e->saveRun(run("s", 2, 1, 180), {});
    EXPECT_EQ(ExperimentStore::open(at, true)->runs().size(), 2u);
    EXPECT_TRUE(ExperimentStore::beingWritten(at)) << "the lock was taken again";
}

// A COMMIT whose answer was lost (the connection broke after the server committed, and the
// server has not noticed): the writer connects again, ends its own old session that still holds
// the writer's lock, takes the lock and finds the run it stored rather than storing it twice; a
// failed run is one history row, a completed one is not refused as a second copy of itself.
TEST(ResultsStore, ARunWhoseCommitAnswerWasLostIsStoredOnce) {
    SCALELAB_REQUIRE_SERVER();
    test::TestDatabase db(test::SharedServer::get(), "template0");
    TempDir sockets("scalelab-proxy");
    CommitAnswerLost proxy(db.conninfo(), sockets.path());
    std::string direct = storeLocation(db.conninfo(), "x");
    {
        auto e = ExperimentStore::create(storeLocation(db.conninfo() + " host=" + proxy.host(), "x"));
        e->saveRun(run("s", 1, 1, 100, 0), {});
        RunRecord failed = run("s", 2, 1, 0, 1);
        failed.status = RunStatus::Failed;
        failed.error = "the embedded server died";
        failed.startedAt = "2026-11-30T08:01:00Z";
        failed.endedAt = "2026-11-30T08:01:02Z";
        RunRecord completed = run("s", 2, 1, 180, 1);
        completed.startedAt = "2026-11-30T08:02:00Z";
        completed.endedAt = "2026-11-30T08:02:02Z";
        StoredSample sample;
        sample.endS = 1;
        sample.transactions = 180;
        sample.tps = 180;
        for (const RunRecord& r : {failed, completed}) {
            proxy.arm();
            int64_t id = e->saveRun(r, {sample});
            auto runs = ExperimentStore::open(direct, true)->runs();
            ASSERT_FALSE(runs.empty());
            EXPECT_EQ(runs.back().id, id) << "the id of the row stored before the connection broke";
        }
        EXPECT_EQ(proxy.dropped(), 2) << "both COMMITs' answers were lost";
    }
    auto reader = ExperimentStore::open(direct, true);
    auto runs = reader->runs();
    ASSERT_EQ(runs.size(), 3u) << "each attempt once";
    EXPECT_EQ(runs[1].status, RunStatus::Failed);
    EXPECT_EQ(runs[2].status, RunStatus::Completed);
    EXPECT_EQ(reader->samples(runs[2].id).size(), 1u);
    EXPECT_EQ(reader->finishedRunIndexes(), (std::set<int64_t>{0, 1}));
}
