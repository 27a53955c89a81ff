// The results store's row-level security against a role that tries to get around it
// (issue 60.1 and 60.2), on a real server with real roles. Every role may create temporary
// objects, and pg_temp is searched first for relations when a search path does not name it: a
// store function that looks a catalog relation up through its caller's search path finds the
// attacker's (the temporary view and table below made acts_as() true on store schema 2).
// PostgreSQL never looks functions or operators up in pg_temp, even when a session names it
// first (checked on PostgreSQL 15: the three function and operator variants were already held
// on schema 2); they are tried anyway, so that a change of either rule would show. Each attack
// runs in one session as bob, against an experiment of alice's and one of the administrator's.
#include "SharedServer.h"

#include "store/ExperimentStore.h"
#include "store/PgStore.h"

#include "ErrorOf.h"
#include "RunRecords.h"

#include <gtest/gtest.h>
#include <pqxx/pqxx>

using namespace scalelab;
using test::errorOf;

namespace {

const char* const kRoles[] = {"scalelab_rls_alice", "scalelab_rls_bob"};

// What bob runs first, in his own session, to make the store's functions see what he wants.
struct Attack {
    const char* name;
    const char* prelude;
};
const Attack kAttacks[] = {
    {"a temporary view named pg_roles that says every role's oid is bob's",
     "CREATE TEMP VIEW pg_roles AS SELECT r.rolname, (SELECT oid FROM pg_catalog.pg_roles WHERE rolname = current_user) "
     "AS oid FROM pg_catalog.pg_roles r"},
    {"a temporary table named pg_roles",
     "CREATE TEMP TABLE pg_roles AS SELECT r.rolname, (SELECT oid FROM pg_catalog.pg_roles WHERE rolname = current_user) "
     "AS oid FROM pg_catalog.pg_roles r"},
    {"a temporary pg_has_role() that is always true, with pg_temp first in the search path",
     "CREATE FUNCTION pg_temp.pg_has_role(name, oid, text) RETURNS boolean LANGUAGE sql AS 'SELECT true'; "
     "SET search_path = pg_temp, pg_catalog"},
    {"a temporary pg_has_role() taking varchar, with pg_temp first in the search path",
     "CREATE FUNCTION pg_temp.pg_has_role(name, oid, varchar) RETURNS boolean LANGUAGE sql AS 'SELECT true'; "
     "SET search_path = pg_temp, pg_catalog"},
    {"a temporary = operator on names that is always true, with pg_temp first in the search path",
     "CREATE FUNCTION pg_temp.yes(name, name) RETURNS boolean LANGUAGE sql AS 'SELECT true'; "
     "CREATE OPERATOR pg_temp.= (LEFTARG = name, RIGHTARG = name, FUNCTION = pg_temp.yes); "
     "SET search_path = pg_temp, pg_catalog"},
};

class StoreRowSecurity : public ::testing::Test {
protected:
    void SetUp() override {
        SCALELAB_REQUIRE_SERVER();
        db = std::make_unique<test::TestDatabase>(test::SharedServer::get(), "template0");
        admin = db->conninfo();
        for (const char* role : kRoles)
            exec(admin, std::string("DO $$ BEGIN CREATE ROLE ") + role +
                            " LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$");
        ExperimentStore::create(storeLocation(admin, "admin's"))->saveRun(test::completedRun("A", 1, 1, 50), {});
        // The documented grants (docs/results-store.md).
        exec(admin, "GRANT USAGE ON SCHEMA scalelab TO scalelab_rls_alice, scalelab_rls_bob; "
                    "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA scalelab TO scalelab_rls_alice, scalelab_rls_bob; "
                    "GRANT USAGE ON ALL SEQUENCES IN SCHEMA scalelab TO scalelab_rls_alice, scalelab_rls_bob");
        alice = admin + " user=scalelab_rls_alice";
        bob = admin + " user=scalelab_rls_bob";
        ExperimentStore::create(storeLocation(alice, "alice's"))->saveRun(test::completedRun("A", 1, 1, 100), {});
    }

    static size_t exec(const std::string& conninfo, const std::string& statement) {
        pqxx::connection c(conninfo);
        pqxx::nontransaction tx(c);
        return tx.exec(statement).affected_rows();
    }
    static std::string value(const std::string& conninfo, const std::string& query) {
        pqxx::connection c(conninfo);
        pqxx::nontransaction tx(c);
        return tx.exec1(query)[0].c_str();
    }

    // Bob's session: the attack's prelude, then what the issue saw him do. Each statement in its
    // own subtransaction, so that one refused does not hide the next.
    void attackFails(const Attack& attack) {
        SCOPED_TRACE(attack.name);
        pqxx::connection c(bob);
        pqxx::nontransaction tx(c);
        tx.exec(attack.prelude);
        auto tried = [&](const std::string& statement) -> std::string {
            try {
                tx.exec("SAVEPOINT s");
                auto r = tx.exec(statement);
                tx.exec("RELEASE SAVEPOINT s");
                if (r.columns() == 1 && r.size() == 1) return r[0][0].c_str();
                return std::to_string(r.affected_rows()) + " rows";
            } catch (const std::exception& e) {
                tx.exec("ROLLBACK TO SAVEPOINT s");
                return "refused";
            }
        };
        tx.exec("BEGIN");
        EXPECT_EQ(tried("SELECT scalelab.acts_as('scalelab_rls_alice')"), "f");
        EXPECT_EQ(tried("SELECT scalelab.may_write(id) FROM scalelab.experiments WHERE name::text = 'alice''s'"), "f");
        EXPECT_EQ(tried("UPDATE scalelab.runs SET tps = tps * 10"), "0 rows");
        std::string taken = tried("UPDATE scalelab.experiments SET owner = 'scalelab_rls_bob' WHERE name::text = 'alice''s'");
        EXPECT_TRUE(taken == "0 rows" || taken == "refused") << taken;
        EXPECT_EQ(tried("INSERT INTO scalelab.plan (experiment_id, json, seed) "
                        "SELECT id, '{}', 1 FROM scalelab.experiments WHERE name::text = 'alice''s'"),
                  "refused");
        EXPECT_EQ(tried("DELETE FROM scalelab.experiments WHERE name::text = 'admin''s'"), "0 rows");
        EXPECT_EQ(tried("UPDATE scalelab.store_version SET version = 99"), "0 rows");
        EXPECT_EQ(tried("INSERT INTO scalelab.store_version VALUES (99)"), "refused");
        tx.exec("COMMIT");
    }

    void nothingChanged() {
        EXPECT_EQ(value(admin, "SELECT string_agg(e.name || ':' || e.owner || ':' || r.tps, ',' ORDER BY e.name) "
                               "FROM scalelab.experiments e JOIN scalelab.runs r ON r.experiment_id = e.id"),
                  "admin's:" + value(admin, "SELECT current_user") + ":50,alice's:scalelab_rls_alice:100");
        EXPECT_EQ(value(admin, "SELECT count(*) FROM scalelab.plan"), "0");
        EXPECT_EQ(value(admin, "SELECT string_agg(version::text, ',') FROM scalelab.store_version"),
                  std::to_string(pgstore::kSchemaVersion));
        EXPECT_EQ(ExperimentStore::open(storeLocation(alice, "alice's"), true)->runs().size(), 1u);
    }

    std::unique_ptr<test::TestDatabase> db;
    std::string admin, alice, bob;
};

TEST_F(StoreRowSecurity, NoTemporaryObjectLetsARoleActAsAnother) {
    for (const auto& attack : kAttacks) attackFails(attack);
    nothingChanged();
}

// The class, not the examples: every function of the store fixes its search path, so no
// function added later can be redirected the same way.
TEST_F(StoreRowSecurity, EveryStoreFunctionFixesItsSearchPath) {
    EXPECT_EQ(value(admin, "SELECT coalesce(string_agg(proname, ', '), 'none') FROM pg_proc "
                           "WHERE pronamespace = 'scalelab'::regnamespace "
                           "AND NOT coalesce(proconfig @> ARRAY['search_path=pg_catalog, pg_temp'], false)"),
              "none");
    EXPECT_EQ(value(admin, "SELECT count(*) FROM pg_proc WHERE pronamespace = 'scalelab'::regnamespace"), "3");
}

// A store of schema 2 (functions without a fixed search path, store_version without row-level
// security) is upgraded by its owner's first writing ScaleLab command; until then a team
// member's writing command says who must upgrade it.
TEST_F(StoreRowSecurity, ASchemaTwoStoreIsUpgradedByItsOwnerAndThenHolds) {
    exec(admin, R"sql(
        CREATE OR REPLACE FUNCTION scalelab.acts_as(owner name) RETURNS boolean LANGUAGE sql STABLE AS $$
            SELECT EXISTS (SELECT 1 FROM pg_roles r WHERE r.rolname = owner AND pg_has_role(current_user, r.oid, 'MEMBER'))
        $$;
        ALTER FUNCTION scalelab.acts_as(name) RESET search_path;
        ALTER FUNCTION scalelab.may_write(bigint) RESET search_path;
        ALTER FUNCTION scalelab.guard_experiment() RESET search_path;
        DROP POLICY read ON scalelab.store_version;
        ALTER TABLE scalelab.store_version DISABLE ROW LEVEL SECURITY;
        UPDATE scalelab.store_version SET version = 2;
    )sql");
    // The schema-2 hole, as the issue found it: the test would not show a fix otherwise.
    {
        pqxx::connection c(bob);
        pqxx::nontransaction tx(c);
        tx.exec(kAttacks[0].prelude);
        EXPECT_EQ(std::string(tx.exec1("SELECT scalelab.acts_as('scalelab_rls_alice')")[0].c_str()), "t");
    }
    EXPECT_NE(errorOf([&] { ExperimentStore::open(storeLocation(alice, "alice's"))->setNote("x"); })
                  .find("the upgrade failed"),
              std::string::npos);
    ExperimentStore::open(storeLocation(admin, "admin's"))->setNote("upgraded");
    EXPECT_EQ(value(admin, "SELECT version FROM scalelab.store_version"), std::to_string(pgstore::kSchemaVersion));
    for (const auto& attack : kAttacks) attackFails(attack);
    nothingChanged();
}

} // namespace
