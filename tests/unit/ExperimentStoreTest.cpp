// The experiment file: round trips, finished-once runs, refusal of newer or foreign files
// (untouched), and importing pgbench reports and CSV (all or nothing).
#include "server/EmbeddedServer.h"
#include "report/Export.h"
#include "store/ExperimentStore.h"
#include "stats/ExperimentPoints.h"
#include "store/Import.h"
#include "util/Error.h"

#include "ErrorOf.h"
#include "RunRecords.h"
#include "util/TempDir.h"

#include <gtest/gtest.h>

#include <cmath>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace scalelab;
using test::errorOf;
namespace fs = std::filesystem;

namespace {

std::string data(const std::string& name) { return std::string(SCALELAB_TEST_DATA) + "/pgbench/" + name; }

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

RunRecord run(const std::string& series, int clients, int rep, double tps, std::optional<int64_t> index = {}) {
    return test::completedRun(series, clients, rep, tps, index);
}


struct StoreTest : ::testing::Test {
    TempDir dir{"scalelab-store"};
    std::string path = (dir.path() / "e.slab").string();
};

} // namespace

TEST_F(StoreTest, KeepsRunsSamplesPlanAndProvenance) {
    auto store = ExperimentStore::create(path);
    store->savePlan({{"version", 1}}, 42);
    store->addProvenance({{"machine", "x"}});
    StoredSample s;
    s.endS = 1;
    s.tps = 99.5;
    s.system = {{"cpu", {{"user", 12.5}}}};
    RunRecord r = run("A", 4, 1, 1234.5, 0);
    r.flags = {RunFlag::Unstable};
    r.latency.p95Ms = 3.25;
    r.cpuBusyPct = 80;
    int64_t id = store->saveRun(r, {s, s});
    store.reset();

    auto again = ExperimentStore::open(path, true);
    EXPECT_EQ(again->plan()->second, 42u);
    EXPECT_EQ(again->provenance().size(), 1u);
    auto runs = again->runs();
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].series, "A");
    EXPECT_EQ(runs[0].tps, 1234.5);
    EXPECT_EQ(runs[0].flags, RunFlags{RunFlag::Unstable});
    EXPECT_EQ(runs[0].latency.p95Ms, 3.25);
    EXPECT_EQ(*runs[0].cpuBusyPct, 80);
    auto samples = again->samples(id);
    ASSERT_EQ(samples.size(), 2u);
    EXPECT_EQ(samples[1].system["cpu"]["user"], 12.5);
}

TEST_F(StoreTest, APlannedRunIsFinishedOnlyOnceButStoppedAttemptsStay) {
    auto store = ExperimentStore::create(path);
    RunRecord stopped = run("A", 1, 1, 10, 3);
    stopped.status = RunStatus::Stopped;
    store->saveRun(stopped, {});
    store->saveRun(run("A", 1, 1, 100, 3), {});
    EXPECT_EQ(store->finishedRunIndexes(), std::set<int64_t>{3});
    EXPECT_EQ(errorOf([&] { store->saveRun(run("A", 1, 1, 100, 3), {}); }),
              path + " already holds a completed run number 3 of this plan; not writing it twice");
    EXPECT_EQ(store->runs().size(), 2u);
}

// A file deleted while it is written would take every later run into an inode no name
// reaches: the store writes it again, with every run, and says so.
TEST_F(StoreTest, AFileDeletedWhileWrittenIsWrittenAgainWithEveryRun) {
    auto store = ExperimentStore::create(path);
    store->saveRun(run("A", 1, 1, 100, 0), {});
    std::filesystem::remove(path);
    std::string error = errorOf([&] { store->saveRun(run("A", 2, 1, 200, 1), {}); });
    EXPECT_EQ(error, path + " was deleted while ScaleLab was writing it; ScaleLab wrote it again to " + path +
                         " with all 2 runs it held, the last one included");
    store->saveRun(run("A", 4, 1, 400, 2), {});  // and writes there from now on
    store.reset();
    EXPECT_FALSE(std::filesystem::exists(path + "-wal"));
    EXPECT_EQ(ExperimentStore::open(path, true)->runs().size(), 3u);
}

TEST_F(StoreTest, AFileReplacedWhileWrittenIsWrittenNextToIt) {
    auto store = ExperimentStore::create(path);
    store->saveRun(run("A", 1, 1, 100, 0), {});
    std::filesystem::remove(path);
    std::ofstream(path) << "someone else's file\n";
    std::string error = errorOf([&] { store->saveRun(run("A", 2, 1, 200, 1), {}); });
    EXPECT_EQ(error, path + " was replaced by another file while ScaleLab was writing it; ScaleLab wrote it again to " +
                         path + ".recovered with all 2 runs it held, the last one included");
    store.reset();
    EXPECT_EQ(ExperimentStore::open(path + ".recovered", true)->runs().size(), 2u);
    std::ifstream other(path);
    std::string line;
    std::getline(other, line);
    EXPECT_EQ(line, "someone else's file") << "the other file is left alone";
}

TEST_F(StoreTest, ACreateInAMissingDirectorySaysSo) {
    EXPECT_EQ(errorOf([&] { ExperimentStore::create((dir.path() / "no" / "e.slab").string()); }),
              "cannot create " + (dir.path() / "no" / "e.slab").string() + ": no directory " + (dir.path() / "no").string());
}

// Schema 2: a failed run no longer finishes its planned run, so that a retry can complete it.
// A schema-1 file (its old index) is migrated when opened for writing.
TEST_F(StoreTest, ASchema1FileIsMigratedSoThatFailedRunsCanBeRetried) {
    ExperimentStore::create(path).reset();
    {
        sqlite3* db = nullptr;
        ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
        ASSERT_EQ(sqlite3_exec(db,
                               "DROP INDEX runs_completed_once; CREATE UNIQUE INDEX runs_finished_once ON runs (run_index) "
                               "WHERE status IN ('completed', 'failed'); ALTER TABLE runs DROP COLUMN note; "
                               "PRAGMA user_version = 1;",
                               nullptr, nullptr, nullptr),
                  SQLITE_OK);
        sqlite3_close(db);
    }
    auto store = ExperimentStore::open(path);
    RunRecord failed = run("A", 1, 1, 10, 0);
    failed.status = RunStatus::Failed;
    store->saveRun(failed, {});
    EXPECT_TRUE(store->finishedRunIndexes().empty());
    store->saveRun(run("A", 1, 1, 100, 0), {});  // the retry: refused by the old index
    EXPECT_EQ(store->finishedRunIndexes(), std::set<int64_t>{0});
}

TEST_F(StoreTest, NotesOnTheExperimentAndOnRunsAreKept) {
    int64_t id = 0;
    {
        auto store = ExperimentStore::create(path);
        id = store->saveRun(run("A", 1, 1, 100, 0), {});
        store->saveRun(run("A", 2, 1, 180, 1), {});
        EXPECT_EQ(store->note(), "");
        store->setNote("HEAD vs patch\nsecond line");
        store->setNote("HEAD vs patch, laptop");  // replaced, not added
        store->setRunNote(id, "backup ran during this run");
        EXPECT_EQ(errorOf([&] { store->setRunNote(99, "x"); }), path + " has no run 99");
    }
    auto reader = ExperimentStore::open(path, true);
    EXPECT_EQ(reader->note(), "HEAD vs patch, laptop");
    auto runs = reader->runs();
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[0].note, "backup ran during this run");
    EXPECT_EQ(runs[1].note, "");
    auto j = exportJson(*reader, false);
    EXPECT_EQ(j["note"], "HEAD vs patch, laptop");
    EXPECT_EQ(j["runs"][0]["note"], "backup ran during this run");
    exportCsv(*reader, (dir.path() / "csv").string());
    std::string csv = slurp((dir.path() / "csv/runs.csv").string());
    EXPECT_NE(csv.find(",error,note,metrics_machine,nopm,tpm\r\n"), std::string::npos);
    EXPECT_NE(csv.find(",backup ran during this run,,,\r\n"), std::string::npos);  // no machine recorded: empty
}

// Schema 3 added run notes. A schema-2 file is read as it is (no notes, nothing changed: a
// reader never migrates) and migrated when opened for writing.
TEST_F(StoreTest, ASchema2FileIsReadWithoutNotesAndMigratedForWriting) {
    {
        auto store = ExperimentStore::create(path);
        store->saveRun(run("A", 1, 1, 100, 0), {});
    }
    {
        sqlite3* db = nullptr;
        ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
        ASSERT_EQ(sqlite3_exec(db, "ALTER TABLE runs DROP COLUMN note; PRAGMA user_version = 2;", nullptr, nullptr, nullptr),
                  SQLITE_OK);
        sqlite3_close(db);
    }
    {
        auto reader = ExperimentStore::open(path, true);
        auto runs = reader->runs();
        ASSERT_EQ(runs.size(), 1u);
        EXPECT_EQ(runs[0].note, "");
    }
    auto writer = ExperimentStore::open(path);
    writer->setRunNote(writer->runs()[0].id, "after the migration");
    EXPECT_EQ(writer->runs()[0].note, "after the migration");
}

TEST_F(StoreTest, RefusesANewerFileAndLeavesItUntouched) {
    ExperimentStore::create(path);
    sqlite3* db;
    sqlite3_open(path.c_str(), &db);
    sqlite3_exec(db, "PRAGMA user_version = 99", nullptr, nullptr, nullptr);
    sqlite3_close(db);
    std::string before = slurp(path);
    EXPECT_EQ(errorOf([&] { ExperimentStore::open(path); }),
              path + " was written by a newer ScaleLab (file schema 99, this ScaleLab reads up to " +
                  std::to_string(ExperimentStore::kSchemaVersion) + "); update ScaleLab to open it");
    EXPECT_EQ(slurp(path), before);
}

// Issue 31.13: a file with a table dropped was written to (a note, exit 0) and read with raw
// SQLite words; now one check on open names the file and the damage, and nothing is written.
TEST_F(StoreTest, ADamagedFileIsSaidToBeDamagedOnOpenAndNeverWritten) {
    {
        auto store = ExperimentStore::create(path);
        StoredSample s;
        s.endS = 1;
        store->saveRun(run("A", 1, 1, 100), {s});
    }
    auto exec = [&](const char* sql) {
        sqlite3* db;
        sqlite3_open(path.c_str(), &db);
        EXPECT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, nullptr), SQLITE_OK) << sql;
        sqlite3_close(db);
    };
    exec("DROP TABLE provenance");
    std::string before = slurp(path);
    for (bool readOnly : {false, true}) {
        std::string msg = errorOf([&] { ExperimentStore::open(path, readOnly)->setNote("written anyway"); });
        EXPECT_EQ(msg.rfind(path + " is damaged: its table 'provenance' is missing. Nothing was read from it or written to it", 0), 0u)
            << msg;
    }
    EXPECT_EQ(slurp(path), before);

    // A value whose bytes changed: the file is named with what could not be read, and a CSV
    // export that fails half-way leaves nothing (runs.csv was written before samples.csv).
    exec("CREATE TABLE provenance (id INTEGER PRIMARY KEY, taken_at TEXT NOT NULL, json TEXT NOT NULL)");
    exec("UPDATE samples SET system = '{\"cpu\": [tru'");
    auto store = ExperimentStore::open(path, true);
    EXPECT_EQ(errorOf([&] { store->samples(store->runs()[0].id); }), path + " is damaged: a sample's system figures is not JSON");
    std::string csv = (dir.path() / "csv").string();
    EXPECT_EQ(errorOf([&] { exportCsv(*store, csv); }), path + " is damaged: a sample's system figures is not JSON");
    EXPECT_FALSE(std::filesystem::exists(csv));
    std::filesystem::create_directory(csv);
    EXPECT_THROW(exportCsv(*store, csv), Error);
    EXPECT_TRUE(std::filesystem::is_empty(csv));  // no runs.csv, no partial file
}

// Issue 31.15: a failed run that never started stored tps 0.0, shown as a rate of 0.
TEST_F(StoreTest, AFailedRunThatNeverStartedHasNoRate) {
    auto store = ExperimentStore::create(path);
    RunRecord never = run("A", 1, 1, 0);
    never.status = RunStatus::Failed;
    never.error = "the server did not start";
    never.measuredSeconds = 0;
    never.transactions = 0;
    RunRecord cut = run("A", 2, 1, 50);
    cut.status = RunStatus::Failed;
    cut.measuredSeconds = 2;
    cut.transactions = 100;
    cut.error = "1 of 2 clients aborted";
    store->saveRun(never, {});
    store->saveRun(cut, {});
    auto runs = store->runs();
    EXPECT_TRUE(std::isnan(runs[0].tps));
    EXPECT_FALSE(metricOf(runs[0], RunMetric::Tps).has_value());
    EXPECT_EQ(runs[1].tps, 50);  // it measured something before it failed
    store->setExcluded(runs[0].id, false);  // included on purpose: still no point from it
    EXPECT_TRUE(pointRuns(store->runs(), {"A"}, RunMetric::Tps).size() <= 2);
    for (const auto& p : pointRuns(store->runs(), {"A"}, RunMetric::Tps))
        for (double v : p.values) EXPECT_FALSE(std::isnan(v));
    std::string csv = (dir.path() / "csv").string();
    exportCsv(*store, csv);
    std::string rows = slurp(csv + "/runs.csv");
    EXPECT_NE(rows.find(",failed,0,included,,0,0,0,"), std::string::npos) << rows;  // tps empty: missing
}

TEST_F(StoreTest, RefusesCorruptAndForeignFiles) {
    std::ofstream(path) << "this is not a database, it is a text file that happens to be long enough............";
    std::string before = slurp(path);
    std::string msg = errorOf([&] { ExperimentStore::open(path); });
    EXPECT_EQ(msg.rfind(path + " is not a ScaleLab experiment file, or it is damaged", 0), 0u) << msg;
    EXPECT_EQ(slurp(path), before);

    std::string other = (dir.path() / "other.db").string();
    sqlite3* db;
    sqlite3_open(other.c_str(), &db);
    sqlite3_exec(db, "CREATE TABLE t (x); PRAGMA user_version = 1", nullptr, nullptr, nullptr);
    sqlite3_close(db);
    EXPECT_EQ(errorOf([&] { ExperimentStore::open(other); }), other + " is an SQLite database but not a ScaleLab experiment file");
    EXPECT_EQ(errorOf([&] { ExperimentStore::create(other); }), other + " already exists; choose another file, or open it to continue");
    EXPECT_EQ(errorOf([&] { ExperimentStore::open(path + ".missing"); }), "no experiment file " + path + ".missing");
}

TEST(PgbenchImport, ReadsThe84Report) {
    auto runs = parsePgbenchOutput(slurp(data("pgbench-8.4.txt")), "old.txt", "HEAD");
    ASSERT_EQ(runs.size(), 1u);
    const RunRecord& r = runs[0].run;
    EXPECT_EQ(r.clients, 4);
    EXPECT_EQ(r.threads, 1);  // 8.4 has no threads line
    EXPECT_EQ(r.transactions, 4000u);
    EXPECT_EQ(r.tps, 515.123456);  // excluding connections establishing
    EXPECT_EQ(r.detail["workload"], "TPC-B (sort of)");
    EXPECT_EQ(r.detail["scale"], 10);
}

TEST(PgbenchImport, ReadsSeveralReportsOfA96LoopWithProgressLines) {
    auto runs = parsePgbenchOutput(slurp(data("pgbench-9.6-loop.txt")), "loop.txt", "patched");
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[0].run.clients, 8);
    EXPECT_EQ(runs[0].run.tps, 1251.987);
    EXPECT_EQ(runs[0].run.latency.meanMs, 6.397);
    EXPECT_EQ(runs[0].run.measuredSeconds, 2);
    ASSERT_EQ(runs[0].samples.size(), 2u);
    EXPECT_EQ(runs[0].samples[1].tps, 1300.0);
    EXPECT_EQ(runs[0].samples[1].latMeanMs, 6.15);
    EXPECT_EQ(runs[1].run.clients, 16);
    EXPECT_TRUE(runs[1].samples.empty());
}

TEST(PgbenchImport, ReadsThe16Report) {
    auto runs = parsePgbenchOutput(slurp(data("pgbench-16.txt")), "new.txt", "HEAD");
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].run.tps, 2004.56789);
    EXPECT_EQ(runs[0].run.failures, 0u);
    EXPECT_EQ(runs[0].run.detail["query_mode"], "simple");
    EXPECT_EQ(runs[0].samples.size(), 1u);
}

// Issue 31.9: std::regex recursed once per character and crashed (exit 139) on these lines.
TEST(PgbenchImport, VeryLongLinesAreReadWithoutCrashing) {
    std::string report = slurp(data("pgbench-16.txt"));
    auto withLine = [&](const std::string& after, const std::string& line) {
        std::string text = report;
        size_t at = text.find(after);
        size_t end = text.find('\n', at);
        return text.replace(at, end - at, line);
    };
    // A field with an 80,000-character value is read as that value.
    auto longMode = parsePgbenchOutput(withLine("query mode:", "query mode: simple" + std::string(80000, 'x')), "l.txt", "A");
    EXPECT_EQ(longMode[0].run.detail["query_mode"].get<std::string>().size(), 6u + 80000u);
    // A tps line followed by 50,000 zeros is not pgbench's tps line: the report has none.
    std::string zeros = "tps = 6225.674690" + std::string(50000, '0');
    std::string noTps = withLine("tps = ", zeros);
    EXPECT_NE(errorOf([&] { parsePgbenchOutput(noTps, "z.txt", "A"); }).find("has no 'tps = ' line"), std::string::npos);
    // A long number still inside pgbench's shape is read as a number.
    auto longNumber = parsePgbenchOutput(withLine("tps = ", "tps = 6225.674690" + std::string(50000, '0') +
                                                                " (without initial connection time)"),
                                         "n.txt", "A");
    EXPECT_EQ(longNumber[0].run.tps, 6225.67469);
    // Long progress and abort lines.
    std::string progress = "progress: 1.0 s, 100.0 tps, lat 1.000 ms stddev 0.100" + std::string(60000, ' ') + "\n";
    EXPECT_EQ(parsePgbenchOutput(progress + report, "p.txt", "A")[0].samples.size(), 2u);
    std::string abort = "pgbench: error: client " + std::string(60000, '7') + " script 0 aborted in command 0\n";
    EXPECT_EQ(parsePgbenchOutput(abort + report, "a.txt", "A")[0].run.status, RunStatus::Failed);
    std::string notAbort = "client " + std::string(60000, '7') + " script  aborted\n";
    EXPECT_EQ(parsePgbenchOutput(notAbort + report, "a.txt", "A")[0].run.status, RunStatus::Completed);
}

// Issue 31.10: numbers no pgbench prints are refused, with the file and line.
TEST(PgbenchImport, ImpossibleValuesAreRefused) {
    std::string report = slurp(data("pgbench-16.txt"));
    auto replaced = [&](const std::string& from, const std::string& to) {
        std::string t = report;
        return t.replace(t.find(from), from.size(), to);
    };
    EXPECT_EQ(errorOf([&] { parsePgbenchOutput(replaced("tps = 2004.567890", "tps = -5"), "n.txt", "A"); }),
              "n.txt:16: tps is negative: '-5'");
    EXPECT_EQ(errorOf([&] { parsePgbenchOutput(replaced("duration: 1 s", "duration: -1 s"), "d.txt", "A"); }),
              "d.txt:10: the duration must be more than 0 s: '-1 s'");
    EXPECT_EQ(errorOf([&] { parsePgbenchOutput(replaced("latency average = 3.990", "latency average = -3"), "l.txt", "A"); }),
              "l.txt:13: the latency average is negative: '-3 ms'");
    EXPECT_EQ(errorOf([&] { parseRunsCsv("series,clients,repetition,tps\nA,1,1,-5\n", "r.csv"); }), "r.csv:2: tps is negative: '-5'");
}

TEST(PgbenchImport, LineShapesAreReadExactlyAsBefore) {
    std::string report = slurp(data("pgbench-16.txt"));
    // A key must be lower-case words; anything else is a line the importer does not need.
    std::string text = "Query Mode: prepared\n" + report;
    EXPECT_EQ(parsePgbenchOutput(text, "k.txt", "A")[0].run.detail["query_mode"], "simple");
    // "-nan" in a progress line is a missing value, and a line not in the shape is no sample.
    std::string nan = "progress: 2.0 s, -nan tps, lat -nan ms stddev -nan\nprogress: 3.0 s, 5 tps, lat 1 ms\n";
    auto runs = parsePgbenchOutput(nan + report, "n.txt", "A");
    ASSERT_EQ(runs[0].samples.size(), 2u);
    EXPECT_TRUE(std::isnan(runs[0].samples[0].tps));
}

TEST_F(StoreTest, RunsThatDidNotCompleteAreLeftOutUnlessIncludedOnPurpose) {
    auto store = ExperimentStore::create(path);
    RunRecord failed = run("A", 4, 1, 50);
    failed.status = RunStatus::Failed;
    failed.error = "1 of 4 clients aborted";
    failed.measuredSeconds = 10;  // it measured a rate before it failed
    failed.transactions = 500;
    int64_t failedId = store->saveRun(failed, {});
    store->saveRun(run("A", 4, 2, 100), {});
    auto values = [&] { return pointRuns(store->runs(), {"A"}, RunMetric::Tps).at(0).values; };
    EXPECT_EQ(values(), std::vector<double>{100});
    store->setExcluded(failedId, false);  // scalelab runs --include ID
    EXPECT_EQ(values(), (std::vector<double>{50, 100}));
    EXPECT_EQ(store->runs()[0].flags, RunFlags{RunFlag::Included});
    store->setExcluded(failedId, true);
    EXPECT_EQ(values(), std::vector<double>{100});
    EXPECT_TRUE(store->runs()[0].flags.empty());
}

TEST(PgbenchImport, ValuesTheReportDoesNotHaveAreMissingNotZero) {
    auto old = parsePgbenchOutput(slurp(data("pgbench-8.4.txt")), "old.txt", "HEAD");
    EXPECT_TRUE(std::isnan(old[0].run.latency.meanMs));  // 8.4 reports no latency at all
    auto r = parsePgbenchOutput(slurp(data("pgbench-16.txt")), "new.txt", "HEAD")[0].run;
    EXPECT_EQ(r.latency.meanMs, 3.99);
    EXPECT_TRUE(std::isnan(r.latency.p95Ms));  // pgbench prints no percentiles
    EXPECT_FALSE(metricOf(r, RunMetric::LatencyP95).has_value());
    EXPECT_EQ(metricOf(r, RunMetric::LatencyMean), 3.99);
}

TEST(PgbenchImport, AbortedClientsMakeAFailedRun) {
    auto timed = parsePgbenchOutput(slurp(data("pgbench-15-aborted.txt")), "a.txt", "HEAD");
    ASSERT_EQ(timed.size(), 1u);
    EXPECT_EQ(timed[0].run.status, RunStatus::Failed);
    EXPECT_NE(timed[0].run.error.find("client 1 script 0 aborted in command 0 query 0: ERROR:  division by zero"),
              std::string::npos) << timed[0].run.error;
    EXPECT_EQ(timed[0].samples.size(), 2u);

    auto counted = parsePgbenchOutput(slurp(data("pgbench-15-aborted-t.txt")), "t.txt", "HEAD");
    EXPECT_EQ(counted[0].run.status, RunStatus::Failed);
    EXPECT_NE(counted[0].run.error.find("processed 10 of 15 transactions"), std::string::npos) << counted[0].run.error;
}

// With stdout buffered in a 2>&1 log, the abort lines and "Run was aborted" come before the
// report they belong to; the completed run before them stays completed.
TEST(PgbenchImport, AbortLinesBeforeTheReportBelongToIt) {
    auto runs = parsePgbenchOutput(slurp(data("pgbench-15-loop-buffered.txt")), "loop.txt", "HEAD");
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[0].run.status, RunStatus::Completed) << runs[0].run.error;
    EXPECT_EQ(runs[1].run.status, RunStatus::Failed);
    EXPECT_EQ(runs[1].samples.size(), 2u);
}

TEST(PgbenchImport, NanProgressLinesAndAMissingLine) {
    auto runs = parsePgbenchOutput(slurp(data("pgbench-15-progress-nan.txt")), "nan.txt", "HEAD");
    ASSERT_EQ(runs.size(), 1u);
    const auto& s = runs[0].samples;
    ASSERT_EQ(s.size(), 3u);
    EXPECT_TRUE(std::isnan(s[1].latMeanMs));
    EXPECT_EQ(s[1].transactions, 0u);
    // The line for 2..3 s is missing: the 4 s sample covers 3..4 s, not two intervals.
    EXPECT_EQ(s[2].startS, 3.0);
    EXPECT_EQ(s[2].transactions, 790u);
    EXPECT_EQ(runs[0].run.detail["progress_gaps"], 1);
}

// pgbench 15+ -t: failed and skipped transactions count toward the planned number.
// hot.sql: BEGIN ISOLATION LEVEL REPEATABLE READ; SELECT n FROM hot WHERE id = 1;
// SELECT pg_sleep(0.01); UPDATE hot SET n = n + 1 WHERE id = 1; END;
TEST(PgbenchImport, FailedAndSkippedTransactionsCompleteATRun) {
    auto failed = parsePgbenchOutput(slurp(data("pgbench-15-t-failed.txt")), "f.txt", "HEAD");
    ASSERT_EQ(failed.size(), 1u);
    EXPECT_EQ(failed[0].run.status, RunStatus::Completed) << failed[0].run.error;
    EXPECT_EQ(failed[0].run.transactions, 6u);
    EXPECT_EQ(failed[0].run.failures, 14u);
    EXPECT_EQ(failed[0].run.latency.meanMs, 26.120);
    auto skipped = parsePgbenchOutput(slurp(data("pgbench-15-t-skipped.txt")), "s.txt", "HEAD");
    EXPECT_EQ(skipped[0].run.status, RunStatus::Completed) << skipped[0].run.error;
    EXPECT_EQ(skipped[0].run.detail["skipped"], 25);
    // Short even with them: aborted, and the error counts them.
    auto aborted = parsePgbenchOutput(slurp(data("pgbench-15-aborted-t.txt")), "t.txt", "HEAD");
    EXPECT_EQ(aborted[0].run.status, RunStatus::Failed);
}

TEST(PgbenchImport, AReconnectingRunsTpsIsItsRate) {
    auto runs = parsePgbenchOutput(slurp(data("pgbench-15-reconnect.txt")), "c.txt", "HEAD");
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].run.tps, 21.831275);
    EXPECT_EQ(runs[0].run.detail["tps_including_reconnections"], 21.831275);
    EXPECT_FALSE(runs[0].run.detail.contains("tps_without_connections"));
}

TEST(PgbenchImport, AZeroLatencyAverageIsNotAMeasurement) {
    auto runs = parsePgbenchOutput(slurp(data("pgbench-9.5-t-no-latency.txt")), "old.txt", "HEAD");
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_TRUE(std::isnan(runs[0].run.latency.meanMs));
    EXPECT_FALSE(metricOf(runs[0].run, RunMetric::LatencyMean).has_value());
    EXPECT_EQ(runs[0].run.tps, 815.123456);
    // An interval without a transaction has no latency either.
    auto empty = parsePgbenchOutput(slurp(data("pgbench-9.6-empty-interval.txt")), "e.txt", "HEAD");
    ASSERT_EQ(empty[0].samples.size(), 3u);
    EXPECT_TRUE(std::isnan(empty[0].samples[1].latMeanMs));
    EXPECT_EQ(empty[0].samples[1].transactions, 0u);
    EXPECT_EQ(empty[0].samples[2].latMeanMs, 6.1);
}

TEST(PgbenchImport, ProgressTimestampsBecomeSecondsIntoTheRun) {
    auto runs = parsePgbenchOutput(slurp(data("pgbench-15-progress-timestamp.txt")), "p.txt", "HEAD");
    ASSERT_EQ(runs.size(), 1u);
    const auto& s = runs[0].samples;
    ASSERT_EQ(s.size(), 3u);
    EXPECT_NEAR(s[0].startS, 0, 1e-6);
    EXPECT_NEAR(s[0].endS, 1, 1e-6);
    EXPECT_NEAR(s[2].endS, 3, 1e-6);
    EXPECT_FALSE(runs[0].run.detail.contains("progress_gaps")) << "no false gap";
}

TEST(RunsCsvImport, AColumnTheFileLacksIsMissing) {
    auto runs = parseRunsCsv("series,clients,repetition,tps\nA,4,1,100.5\n", "tps-only.csv");
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_TRUE(std::isnan(runs[0].run.latency.p95Ms));
    EXPECT_FALSE(metricOf(runs[0].run, RunMetric::LatencyP95).has_value());
}

// Found by fuzz_import: counts too large for an integer, or not whole, are refused by line.
// The file keeps statuses and flags as words. Files written before a stopped run had one name
// say "aborted" for it; a word this ScaleLab does not know is an error naming the run, and a
// flag it does not know (a newer ScaleLab's) survives a change of the run's exclusion.
TEST_F(StoreTest, StatusAndFlagWordsAreReadIntoTheirTypes) {
    int64_t id = 0;
    {
        auto store = ExperimentStore::create(path);
        RunRecord stopped = run("A", 1, 1, 10, 0);
        stopped.status = RunStatus::Stopped;
        stopped.flags = {RunFlag::Unstable, RunFlag::ExtraRound};
        id = store->saveRun(stopped, {});
    }
    auto sql = [&](const std::string& statement) {
        sqlite3* db = nullptr;
        ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
        ASSERT_EQ(sqlite3_exec(db, statement.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(db);
    };
    {
        auto store = ExperimentStore::open(path, true);
        EXPECT_EQ(store->runs()[0].status, RunStatus::Stopped);
        EXPECT_EQ(store->runs()[0].flags.joined(), "unstable,extra-round");
    }
    sql("UPDATE runs SET status = 'aborted', flags = 'unstable,from-the-future'");
    {
        auto store = ExperimentStore::open(path);
        EXPECT_EQ(store->runs()[0].status, RunStatus::Stopped);
        store->setExcluded(id, false);
        EXPECT_EQ(store->runs()[0].flags.joined(), "unstable,included,from-the-future");
        EXPECT_TRUE(countsInStatistics(store->runs()[0]));
    }
    sql("UPDATE runs SET status = 'crashed'");
    EXPECT_EQ(errorOf([&] { ExperimentStore::open(path, true)->runs(); }),
              path + ": run " + std::to_string(id) + " has the status 'crashed', which this ScaleLab does not know "
                                                    "(completed, failed, stopped)");
}

TEST(RunFlagsText, ParsesAndWritesTheWordsOnce) {
    RunFlags f = RunFlags::parse("client-bound,,unstable,client-bound,odd,odd");
    EXPECT_TRUE(f.has(RunFlag::ClientBound));
    EXPECT_TRUE(f.has(RunFlag::Unstable));
    EXPECT_FALSE(f.has(RunFlag::Included));
    EXPECT_EQ(f.joined(";"), "client-bound;unstable;odd");
    f.remove(RunFlag::ClientBound);
    EXPECT_EQ(f.words(), (std::vector<std::string>{"unstable", "odd"}));
    EXPECT_TRUE(RunFlags::parse("").empty());
}

TEST(RunsCsvImport, AStatusMustBeOneScaleLabKnows) {
    auto runs = parseRunsCsv("series,clients,repetition,tps,status\nA,4,1,5,stopped\nA,4,2,6,aborted\nA,4,3,7,failed\n", "s.csv");
    ASSERT_EQ(runs.size(), 3u);
    EXPECT_EQ(runs[0].run.status, RunStatus::Stopped);
    EXPECT_EQ(runs[1].run.status, RunStatus::Stopped);
    EXPECT_EQ(runs[2].run.status, RunStatus::Failed);
    EXPECT_EQ(errorOf([] { parseRunsCsv("series,clients,repetition,tps,status\nA,4,1,5,ok\n", "s.csv"); }),
              "s.csv:2: the status 'ok' is not completed, failed or stopped");
    EXPECT_EQ(errorOf([] { parseRunsCsv("series,clients,repetition,tps,status\nA,4,1,5,\n", "s.csv"); }),
              "s.csv:2: the status '' is not completed, failed or stopped");
}

TEST(RunsCsvImport, CountsMustBeWholeAndInRange) {
    EXPECT_EQ(errorOf([] { parseRunsCsv("series,clients,repetition,tps\nA,1e106,1,5\n", "big.csv"); }),
              "big.csv:2: 'clients' is out of range: '1e106'");
    EXPECT_EQ(errorOf([] { parseRunsCsv("series,clients,repetition,tps\nA,1.5,1,5\n", "half.csv"); }),
              "half.csv:2: 'clients' is not a whole number: '1.5'");
    EXPECT_EQ(errorOf([] { parsePgbenchOutput("transaction type: x\nnumber of clients: 12222222222222\n", "p.txt", "s"); }),
              "p.txt:2: 'number of clients' is out of range: '12222222222222'");
}

TEST_F(StoreTest, AMissingValueIsStoredAsNullAndReadBackAsMissing) {
    auto store = ExperimentStore::create(path);
    importFiles(*store, {data("pgbench-8.4.txt")}, "HEAD");
    auto runs = store->runs();
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_TRUE(std::isnan(runs[0].latency.meanMs));
    EXPECT_TRUE(pointRuns(runs, {"HEAD"}, RunMetric::LatencyMean).empty());  // no point at 0 ms
    EXPECT_EQ(pointRuns(runs, {"HEAD"}, RunMetric::Tps).size(), 1u);
}

TEST_F(StoreTest, AMalformedFileFailsWithFileAndLineAndImportsNothing) {
    auto store = ExperimentStore::create(path);
    EXPECT_EQ(errorOf([&] { importFiles(*store, {data("pgbench-16.txt"), data("malformed-clients.txt")}, "HEAD"); }),
              data("malformed-clients.txt") + ":3: 'number of clients' is not a number: 'eight'");
    EXPECT_EQ(errorOf([&] { importFiles(*store, {data("malformed-no-tps.txt")}, "HEAD"); }),
              data("malformed-no-tps.txt") + ":4: the report that starts at line 1 has no 'tps = ' line");
    EXPECT_TRUE(store->runs().empty());
    EXPECT_EQ(importFiles(*store, {data("pgbench-9.6-loop.txt"), data("pgbench-16.txt")}, "HEAD"), 3);
    // The same content again doubles n: refused unless asked for.
    EXPECT_EQ(errorOf([&] { importFiles(*store, {data("pgbench-16.txt")}, "HEAD"); }),
              data("pgbench-16.txt") + " was imported into " + path +
                  " already (the same content); import it again on purpose with --again");
    EXPECT_EQ(store->runs().size(), 3u);
    EXPECT_EQ(importFiles(*store, {data("pgbench-16.txt")}, "HEAD", {}, true), 1);
    auto runs = store->runs();
    // 8 clients: the loop's first report (1), pgbench-16.txt (2), pgbench-16.txt again (3).
    EXPECT_EQ(runs.back().clients, 8);
    EXPECT_EQ(runs.back().repetition, 3) << "repetitions continue per series and client count";
}

TEST_F(StoreTest, ExportedRunsCsvImportsBackTheSameRuns) {
    auto store = ExperimentStore::create(path);
    store->saveRun(run("a, \"quoted\" series", 2, 1, 100.25), {});
    store->saveRun(run("plain", 4, 1, 1e-5), {});
    exportCsv(*store, (dir.path() / "csv").string());
    auto imported = parseRunsCsv(slurp((dir.path() / "csv/runs.csv").string()), "runs.csv");
    ASSERT_EQ(imported.size(), 2u);
    EXPECT_EQ(imported[0].run.series, "a, \"quoted\" series");
    EXPECT_EQ(imported[0].run.tps, 100.25);
    EXPECT_EQ(imported[1].run.tps, 1e-5);
    std::string points = slurp((dir.path() / "csv/points.csv").string());
    EXPECT_NE(points.find("\"a, \"\"quoted\"\" series\",2,,,tps,1,100.25,"), std::string::npos) << points;
    EXPECT_EQ(errorOf([] { parseRunsCsv("series,clients,repetition,tps\nx,1,1,\"12\n", "bad.csv"); }),
              "bad.csv:2: malformed CSV (a quoted field is not closed)");
    EXPECT_EQ(errorOf([] { parseRunsCsv("series,clients,tps\n", "bad.csv"); }), "bad.csv:1: the header has no 'repetition' column");
}

// One writer at a time; readers follow it.
TEST_F(StoreTest, ASecondWriterIsRefusedAndReadersFollowTheFirst) {
    auto writer = ExperimentStore::create(path);
    std::string refused = errorOf([&] { ExperimentStore::open(path); });
    EXPECT_EQ(refused, path + " is being written by another ScaleLab (a sweep, an import or a change of the runs); "
                              "wait until it has finished, or open the file read-only to follow it");
    auto reader = ExperimentStore::open(path, true);
    writer->saveRun(run("s", 4, 1, 100), {});
    EXPECT_EQ(reader->runs().size(), 1u) << "a reader sees what the writer stored";
    writer.reset();
    auto next = ExperimentStore::open(path);  // the lock went with the first writer
    EXPECT_EQ(next->runs().size(), 1u);
}

// Issue 61.12: opening a truncated file left -shm and -wal files beside it, and the error named
// its path twice. A refused file is left as it was found, and named once.
TEST_F(StoreTest, ATruncatedFileIsRefusedAndLeftAsItWasFound) {
    {
        auto store = ExperimentStore::create(path);
        for (int rep = 1; rep <= 20; ++rep) store->saveRun(run("A", 1, rep, 100), {});
    }
    std::string whole = slurp(path);
    ASSERT_GT(whole.size(), 6000u);
    std::string cut = (dir.path() / "cut.slab").string();
    std::ofstream(cut, std::ios::binary) << whole.substr(0, 6000);
    std::string error = errorOf([&] { ExperimentStore::open(cut, true)->runs(); });
    EXPECT_EQ(error, cut + " is not a ScaleLab experiment file, or it is damaged (SQLite: database disk image is malformed)");
    EXPECT_FALSE(std::filesystem::exists(cut + "-wal"));
    EXPECT_FALSE(std::filesystem::exists(cut + "-shm"));
}
