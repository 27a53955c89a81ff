#pragma once
// TPROC-C's script set (issue 36): six scripts in the pgbench language that call the
// transactions' functions (TpccProcedures.h), weighted as TPC-C's minimum mix, so that every
// run option, placement and metric of `scalelab run` applies unchanged:
//   new_order 4455, new_order_rollback 45 (1% of New-Order, clause 2.4.1.4), payment 4300,
//   order_status 400, delivery 400, stock_level 400 (of 10,000).
// Each client's home warehouse is :client_id % :warehouses + 1 (clients spread over the
// warehouses in turn, as HammerDB's virtual users are); districts and customers are drawn per
// transaction.
#include "load/data/TpccLoad.h"
#include "load/script/Workload.h"

#include <cstddef>
#include <cstdint>

namespace scalelab::tpcc {

// Workload::scriptSet and LoadResult::scriptSet of a run of these scripts.
inline constexpr const char* kScriptSet = "tprocc";
// The six scripts' names, in the order addScripts adds them (Workload::scripts, LoadResult::
// scripts, LoadSample::scriptTransactions). new_order's committed transactions are New-Order's
// (NOPM counts them); new_order_rollback's are the 1% rolled back on purpose.
inline constexpr const char* kNewOrderScript = "new_order";
inline constexpr const char* kNewOrderRollbackScript = "new_order_rollback";
inline constexpr const char* kPaymentScript = "payment";
inline constexpr const char* kOrderStatusScript = "order_status";
inline constexpr const char* kDeliveryScript = "delivery";
inline constexpr const char* kStockLevelScript = "stock_level";
inline constexpr const char* kScriptNames[6] = {kNewOrderScript,     kNewOrderRollbackScript, kPaymentScript,
                                                kOrderStatusScript, kDeliveryScript,         kStockLevelScript};
inline constexpr size_t kNewOrderScriptIndex = 0;  // kScriptNames[kNewOrderScriptIndex] == kNewOrderScript

// Adds the six scripts to `w` and marks it as TPROC-C's. Their variables come from
// defineRunVariables. `keyingThinking` > 0 gives each its keying and mean thinking time of TPC-C's
// clause 5.2.5.7 times that factor (New-Order 18 s and 12 s, Payment 3 and 12, Order-Status 2 and
// 10, Delivery 2 and 5, Stock-Level 2 and 5); 0 (HammerDB's default): none. Throws Error for a
// negative or absurd factor.
void addScripts(Workload& w, double keyingThinking = 0);

// Defines :warehouses (the data's) and the run's NURand constants :c_last_c, :c_id_c,
// :c_item_c, drawn from `seed` and the load's by clause 2.1.6.1. Throws Error when the data is
// not complete TPROC-C data made by ScaleLab (the constants of the load are in its marker).
NurandConstants defineRunVariables(Workload& w, const DataInfo& data, uint64_t seed);

} // namespace scalelab::tpcc
