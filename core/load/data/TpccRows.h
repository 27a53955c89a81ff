#pragma once
// The initial rows of TPC-C's nine tables (clause 4.3.3.1 of the specification, revision 5.11)
// as PostgreSQL COPY text, generated a warehouse at a time into one reused buffer, so that a
// loader's memory stays flat in the number of warehouses. Columns come in the order of
// tpccCreateTablesSql()'s tables. Part of TPROC-C (issue 36): the loader that sends these rows
// with COPY is not written yet.
#include "load/data/TpccRandom.h"

#include <cstdint>
#include <functional>
#include <string>

namespace scalelab::tpcc {

enum class Table { Item, Warehouse, Stock, District, Customer, History, Orders, NewOrder, OrderLine };
const char* tableName(Table t);  // "item", "warehouse", ..., "order_line"

// Per warehouse (clause 1.2.1, 4.3.3.1); item has 100,000 rows whatever the warehouses.
constexpr int kItems = 100000;
constexpr int kDistrictsPerWarehouse = 10;
constexpr int kCustomersPerDistrict = 3000;
constexpr int kOrdersPerDistrict = 3000;
constexpr int kFirstNewOrder = 2101;  // orders 2,101 to 3,000 of each district are new (undelivered)

// The statements that create the nine tables, without keys or indexes (they come after the
// load, as `scalelab init` does for pgbench's tables).
std::string createTablesSql();

struct RowsContext {
    uint64_t seed = 0;          // with the table and warehouse, the seed of each table's numbers
    NurandConstants constants;  // the load's C values (C_LAST for the customers' names)
    std::string now;            // the load's time, as timestamp text: C_SINCE, H_DATE, O_ENTRY_D
};

// Appends the rows of `table` for `warehouse` (ignored for item) to `buffer` as COPY text
// (tab-separated, \N for NULL, one line per row) and hands the buffer to `flush` whenever it
// holds more than `flushBytes`, and once at the end; `flush` empties it. Returns the rows made.
// The same context, table and warehouse give the same rows, in any order and on any thread, so
// warehouses can load in parallel: an order's line count is drawn from a generator of its
// district alone, the one both orders and order_line read.
int64_t generateRows(Table table, int warehouse, const RowsContext& ctx, std::string& buffer,
                     const std::function<void(std::string&)>& flush, size_t flushBytes = 1 << 16);

} // namespace scalelab::tpcc
