#pragma once
// TPROC-C's five transactions as PL/pgSQL functions on the server (issue 36), written from the
// TPC-C specification's profiles (revision 5.11, clauses 2.4 to 2.8). A script in the pgbench
// language draws each transaction's inputs and calls one function, so every run option works
// unchanged. Made by `scalelab init --workload tprocc` after the keys.
//
//   tprocc_new_order(w_id, warehouses, d_id, c_id, ol_cnt, rollback, seed, c_item) -> numeric
//       the order's total; NULL when it met the unused item id (clause 2.4.1.4: `rollback`
//       true puts one on its last line), after which the caller rolls back. The items, their
//       supplying warehouses (1% remote when there are several) and quantities are drawn in the
//       function from `seed` (NURand(8191) with the run's C for OL_I_ID), so that one call is
//       one round trip; lines are processed in (supplying warehouse, item) order, which keeps
//       two orders from taking stock rows in opposite orders.
//   tprocc_payment(w_id, d_id, c_w_id, c_d_id, c_id, c_last, amount) -> numeric
//       the customer's new balance; by last name when c_last is not NULL (the customer at
//       position ceil(n/2) of those of that name in first-name order, clause 2.5.2.2).
//   tprocc_order_status(w_id, d_id, c_id, c_last) -> integer: the lines of the latest order.
//   tprocc_delivery(w_id, carrier_id) -> integer: the districts delivered (of 10; a district
//       without an undelivered order is skipped, clause 2.7.4.2).
//   tprocc_stock_level(w_id, d_id, threshold) -> integer: distinct items of the district's
//       last 20 orders with stock below the threshold.
//   tprocc_last_name(number) -> text: clause 4.3.2.3's name of [0, 999].
#include <string>

namespace scalelab::tpcc {

std::string proceduresSql();

} // namespace scalelab::tpcc
