#include "load/data/TpccScripts.h"

#include "util/Error.h"
#include "util/Format.h"

namespace scalelab::tpcc {

namespace {

// NURand(A, x, y) of clause 2.1.6 in pgbench expressions, with the run's constant C.
#define HOME "\\set w_id :client_id % :warehouses + 1\n\\set d_id random(1, 10)\n"
#define CUSTOMER_ID "\\set c_id ((random(0, 1023) | random(1, 3000)) + :c_id_c) % 3000 + 1\n"
#define LAST_NAME "\\set name ((random(0, 255) | random(0, 999)) + :c_last_c) % 1000\n"

const char* const kNewOrder = HOME CUSTOMER_ID
    "\\set ol_cnt random(5, 15)\n"
    "\\set seed random(0, 2147483646)\n"
    "SELECT tprocc_new_order(:w_id, :warehouses, :d_id, :c_id, :ol_cnt, false, :seed, :c_item_c);\n";

// The function returns NULL at the unused item; the script rolls back what it did before.
const char* const kNewOrderRollback = HOME CUSTOMER_ID
    "\\set ol_cnt random(5, 15)\n"
    "\\set seed random(0, 2147483646)\n"
    "BEGIN;\n"
    "SELECT tprocc_new_order(:w_id, :warehouses, :d_id, :c_id, :ol_cnt, true, :seed, :c_item_c);\n"
    "ROLLBACK;\n";

// Clause 2.5.1.2: the customer's warehouse is the home one for 85%, another for 15% (when there
// is another); by last name 60%, by id 40%. H_AMOUNT in [1.00, 5,000.00].
const char* const kPayment = HOME
    "\\set c_w_id :w_id\n"
    "\\set c_d_id :d_id\n"
    "\\if :warehouses > 1 and random(1, 100) <= 15\n"
    "\\set c_d_id random(1, 10)\n"
    "\\set c_w_id random(1, :warehouses - 1)\n"
    "\\if :c_w_id >= :w_id\n"
    "\\set c_w_id :c_w_id + 1\n"
    "\\endif\n"
    "\\endif\n"
    "\\set cents random(100, 500000)\n"
    "\\if random(1, 100) <= 60\n" LAST_NAME
    "SELECT tprocc_payment(:w_id, :d_id, :c_w_id, :c_d_id, NULL, tprocc_last_name(:name), :cents / 100.0);\n"
    "\\else\n" CUSTOMER_ID
    "SELECT tprocc_payment(:w_id, :d_id, :c_w_id, :c_d_id, :c_id, NULL, :cents / 100.0);\n"
    "\\endif\n";

// Clause 2.6.1.2: by last name 60%, by id 40%.
const char* const kOrderStatus = HOME
    "\\if random(1, 100) <= 60\n" LAST_NAME
    "SELECT tprocc_order_status(:w_id, :d_id, NULL, tprocc_last_name(:name));\n"
    "\\else\n" CUSTOMER_ID
    "SELECT tprocc_order_status(:w_id, :d_id, :c_id, NULL);\n"
    "\\endif\n";

const char* const kDelivery =
    "\\set w_id :client_id % :warehouses + 1\n"
    "\\set carrier random(1, 10)\n"
    "SELECT tprocc_delivery(:w_id, :carrier);\n";

// Clause 2.8.1.2: a threshold in [10, 20].
const char* const kStockLevel = HOME
    "\\set threshold random(10, 20)\n"
    "SELECT tprocc_stock_level(:w_id, :d_id, :threshold);\n";

#undef HOME
#undef CUSTOMER_ID
#undef LAST_NAME

} // namespace

void addScripts(Workload& w, double keyingThinking) {
    if (!(keyingThinking >= 0) || keyingThinking > 100)
        throw Error("keying and thinking times: the factor of the specification's times must be from 0 (none) to 100, got " +
                    formatNumber("%g", keyingThinking));
    const char* const texts[6] = {kNewOrder, kNewOrderRollback, kPayment, kOrderStatus, kDelivery, kStockLevel};
    const int weights[6] = {4455, 45, 4300, 400, 400, 400};
    // Clause 5.2.5.7's minimum keying times and mean think times, in seconds.
    const double keying[6] = {18, 18, 3, 2, 2, 2}, thinking[6] = {12, 12, 12, 10, 5, 5};
    for (int i = 0; i < 6; ++i) {
        w.addScriptText(texts[i], kScriptNames[i], weights[i]);
        w.scripts.back().keyingS = keying[i] * keyingThinking;
        w.scripts.back().thinkMeanS = thinking[i] * keyingThinking;
    }
    w.scriptSet = kScriptSet;
    w.keyingThinking = keyingThinking;
}

NurandConstants defineRunVariables(Workload& w, const DataInfo& data, uint64_t seed) {
    if (!data.complete || !data.createdByScaleLab || data.warehouses < 1)
        throw Error(data.presentTables.empty()
                        ? std::string("the target database has no TPROC-C tables: run `scalelab init --workload tprocc -w N` first")
                        : std::string("the TPROC-C tables in the target database are incomplete or were not made by "
                                      "`scalelab init --workload tprocc`: re-create them with it (--reinit)"));
    Random rng(seed);
    NurandConstants run = runConstants(rng, data.constants);
    w.define("warehouses=" + std::to_string(data.warehouses));
    w.define("c_last_c=" + std::to_string(run.lastName));
    w.define("c_id_c=" + std::to_string(run.customerId));
    w.define("c_item_c=" + std::to_string(run.itemId));
    return run;
}

} // namespace scalelab::tpcc
