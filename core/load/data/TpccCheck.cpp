#include "load/data/TpccCheck.h"

#include "load/data/SyncConnection.h"
#include "load/data/TpccLoad.h"
#include "util/Error.h"

namespace scalelab::tpcc {

namespace {

// The committed (delivered) order lines' amounts per customer, for conditions 10 and 12.
#define DELIVERED                                                                                               \
    "(SELECT o_w_id, o_d_id, o_c_id, sum(ol_amount) AS amount FROM orders JOIN order_line "                   \
    "ON ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id WHERE ol_delivery_d IS NOT NULL GROUP BY 1, 2, 3) dl " \
    "ON dl.o_w_id = c_w_id AND dl.o_d_id = c_d_id AND dl.o_c_id = c_id"

struct Condition {
    int number;
    const char* rule;
    const char* per;
    const char* violatingRows;  // a query of one count: the rows that break the condition
};

// Written from the specification's clause 3.3.2; NULL-safe so that a missing side (a district
// with no orders) is a violation, not a row that drops out of a join. Condition 2 does not
// apply to the new_order side of a district without new orders, nor 3 to such a district (the
// specification's words).
const Condition kConditions[] = {
    {1, "W_YTD = sum(D_YTD)", "warehouses",
     "SELECT count(*) FROM warehouse LEFT JOIN (SELECT d_w_id, sum(d_ytd) AS s FROM district GROUP BY 1) d ON d_w_id = w_id "
     "WHERE w_ytd IS DISTINCT FROM d.s"},
    {2, "D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID)", "districts",
     "SELECT count(*) FROM district LEFT JOIN (SELECT o_w_id, o_d_id, max(o_id) AS m FROM orders GROUP BY 1, 2) o "
     "ON o_w_id = d_w_id AND o_d_id = d_id LEFT JOIN (SELECT no_w_id, no_d_id, max(no_o_id) AS m FROM new_order GROUP BY 1, 2) n "
     "ON no_w_id = d_w_id AND no_d_id = d_id WHERE d_next_o_id - 1 IS DISTINCT FROM o.m OR n.m <> d_next_o_id - 1"},
    {3, "max(NO_O_ID) - min(NO_O_ID) + 1 = rows of NEW-ORDER", "districts",
     "SELECT count(*) FROM (SELECT max(no_o_id) - min(no_o_id) + 1 AS span, count(*) AS n FROM new_order GROUP BY no_w_id, no_d_id) x "
     "WHERE span <> n"},
    {4, "sum(O_OL_CNT) = rows of ORDER-LINE", "districts",
     "SELECT count(*) FROM (SELECT o_w_id, o_d_id, sum(o_ol_cnt) AS s FROM orders GROUP BY 1, 2) o FULL JOIN "
     "(SELECT ol_w_id, ol_d_id, count(*) AS n FROM order_line GROUP BY 1, 2) l ON ol_w_id = o_w_id AND ol_d_id = o_d_id "
     "WHERE o.s IS DISTINCT FROM l.n"},
    {5, "O_CARRIER_ID is null if and only if the order is in NEW-ORDER", "orders",
     "SELECT count(*) FROM orders LEFT JOIN new_order ON no_w_id = o_w_id AND no_d_id = o_d_id AND no_o_id = o_id "
     "WHERE (o_carrier_id IS NULL) <> (no_o_id IS NOT NULL)"},
    {6, "O_OL_CNT = the order's rows of ORDER-LINE", "orders",
     "SELECT count(*) FROM orders LEFT JOIN (SELECT ol_w_id, ol_d_id, ol_o_id, count(*) AS n FROM order_line GROUP BY 1, 2, 3) l "
     "ON ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id WHERE o_ol_cnt IS DISTINCT FROM l.n"},
    {7, "OL_DELIVERY_D is null if and only if the order's O_CARRIER_ID is", "order lines",
     "SELECT count(*) FROM order_line JOIN orders ON o_w_id = ol_w_id AND o_d_id = ol_d_id AND o_id = ol_o_id "
     "WHERE (ol_delivery_d IS NULL) <> (o_carrier_id IS NULL)"},
    {8, "W_YTD = sum(H_AMOUNT)", "warehouses",
     "SELECT count(*) FROM warehouse LEFT JOIN (SELECT h_w_id, sum(h_amount) AS s FROM history GROUP BY 1) h ON h_w_id = w_id "
     "WHERE w_ytd IS DISTINCT FROM h.s"},
    {9, "D_YTD = sum(H_AMOUNT)", "districts",
     "SELECT count(*) FROM district LEFT JOIN (SELECT h_w_id, h_d_id, sum(h_amount) AS s FROM history GROUP BY 1, 2) h "
     "ON h_w_id = d_w_id AND h_d_id = d_id WHERE d_ytd IS DISTINCT FROM h.s"},
    {10, "C_BALANCE = sum(OL_AMOUNT of delivered lines) - sum(H_AMOUNT)", "customers",
     "SELECT count(*) FROM customer LEFT JOIN (SELECT h_c_w_id, h_c_d_id, h_c_id, sum(h_amount) AS s FROM history GROUP BY 1, 2, 3) h "
     "ON h_c_w_id = c_w_id AND h_c_d_id = c_d_id AND h_c_id = c_id LEFT JOIN " DELIVERED " "
     "WHERE c_balance <> coalesce(dl.amount, 0) - coalesce(h.s, 0)"},
    {11, "rows of ORDER - rows of NEW-ORDER = 2100", "districts",
     "SELECT count(*) FROM district LEFT JOIN (SELECT o_w_id, o_d_id, count(*) AS n FROM orders GROUP BY 1, 2) o "
     "ON o_w_id = d_w_id AND o_d_id = d_id LEFT JOIN (SELECT no_w_id, no_d_id, count(*) AS n FROM new_order GROUP BY 1, 2) n "
     "ON no_w_id = d_w_id AND no_d_id = d_id WHERE coalesce(o.n, 0) - coalesce(n.n, 0) <> 2100"},
    {12, "C_BALANCE + C_YTD_PAYMENT = sum(OL_AMOUNT of delivered lines)", "customers",
     "SELECT count(*) FROM customer LEFT JOIN " DELIVERED " WHERE c_balance + c_ytd_payment <> coalesce(dl.amount, 0)"},
};
#undef DELIVERED

int64_t count(SyncConnection& c, const std::string& sql) { return std::stoll(c.value(sql)); }

} // namespace

std::vector<ConditionResult> checkConsistency(const std::string& conninfo) {
    DataInfo data = inspectData(conninfo);
    if (!data.complete)
        throw Error(data.presentTables.empty() ? std::string("TPROC-C's tables are not in this database: run `scalelab init --workload tprocc -w N` first")
                                               : "TPROC-C's tables are incomplete here (" + std::to_string(data.presentTables.size()) +
                                                     " of 9): run `scalelab init --workload tprocc -w N --reinit`");
    SyncConnection c(conninfo);
    // One snapshot for all twelve: a run still going would otherwise be caught between them.
    c.exec("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    // Condition 11 holds for the loaded data only: every Delivery after the load takes an order
    // out of NEW-ORDER and leaves it in ORDER. The load delivers orders 1 to 2100 of each district.
    int64_t deliveredSinceLoad = count(c, "SELECT count(*) FROM orders WHERE o_id > 2100 AND o_carrier_id IS NOT NULL");
    std::vector<ConditionResult> out;
    for (const Condition& k : kConditions) {
        ConditionResult r;
        r.number = k.number;
        r.rule = k.rule;
        r.per = k.per;
        if (k.number == 11 && deliveredSinceLoad > 0)
            r.notApplicable = "holds for the loaded data only; " + std::to_string(deliveredSinceLoad) +
                              " orders were delivered since, each adding one to the difference";
        else
            r.violations = count(c, k.violatingRows);
        out.push_back(std::move(r));
    }
    c.exec("COMMIT");
    return out;
}

} // namespace scalelab::tpcc
