// TPROC-C's data loaded into a real server (core/load/data/TpccLoad.h): row counts and value
// ranges of the nine tables against the TPC-C specification's clause 4.3.3.1 for 2 warehouses,
// the keys, the consistency conditions of clause 3.3.2 that hold after a load, the same rows
// whatever the number of loading connections, and the refusals that protect tables ScaleLab did
// not make.
#include "ErrorOf.h"
#include "SharedServer.h"

#include "load/data/TpccCheck.h"
#include "load/data/TpccLoad.h"
#include "load/data/TpccResults.h"
#include "load/data/TpccScripts.h"
#include "load/LoadRun.h"

#include <gtest/gtest.h>
#include <pqxx/pqxx>

using namespace scalelab;

namespace {

EmbeddedServer& server() { return test::SharedServer::get({{"autovacuum", "off"}}); }

std::string freshDatabase(const std::string& name) { return test::freshDatabase(server(), name); }

// The first column of the first row as text ("NULL" for null).
std::string value(const std::string& conninfo, const std::string& sql) {
    pqxx::connection c(conninfo);
    pqxx::nontransaction tx(c);
    pqxx::result r = tx.exec(sql);
    return r[0][0].is_null() ? "NULL" : r[0][0].c_str();
}

tpcc::InitOptions options(int warehouses, int jobs, uint64_t seed) {
    tpcc::InitOptions o;
    o.warehouses = warehouses;
    o.jobs = jobs;
    o.seed = seed;
    return o;
}

class TpccInitTest : public ::testing::Test {
protected:
    // One 2-warehouse load, shared by the tests that only read it.
    static const std::string& twoWarehouses() {
        static const std::string conninfo = [] {
            std::string c = freshDatabase("tpcc_two");
            tpcc::initData(c, options(2, 3, 42));
            return c;
        }();
        return conninfo;
    }
};

TEST_F(TpccInitTest, TwoWarehousesHoldTheSpecificationsRowCounts) {
    const std::string& c = twoWarehouses();
    EXPECT_EQ(value(c, "SELECT count(*) FROM item"), "100000");
    EXPECT_EQ(value(c, "SELECT count(*) FROM warehouse"), "2");
    EXPECT_EQ(value(c, "SELECT count(*) FROM district"), "20");
    EXPECT_EQ(value(c, "SELECT count(*) FROM stock"), "200000");
    EXPECT_EQ(value(c, "SELECT count(*) FROM customer"), "60000");
    EXPECT_EQ(value(c, "SELECT count(*) FROM history"), "60000");
    EXPECT_EQ(value(c, "SELECT count(*) FROM orders"), "60000");
    EXPECT_EQ(value(c, "SELECT count(*) FROM new_order"), "18000");
    EXPECT_EQ(value(c, "SELECT count(*) = (SELECT sum(o_ol_cnt) FROM orders) FROM order_line"), "t");
    // Every warehouse has each of its ids once.
    EXPECT_EQ(value(c, "SELECT count(DISTINCT (s_w_id, s_i_id)) FROM stock"), "200000");
    EXPECT_EQ(value(c, "SELECT count(DISTINCT (c_w_id, c_d_id, c_id)) FROM customer"), "60000");
    EXPECT_EQ(value(c, "SELECT string_agg(DISTINCT w_id::text, ',') FROM warehouse"), "1,2");
}

TEST_F(TpccInitTest, ValuesLieInTheSpecificationsRanges) {
    const std::string& c = twoWarehouses();
    EXPECT_EQ(value(c, "SELECT min(i_price) >= 1.00 AND max(i_price) <= 100.00 AND min(i_im_id) >= 1 AND max(i_im_id) <= 10000 FROM item"), "t");
    EXPECT_EQ(value(c, "SELECT min(s_quantity) >= 10 AND max(s_quantity) <= 100 FROM stock"), "t");
    EXPECT_EQ(value(c, "SELECT bool_and(w_ytd = 300000.00 AND w_tax BETWEEN 0 AND 0.2) FROM warehouse"), "t");
    EXPECT_EQ(value(c, "SELECT bool_and(d_ytd = 30000.00 AND d_next_o_id = 3001) FROM district"), "t");
    EXPECT_EQ(value(c, "SELECT bool_and(c_credit IN ('GC', 'BC') AND c_discount BETWEEN 0 AND 0.5 AND c_balance = -10.00) FROM customer"), "t");
    // 10% bad credit and 10% ORIGINAL, within what 60,000 and 300,000 draws allow.
    EXPECT_EQ(value(c, "SELECT avg((c_credit = 'BC')::int) BETWEEN 0.09 AND 0.11 FROM customer"), "t");
    EXPECT_EQ(value(c, "SELECT avg((s_data LIKE '%ORIGINAL%')::int) BETWEEN 0.09 AND 0.11 FROM stock"), "t");
    // The first 1,000 customers of a district have the last names of 0..999, in order.
    EXPECT_EQ(value(c, "SELECT c_last FROM customer WHERE c_w_id = 2 AND c_d_id = 3 AND c_id = 372"), "PRICALLYOUGHT");
    EXPECT_EQ(value(c, "SELECT min(o_ol_cnt) >= 5 AND max(o_ol_cnt) <= 15 FROM orders"), "t");
    // Orders 2,101 to 3,000 are undelivered: no carrier, their lines no delivery date.
    EXPECT_EQ(value(c, "SELECT count(*) FROM orders WHERE o_carrier_id IS NULL"), "18000");
    EXPECT_EQ(value(c, "SELECT bool_and((o_carrier_id IS NULL) = (o_id >= 2101)) FROM orders"), "t");
    EXPECT_EQ(value(c, "SELECT bool_and((ol_delivery_d IS NULL) = (ol_o_id >= 2101) AND (ol_amount = 0) = (ol_o_id < 2101)) FROM order_line"), "t");
    EXPECT_EQ(value(c, "SELECT bool_and(ol_i_id BETWEEN 1 AND 100000 AND ol_supply_w_id = ol_w_id) FROM order_line"), "t");
}

// Clause 3.3.2's conditions 1 to 4, as the rows that break each: all hold from the start, and
// must after any run.
std::string consistencyViolations(const std::string& c) {
    return value(c, "SELECT count(*) FROM warehouse w WHERE w_ytd <> (SELECT sum(d_ytd) FROM district WHERE d_w_id = w_id)") + " " +
           value(c, "SELECT count(*) FROM district WHERE d_next_o_id - 1 <> (SELECT max(o_id) FROM orders WHERE o_w_id = d_w_id AND o_d_id = d_id) "
                    "OR d_next_o_id - 1 <> (SELECT max(no_o_id) FROM new_order WHERE no_w_id = d_w_id AND no_d_id = d_id)") + " " +
           value(c, "SELECT count(*) FROM (SELECT no_w_id, no_d_id, max(no_o_id) - min(no_o_id) + 1 AS span, count(*) AS n "
                    "FROM new_order GROUP BY 1, 2) d WHERE span <> n") + " " +
           value(c, "SELECT count(*) FROM (SELECT o_w_id, o_d_id, sum(o_ol_cnt) AS lines FROM orders GROUP BY 1, 2) o "
                    "WHERE lines <> (SELECT count(*) FROM order_line WHERE ol_w_id = o_w_id AND ol_d_id = o_d_id)");
}

TEST_F(TpccInitTest, TheLoadIsConsistent) { EXPECT_EQ(consistencyViolations(twoWarehouses()), "0 0 0 0"); }

// `scalelab check`'s conditions (core/load/data/TpccCheck): all twelve hold on a fresh load
// (11 too: nothing delivered since), and a planted inconsistency breaks the conditions it
// should and no other.
TEST_F(TpccInitTest, TheTwelveConditionsHoldAfterTheLoadAndCatchWhatIsPlanted) {
    std::string c = freshDatabase("tpcc_check");
    tpcc::initData(c, options(1, 2, 8));
    auto broken = [&] {
        std::string out;
        for (const auto& r : tpcc::checkConsistency(c)) {
            EXPECT_TRUE(r.violations.has_value()) << r.number << " must apply to loaded data: " << r.notApplicable;
            if (r.violations && *r.violations) {
                out += (out.empty() ? "" : " ") + std::to_string(r.number) + ":" + std::to_string(*r.violations);
            }
        }
        return out;
    };
    std::vector<tpcc::ConditionResult> all = tpcc::checkConsistency(c);
    ASSERT_EQ(all.size(), 12u);
    for (size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i].number, static_cast<int>(i) + 1);
    EXPECT_EQ(broken(), "");
    pqxx::connection conn(c);
    pqxx::nontransaction tx(conn);
    tx.exec("UPDATE warehouse SET w_ytd = w_ytd + 1");
    EXPECT_EQ(broken(), "1:1 8:1");
    tx.exec("UPDATE warehouse SET w_ytd = w_ytd - 1");
    tx.exec("UPDATE order_line SET ol_delivery_d = NULL WHERE ol_w_id = 1 AND ol_d_id = 3 AND ol_o_id = 7 AND ol_number = 1");
    EXPECT_EQ(broken(), "7:1");
    tx.exec("UPDATE order_line SET ol_delivery_d = now() WHERE ol_w_id = 1 AND ol_d_id = 3 AND ol_o_id = 7 AND ol_number = 1");
    tx.exec("DELETE FROM new_order WHERE no_w_id = 1 AND no_d_id = 5 AND no_o_id = 2500");
    EXPECT_EQ(broken(), "3:1 5:1 11:1") << "a hole in new_order, an undelivered order not in it, one order too few there";
    EXPECT_NE(test::errorOf([&] { tpcc::checkConsistency(freshDatabase("tpcc_none")); }).find("run `scalelab init --workload tprocc -w N` first"),
              std::string::npos);
}

TEST_F(TpccInitTest, KeysAndIndexesAreMadeAfterTheLoad) {
    const std::string& c = twoWarehouses();
    EXPECT_EQ(value(c, "SELECT count(*) FROM pg_constraint WHERE contype = 'p' AND conrelid::regclass::text IN "
                       "('warehouse', 'district', 'customer', 'new_order', 'orders', 'order_line', 'item', 'stock')"),
              "8");
    EXPECT_EQ(value(c, "SELECT indexdef FROM pg_indexes WHERE indexname = 'customer_i1'"),
              "CREATE INDEX customer_i1 ON public.customer USING btree (c_w_id, c_d_id, c_last, c_first, c_id)");
    EXPECT_EQ(value(c, "SELECT count(*) FROM pg_indexes WHERE indexname = 'orders_i1'"), "1");
    // Analysed, and vacuumed: the visibility map is set.
    EXPECT_EQ(value(c, "SELECT bool_and(last_vacuum IS NOT NULL AND last_analyze IS NOT NULL) FROM pg_stat_user_tables"), "t");
    EXPECT_EQ(value(c, "SELECT relallvisible > 0 FROM pg_class WHERE relname = 'stock'"), "t");
}

TEST_F(TpccInitTest, TheMarkerTellsWhatTheLoadUsed) {
    tpcc::DataInfo info = tpcc::inspectData(twoWarehouses());
    EXPECT_TRUE(info.complete);
    EXPECT_TRUE(info.createdByScaleLab);
    EXPECT_EQ(info.warehouses, 2);
    EXPECT_EQ(info.seed, 42u);
    Random rng(42);
    tpcc::NurandConstants load = tpcc::loadConstants(rng);
    EXPECT_EQ(info.constants.lastName, load.lastName);
    EXPECT_EQ(info.constants.customerId, load.customerId);
    EXPECT_EQ(info.constants.itemId, load.itemId);
}

// Rows depend on the seed alone, not on which connection loaded which warehouse.
TEST_F(TpccInitTest, OneConnectionOrSeveralLoadTheSameRows) {
    std::string one = freshDatabase("tpcc_one_job");
    tpcc::initData(one, options(2, 1, 42));
    const char* digest = "SELECT md5(string_agg(t::text, ',' ORDER BY t::text)) FROM (SELECT c_id, c_d_id, c_w_id, c_last, c_data FROM customer "
                         "UNION ALL SELECT ol_o_id, ol_d_id, ol_w_id, ol_i_id::text, ol_amount::text FROM order_line) t";
    EXPECT_EQ(value(one, digest), value(twoWarehouses(), digest));
    test::dropDatabase(server(), "tpcc_one_job");
}

TEST_F(TpccInitTest, ALoadRefusesTablesScaleLabDidNotMake) {
    std::string c = freshDatabase("tpcc_theirs");
    value(c, "CREATE TABLE orders (id int); INSERT INTO orders VALUES (7); SELECT 1");
    std::string error = test::errorOf([&] { tpcc::initData(c, options(1, 1, 1)); });
    EXPECT_NE(error.find("tables named as TPROC-C's (orders) that ScaleLab did not create"), std::string::npos) << error;
    tpcc::InitOptions reinit = options(1, 1, 1);
    reinit.reinit = true;
    error = test::errorOf([&] { tpcc::initData(c, reinit); });
    EXPECT_NE(error.find("did not create"), std::string::npos) << error;
    EXPECT_EQ(value(c, "SELECT sum(id) FROM orders"), "7");
    test::dropDatabase(server(), "tpcc_theirs");
}

TEST_F(TpccInitTest, ScaleLabsTablesAreReloadedOnlyWithReinit) {
    std::string c = freshDatabase("tpcc_reinit");
    tpcc::initData(c, options(1, 2, 5));
    std::string error = test::errorOf([&] { tpcc::initData(c, options(1, 2, 6)); });
    EXPECT_NE(error.find("already holds TPROC-C tables"), std::string::npos) << error;
    EXPECT_NE(error.find("1 warehouse. Run against them as they are, or re-create them with --reinit."), std::string::npos) << error;
    EXPECT_EQ(tpcc::inspectData(c).seed, 5u);
    tpcc::InitOptions again = options(1, 2, 6);
    again.reinit = true;
    tpcc::initData(c, again);
    EXPECT_EQ(tpcc::inspectData(c).seed, 6u);
    EXPECT_EQ(value(c, "SELECT count(*) FROM customer"), "30000");
    test::dropDatabase(server(), "tpcc_reinit");
}

// Each transaction's function once, on its own database, and what it changed.
TEST_F(TpccInitTest, TheFiveTransactionsDoWhatTheirProfilesSay) {
    std::string c = freshDatabase("tpcc_transactions");
    tpcc::initData(c, options(1, 2, 3));
    std::string cItem = std::to_string(tpcc::inspectData(c).constants.itemId);
    auto stockOrders = [&] { return std::stoll(value(c, "SELECT sum(s_order_cnt) FROM stock")); };

    // New-Order: the district's next id taken, the order, its new_order row and 10 lines.
    long long before = stockOrders();
    EXPECT_NE(value(c, "SELECT tprocc_new_order(1, 1, 1, 5, 10, false, 12345, " + cItem + ")"), "NULL");
    EXPECT_EQ(value(c, "SELECT d_next_o_id FROM district WHERE d_w_id = 1 AND d_id = 1"), "3002");
    EXPECT_EQ(value(c, "SELECT o_c_id || ' ' || o_ol_cnt || ' ' || (o_carrier_id IS NULL) FROM orders WHERE o_w_id = 1 AND o_d_id = 1 AND o_id = 3001"),
              "5 10 true");
    EXPECT_EQ(value(c, "SELECT count(*) FROM new_order WHERE no_w_id = 1 AND no_d_id = 1 AND no_o_id = 3001"), "1");
    EXPECT_EQ(value(c, "SELECT count(*) || ' ' || min(ol_number) || ' ' || max(ol_number) FROM order_line "
                       "WHERE ol_w_id = 1 AND ol_d_id = 1 AND ol_o_id = 3001 AND ol_delivery_d IS NULL AND ol_amount > 0"),
              "10 1 10");
    EXPECT_EQ(stockOrders(), before + 10);

    // New-Order with the unused item: NULL, and the caller's rollback leaves nothing.
    {
        pqxx::connection conn(c);
        pqxx::work tx(conn);
        EXPECT_TRUE(tx.exec("SELECT tprocc_new_order(1, 1, 2, 7, 6, true, 99, " + cItem + ")")[0][0].is_null());
        tx.abort();
    }
    EXPECT_EQ(value(c, "SELECT d_next_o_id FROM district WHERE d_w_id = 1 AND d_id = 2"), "3001");
    EXPECT_EQ(stockOrders(), before + 10);

    // Payment by last name: warehouse, district and customer paid; one history row.
    EXPECT_NE(value(c, "SELECT tprocc_payment(1, 3, 1, 3, NULL, tprocc_last_name(371), 123.45)"), "NULL");
    EXPECT_EQ(value(c, "SELECT w_ytd FROM warehouse WHERE w_id = 1"), "300123.45");
    EXPECT_EQ(value(c, "SELECT d_ytd FROM district WHERE d_w_id = 1 AND d_id = 3"), "30123.45");
    EXPECT_EQ(value(c, "SELECT count(*) FROM customer WHERE c_w_id = 1 AND c_d_id = 3 AND c_payment_cnt = 2 AND c_last = 'PRICALLYOUGHT'"), "1");
    EXPECT_EQ(value(c, "SELECT count(*) FROM history WHERE h_amount = 123.45"), "1");
    // Payment by id, of a customer with bad credit: the payment is written in front of C_DATA.
    std::string bad = value(c, "SELECT c_id FROM customer WHERE c_w_id = 1 AND c_d_id = 4 AND c_credit = 'BC' ORDER BY c_id LIMIT 1");
    value(c, "SELECT tprocc_payment(1, 4, 1, 4, " + bad + ", NULL, 10.00)");
    EXPECT_EQ(value(c, "SELECT left(c_data, 19) FROM customer WHERE c_w_id = 1 AND c_d_id = 4 AND c_id = " + bad),
              (bad + " 4 1 4 1 10.00 | ").substr(0, 19));

    // Order-Status of the customer who just ordered: the 10 lines of order 3,001.
    EXPECT_EQ(value(c, "SELECT tprocc_order_status(1, 1, 5, NULL)"), "10");
    EXPECT_EQ(value(c, "SELECT tprocc_order_status(1, 1, NULL, tprocc_last_name(0)) BETWEEN 5 AND 15"), "t");

    // Delivery: the oldest undelivered order of each district (2,101) delivered and paid.
    EXPECT_EQ(value(c, "SELECT tprocc_delivery(1, 7)"), "10");
    EXPECT_EQ(value(c, "SELECT count(*) FROM new_order"), std::to_string(9000 + 1 - 10));
    EXPECT_EQ(value(c, "SELECT count(*) FROM orders WHERE o_id = 2101 AND o_carrier_id = 7"), "10");
    EXPECT_EQ(value(c, "SELECT count(*) FROM order_line WHERE ol_o_id = 2101 AND ol_delivery_d IS NULL"), "0");
    EXPECT_EQ(value(c, "SELECT count(*) FROM customer WHERE c_delivery_cnt = 1"), "10");

    // Stock-Level: a count of items, at most the 20 orders' lines.
    EXPECT_EQ(value(c, "SELECT tprocc_stock_level(1, 1, 20) BETWEEN 0 AND 300"), "t");
    EXPECT_EQ(value(c, "SELECT tprocc_last_name(371)"), "PRICALLYOUGHT");

    EXPECT_EQ(consistencyViolations(c), "0 0 0 0");
    test::dropDatabase(server(), "tpcc_transactions");
}

// A run's variables come from the data's marker: without ScaleLab's complete tables, none.
TEST_F(TpccInitTest, TheScriptSetTakesItsVariablesFromTheData) {
    Workload w;
    tpcc::addScripts(w);
    EXPECT_EQ(w.describe(), "new_order@4455, new_order_rollback@45, payment@4300, order_status@400, delivery@400, stock_level@400");
    EXPECT_EQ(w.totalWeight(), 10000);
    tpcc::DataInfo none;
    EXPECT_NE(test::errorOf([&] { tpcc::defineRunVariables(w, none, 1); }).find("run `scalelab init --workload tprocc -w N` first"),
              std::string::npos);
    tpcc::DataInfo data = tpcc::inspectData(twoWarehouses());
    tpcc::NurandConstants run = tpcc::defineRunVariables(w, data, 77);
    EXPECT_TRUE(tpcc::lastNameConstantsAllowed(data.constants.lastName, run.lastName));
    std::vector<std::string> defined;
    for (const auto& d : w.defines()) defined.push_back(d.value);
    EXPECT_EQ(defined, (std::vector<std::string>{"2", std::to_string(run.lastName), std::to_string(run.customerId), std::to_string(run.itemId)}));
}

// The script set run by many clients at once: the mix TPC-C asks for within a point, the 1%
// New-Order rollbacks counted as rollbacks (no failure, no order), NOPM of exactly the orders
// the districts handed out, and the consistency conditions after it all.
TEST_F(TpccInitTest, AConcurrentRunKeepsTheMixAndTheDataConsistent) {
    std::string c = freshDatabase("tpcc_run");
    tpcc::initData(c, options(2, 2, 5));
    int64_t ordersBefore = std::stoll(value(c, "SELECT sum(d_next_o_id) FROM district"));
    LoadSpec spec;
    spec.conninfo = c;
    tpcc::addScripts(spec.workload);
    tpcc::defineRunVariables(spec.workload, tpcc::inspectData(c), 11);
    spec.clients = 8;
    spec.threads = 2;
    spec.transactionsPerClient = 500;  // 4,000: a share's standard error is under 0.8 points
    spec.mode = QueryMode::Prepared;
    spec.seed = 11;  // the scripts each thread chooses follow from it: the mix below is reproducible
    spec.vacuum = RunVacuum::None;
    spec.sampleIntervalS = 0.25;
    LoadResult r = LoadRun(spec).run();
    ASSERT_EQ(r.status, RunStatus::Completed) << r.error;
    EXPECT_EQ(r.failures.total(), 0u) << r.firstErrorMessage;
    EXPECT_EQ(r.transactions, 4000u);
    // Each interval counts every script's commits (the live NOPM): over the run they add up to
    // the scripts' own counts exactly.
    std::vector<uint64_t> bySamples(6, 0);
    for (const auto& s : r.samples) {
        ASSERT_EQ(s.scriptTransactions.size(), 6u);
        for (size_t i = 0; i < 6; ++i) bySamples[i] += s.scriptTransactions[i];
    }
    EXPECT_EQ(r.scriptSet, "tprocc");
    ASSERT_EQ(r.scripts.size(), 6u);
    auto count = [&](size_t i) { return static_cast<double>(r.scripts[i].transactions); };
    auto sharePct = [&](double n) { return 100.0 * n / static_cast<double>(r.transactions); };
    EXPECT_NEAR(sharePct(count(0) + count(1)), 45.0, 1.0) << "New-Order";
    EXPECT_NEAR(sharePct(count(2)), 43.0, 1.0) << "Payment";
    for (size_t i = 3; i < 6; ++i) EXPECT_NEAR(sharePct(count(i)), 4.0, 1.0) << r.scripts[i].name;
    EXPECT_GT(r.scripts[1].transactions, 0u) << "some New-Orders must have rolled back";
    EXPECT_EQ(r.scripts[1].failures.total(), 0u) << "a rollback on purpose is not a failure";
    int64_t orders = std::stoll(value(c, "SELECT sum(d_next_o_id) FROM district")) - ordersBefore;
    EXPECT_EQ(orders, static_cast<int64_t>(r.scripts[0].transactions)) << "each committed new_order is one order; rollbacks none";
    EXPECT_DOUBLE_EQ(*tpcc::newOrdersPerMinute(r.scriptSet, r.scripts, r.measuredSeconds),
                     count(0) * 60.0 / r.measuredSeconds);
    for (const auto& s : r.scripts) EXPECT_EQ(s.latency.count, s.transactions) << s.name;
    for (size_t i = 0; i < 6; ++i) EXPECT_EQ(bySamples[i], r.scripts[i].transactions) << r.scripts[i].name;
    EXPECT_GT(r.samples.size(), 1u);
    EXPECT_EQ(consistencyViolations(c), "0 0 0 0");
    int64_t delivered = 0;
    for (const auto& k : tpcc::checkConsistency(c)) {
        if (k.violations) {
            EXPECT_EQ(*k.violations, 0) << "condition " << k.number << " (" << k.rule << ")";
        }
        if (k.number == 11) {
            delivered = std::stoll(value(c, "SELECT count(*) FROM orders WHERE o_id > 2100 AND o_carrier_id IS NOT NULL"));
            EXPECT_EQ(k.violations.has_value(), delivered == 0) << k.notApplicable;
        }
    }
    EXPECT_GT(delivered, 0) << "the run's Deliveries delivered orders";
}

// Keying and thinking times (off by default): each transaction waits its keying time before it
// starts and the think time after the last one, neither counted in its latency. Every
// transaction's keying time was waited in full inside the run, so their sum over a client cannot
// exceed the run's length: the bound below holds whatever the machine's speed.
TEST_F(TpccInitTest, KeyingAndThinkingTimesPaceTheClientsOutsideTheLatencies) {
    std::string c = freshDatabase("tpcc_keying");
    tpcc::initData(c, options(1, 2, 6));
    const double factor = 0.02;  // New-Order: 360 ms keying, 240 ms mean thinking
    LoadSpec spec;
    spec.conninfo = c;
    tpcc::addScripts(spec.workload, factor);
    tpcc::defineRunVariables(spec.workload, tpcc::inspectData(c), 3);
    spec.clients = 4;
    spec.threads = 2;
    spec.durationS = 4;
    spec.mode = QueryMode::Prepared;
    spec.seed = 3;
    spec.vacuum = RunVacuum::None;
    LoadResult r = LoadRun(spec).run();
    ASSERT_EQ(r.status, RunStatus::Completed) << r.error;
    EXPECT_EQ(r.keyingThinking, factor);
    ASSERT_EQ(r.scripts.size(), 6u);
    double keyingWaited = 0;
    for (size_t i = 0; i < r.scripts.size(); ++i)
        keyingWaited += static_cast<double>(r.scripts[i].ended()) * spec.workload.scripts[i].keyingS;
    EXPECT_GT(r.transactions, 0u);
    EXPECT_LE(keyingWaited, spec.clients * spec.durationS) << r.transactions << " transactions: keying times were not waited";
    const LatencySummary& newOrder = r.scripts[0].latency;
    ASSERT_GT(newOrder.count, 0u);
    EXPECT_LT(newOrder.p50Ms, 18 * factor * 1000) << "the keying time must not be in the latency";
    EXPECT_EQ(consistencyViolations(c), "0 0 0 0");

    LoadSpec throttled = spec;
    throttled.rate = 100;
    EXPECT_NE(test::errorOf([&] { validate(throttled); }).find("drop the rate (-R), or the times"), std::string::npos);
    Workload w;
    EXPECT_NE(test::errorOf([&] { tpcc::addScripts(w, -1); }).find("from 0 (none) to 100"), std::string::npos);
}

TEST(TpccInitOptions, BadValuesAreRefusedBeforeConnecting) {
    tpcc::InitOptions o;
    o.warehouses = 0;
    EXPECT_EQ(test::errorOf([&] { tpcc::checkInitOptions(o); }), "--warehouses must be in range 1..100000 (got 0)");
    o.warehouses = 3;
    o.jobs = -1;
    EXPECT_EQ(test::errorOf([&] { tpcc::checkInitOptions(o); }), "--jobs must be in range 0..256, 0 for one per CPU (got -1)");
    o.jobs = 8;
    EXPECT_EQ(tpcc::loadJobs(o), 4);  // at most one per warehouse and one for item
}

} // namespace
