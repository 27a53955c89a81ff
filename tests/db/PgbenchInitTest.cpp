// `scalelab init` against `pgbench -i`: the same options into two databases of one server must
// give the same tables: row counts, NULLs, columns, relation sizes, indexes, constraints and
// partitions. pgbench is the installed one, next to the server programs.
#include "ErrorOf.h"
#include "SharedServer.h"

#include "load/LoadRun.h"
#include "load/data/PgbenchData.h"
#include "server/PgBinaries.h"
#include "util/Subprocess.h"

#include <gtest/gtest.h>
#include <pqxx/pqxx>

#include <sstream>

using namespace scalelab;

namespace {

EmbeddedServer& server() { return test::SharedServer::get({{"autovacuum", "off"}}); }

std::string freshDatabase(const std::string& name) { return test::freshDatabase(server(), name); }

// Everything about the pgbench tables that changes what a benchmark measures, as text.
std::string fingerprint(const std::string& conninfo) {
    pqxx::connection c(conninfo);
    pqxx::nontransaction tx(c);
    std::ostringstream out;
    auto dump = [&](const std::string& title, const std::string& sql) {
        out << "## " << title << "\n";
        for (const auto& row : tx.exec(sql)) {
            for (const auto& f : row) out << (f.is_null() ? "NULL" : f.c_str()) << " | ";
            out << "\n";
        }
    };
    const std::string ours = "c.relnamespace = 'public'::regnamespace AND c.relname LIKE 'pgbench%'";
    dump("relations",
         "SELECT c.relname, c.relkind, CASE WHEN c.relkind = 'p' THEN '-' ELSE c.relpersistence::text END, c.reloptions, "
         "pg_relation_size(c.oid, 'main') FROM pg_class c WHERE " + ours + " ORDER BY 1");
    dump("columns",
         "SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull FROM pg_attribute a "
         "JOIN pg_class c ON c.oid = a.attrelid WHERE " + ours + " AND c.relkind IN ('r', 'p') AND a.attnum > 0 "
         "AND NOT a.attisdropped ORDER BY 1, a.attnum");
    dump("constraints",
         "SELECT c.relname, k.conname, pg_get_constraintdef(k.oid) FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid "
         "WHERE " + ours + " ORDER BY 1, 2");
    dump("indexes", "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE tablename LIKE 'pgbench%' ORDER BY 1, 2");
    dump("partitions",
         "SELECT c.relname, pg_get_expr(c.relpartbound, c.oid), p.partstrat FROM pg_class c "
         "LEFT JOIN pg_partitioned_table p ON p.partrelid = c.oid WHERE " + ours +
         " AND (c.relispartition OR p.partrelid IS NOT NULL) ORDER BY 1");
    dump("rows",
         "SELECT 'accounts', count(*), count(filler), min(aid), max(aid), sum(bid), sum(abalance), "
         "count(*) FILTER (WHERE filler = '') FROM pgbench_accounts "
         "UNION ALL SELECT 'branches', count(*), count(filler), min(bid), max(bid), sum(bid), sum(bbalance), 0 FROM pgbench_branches "
         "UNION ALL SELECT 'tellers', count(*), count(filler), min(tid), max(tid), sum(bid), sum(tbalance), 0 FROM pgbench_tellers "
         "UNION ALL SELECT 'history', count(*), count(filler), 0, 0, 0, 0, 0 FROM pgbench_history");
    dump("visibility (all-visible pages after the vacuum step)",
         "SELECT c.relname, c.relallvisible > 0 FROM pg_class c WHERE " + ours + " AND c.relkind = 'r' ORDER BY 1");
    return out.str();
}

struct InitCase {
    std::string name;
    std::vector<std::string> pgbenchArgs;  // after -i
    PgbenchInitOptions options;
};

class SameAsPgbench : public ::testing::TestWithParam<InitCase> {};

TEST_P(SameAsPgbench, TablesMatch) {
    const InitCase& k = GetParam();
    std::string ours = freshDatabase("ours_" + k.name), theirs = freshDatabase("theirs_" + k.name);
    initPgbenchData(ours, k.options);

    std::vector<std::string> argv = {(findPgBinaries().bindir / "pgbench").string(), "-i", "-s",
                                     std::to_string(k.options.scale)};
    argv.insert(argv.end(), k.pgbenchArgs.begin(), k.pgbenchArgs.end());
    argv.push_back(theirs);
    ProcessResult r = runProcess(argv);
    ASSERT_TRUE(r.ok()) << shellQuote(argv) << "\n" << r.output;

    EXPECT_EQ(fingerprint(ours), fingerprint(theirs)) << "pgbench -i " << shellQuote(k.pgbenchArgs);
}

PgbenchInitOptions opts(int64_t scale, const std::function<void(PgbenchInitOptions&)>& set = {}) {
    PgbenchInitOptions o;
    o.scale = scale;
    if (set) set(o);
    return o;
}

INSTANTIATE_TEST_SUITE_P(
    OptionSets, SameAsPgbench,
    ::testing::Values(
        InitCase{"defaults", {}, opts(2)},
        InitCase{"fillfactor_unlogged_fkeys", {"-F", "80", "--unlogged-tables", "--foreign-keys"},
                 opts(1, [](PgbenchInitOptions& o) {
                     o.fillfactor = 80;
                     o.unloggedTables = true;
                     o.foreignKeys = true;
                 })},
        InitCase{"range_partitions", {"--partitions", "3"}, opts(2, [](PgbenchInitOptions& o) { o.partitions = 3; })},
        InitCase{"hash_partitions_server_side", {"--partitions", "4", "--partition-method", "hash", "-I", "dtGvp"},
                 opts(1, [](PgbenchInitOptions& o) {
                     o.partitions = 4;
                     o.partitionMethod = PartitionMethod::Hash;
                     o.steps = "dtGvp";
                 })},
        InitCase{"no_vacuum_quiet", {"-n", "-q"}, opts(1, [](PgbenchInitOptions& o) {
                     o.noVacuum = true;
                     o.quiet = true;
                 })}),
    [](const ::testing::TestParamInfo<InitCase>& test) { return test.param.name; });

TEST(PgbenchInit, OptionErrorsSayWhatPgbenchSays) {
    auto message = [](const std::function<void(PgbenchInitOptions&)>& set) {
        PgbenchInitOptions o;
        set(o);
        try {
            checkInitOptions(o);
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(message([](PgbenchInitOptions& o) { o.steps = "dtx"; }),
              "unrecognized initialization step \"x\"; allowed step characters are: \"dtgGvpf\"");
    EXPECT_EQ(message([](PgbenchInitOptions& o) { o.steps = ""; }), "no initialization steps specified");
    EXPECT_EQ(message([](PgbenchInitOptions& o) { o.partitionMethod = PartitionMethod::Hash; }),
              "--partition-method requires greater than zero --partitions");
    EXPECT_EQ(message([](PgbenchInitOptions& o) { o.fillfactor = 5; }), "-F/--fillfactor must be in range 10..100 (got 5)");
    EXPECT_EQ(message([](PgbenchInitOptions& o) { o.steps = "d t g"; }), "accepted");
    EXPECT_THROW(parsePartitionMethod("list"), Error);
}

TEST(PgbenchInit, StepsAfterNoVacuumAndForeignKeys) {
    PgbenchInitOptions o;
    o.noVacuum = true;
    o.foreignKeys = true;
    EXPECT_EQ(effectiveInitSteps(o), "dtg pf");
    o.steps = "dtgvpf";
    EXPECT_EQ(effectiveInitSteps(o), "dtg pf");
}

// Before each run, as pgbench without -n: branches and tellers vacuumed, history emptied.
TEST(RunHousekeeping, VacuumsAndTruncatesLikePgbench) {
    std::string db = freshDatabase("housekeeping");
    initPgbenchData(db, opts(1));
    {
        pqxx::connection c(db);
        pqxx::work tx(c);
        tx.exec("INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (1, 1, 1, 5, now())");
        tx.commit();
    }
    auto steps = prepareForRun(db, RunVacuum::Pgbench);
    ASSERT_EQ(steps.size(), 3u);
    EXPECT_EQ(steps[0].statement, "vacuum pgbench_branches");
    EXPECT_EQ(steps[1].statement, "vacuum pgbench_tellers");
    EXPECT_EQ(steps[2].statement, "truncate pgbench_history");
    for (const auto& s : steps) EXPECT_EQ(s.error, "") << s.statement;
    pqxx::connection c(db);
    pqxx::nontransaction tx(c);
    EXPECT_EQ(tx.exec("SELECT count(*) FROM pgbench_history")[0][0].as<int>(), 0);
    EXPECT_EQ(tx.exec("SELECT count(*) FROM pg_stat_user_tables WHERE relname IN ('pgbench_branches', 'pgbench_tellers') "
                      "AND vacuum_count > 0")[0][0].as<int>(), 2);

    EXPECT_TRUE(prepareForRun(db, RunVacuum::None).empty());
    EXPECT_EQ(prepareForRun(db, RunVacuum::All).back().statement, "vacuum analyze pgbench_accounts");
}

// A custom script against a database without the tables: pgbench ignores the errors.
TEST(RunHousekeeping, MissingTablesAreNotedAndIgnored) {
    std::string db = freshDatabase("housekeeping_empty");
    auto steps = prepareForRun(db, RunVacuum::Pgbench);
    ASSERT_EQ(steps.size(), 3u);
    EXPECT_NE(steps[0].error.find("pgbench_branches"), std::string::npos) << steps[0].error;
}

// The data rule of `scalelab run` and sweeps: a server of the user's without the tables is
// refused with what to do; ScaleLab's own makes them once, saying so; reinit makes them again.
TEST(EnsureData, MadeOnScaleLabsOwnServerRefusedOnTheUsersKeptOtherwise) {
    std::string db = freshDatabase("ensure_data");
    std::vector<std::string> notes;
    auto note = [&](const std::string& s) { notes.push_back(s); };
    PgbenchDataNeed need;
    need.scale = 1;
    need.otherwise = "run scalelab init first";
    EXPECT_EQ(test::errorOf([&] { ensurePgbenchData(db, need, note); }),
              "the target database has no pgbench tables: run scalelab init first");
    EXPECT_FALSE(inspectPgbenchData(db).complete);

    need.ownServer = true;
    PgbenchDataInfo made = ensurePgbenchData(db, need, note);
    EXPECT_TRUE(made.complete);
    EXPECT_EQ(made.scale, 1);
    ASSERT_FALSE(notes.empty());
    EXPECT_EQ(notes[0], "the embedded server has no pgbench tables yet: initializing scale 1");

    notes.clear();
    need.scale = 2;  // complete tables are used as they are
    EXPECT_EQ(ensurePgbenchData(db, need, note).scale, 1);
    EXPECT_TRUE(notes.empty());
    need.reinit = true;
    EXPECT_EQ(ensurePgbenchData(db, need, note).scale, 2);
}

} // namespace
