// TPC-C's initial rows (core/load/data/TpccRows.h) against clause 4.3.3.1's cardinalities and
// value rules, for warehouses 1 and 2, read back from the COPY text.
#include "load/data/TpccRows.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace scalelab;

namespace {

using Rows = std::vector<std::vector<std::string>>;

Rows rowsOf(tpcc::Table table, int warehouse, const tpcc::RowsContext& ctx, int* flushes = nullptr) {
    std::string buffer, all;
    int calls = 0;
    tpcc::generateRows(table, warehouse, ctx, buffer, [&](std::string& b) {
        EXPECT_FALSE(b.empty());
        EXPECT_EQ(b.back(), '\n') << "whole rows only";
        all += b;
        b.clear();
        ++calls;
    });
    EXPECT_TRUE(buffer.empty()) << "flushed at the end";
    if (flushes) *flushes = calls;
    Rows rows;
    std::istringstream in(all);
    for (std::string line; std::getline(in, line);) {
        std::vector<std::string> fields;
        size_t start = 0;
        for (size_t tab; (tab = line.find('\t', start)) != std::string::npos; start = tab + 1) fields.push_back(line.substr(start, tab - start));
        fields.push_back(line.substr(start));
        rows.push_back(fields);
    }
    return rows;
}

tpcc::RowsContext context() {
    tpcc::RowsContext ctx;
    ctx.seed = 42;
    ctx.constants = {157, 900, 5000};
    ctx.now = "2026-12-05 19:00:00";
    return ctx;
}

double number(const std::string& s) { return std::stod(s); }

} // namespace

TEST(TpccRows, EachTableHasTheSpecsRowsPerWarehouse) {
    tpcc::RowsContext ctx = context();
    const std::map<tpcc::Table, size_t> columns = {
        {tpcc::Table::Item, 5}, {tpcc::Table::Warehouse, 9}, {tpcc::Table::Stock, 17}, {tpcc::Table::District, 11},
        {tpcc::Table::Customer, 21}, {tpcc::Table::History, 8}, {tpcc::Table::Orders, 8}, {tpcc::Table::NewOrder, 3},
        {tpcc::Table::OrderLine, 10}};
    const std::map<tpcc::Table, size_t> expected = {
        {tpcc::Table::Item, 100000}, {tpcc::Table::Warehouse, 1}, {tpcc::Table::Stock, 100000},
        {tpcc::Table::District, 10}, {tpcc::Table::Customer, 30000}, {tpcc::Table::History, 30000},
        {tpcc::Table::Orders, 30000}, {tpcc::Table::NewOrder, 9000}};
    for (int w : {1, 2}) {
        for (auto [table, count] : expected) {
            if (table == tpcc::Table::Item && w == 2) continue;  // the same 100,000 items whatever the warehouses
            int flushes = 0;
            Rows rows = rowsOf(table, w, ctx, &flushes);
            EXPECT_EQ(rows.size(), count) << tpcc::tableName(table) << " w " << w;
            for (const auto& r : rows) ASSERT_EQ(r.size(), columns.at(table)) << tpcc::tableName(table);
            if (count > 10000) {
                EXPECT_GT(flushes, 1) << "the buffer is handed over as it fills";
            }
        }
        // Order lines: as many as the orders' line counts say, 5 to 15 each.
        Rows orders = rowsOf(tpcc::Table::Orders, w, ctx), lines = rowsOf(tpcc::Table::OrderLine, w, ctx);
        std::map<std::pair<std::string, std::string>, int> perOrder;  // (district, order) -> lines
        for (const auto& l : lines) {
            ASSERT_EQ(l.size(), 10u);
            ++perOrder[{l[1], l[0]}];
        }
        size_t sum = 0;
        for (const auto& o : orders) {
            int count = std::stoi(o[6]);
            ASSERT_GE(count, 5);
            ASSERT_LE(count, 15);
            int made = perOrder[std::make_pair(o[1], o[0])];
            ASSERT_EQ(made, count) << "order " << o[0] << " of district " << o[1];
            sum += static_cast<size_t>(count);
        }
        EXPECT_EQ(lines.size(), sum);
    }
}

TEST(TpccRows, ValuesFollowClause4331) {
    tpcc::RowsContext ctx = context();
    const int w = 2;
    Rows district = rowsOf(tpcc::Table::District, w, ctx);
    for (const auto& d : district) {
        EXPECT_EQ(d[1], "2");
        EXPECT_EQ(d[9], "30000.00");
        EXPECT_EQ(d[10], "3001");
        EXPECT_GE(number(d[8]), 0.0);
        EXPECT_LE(number(d[8]), 0.2);
        EXPECT_EQ(d[7].substr(4), "11111");
    }
    Rows warehouse = rowsOf(tpcc::Table::Warehouse, w, ctx);
    EXPECT_EQ(warehouse[0][0], "2");
    EXPECT_EQ(warehouse[0][8], "300000.00");

    Rows customers = rowsOf(tpcc::Table::Customer, w, ctx);
    int bad = 0;
    for (const auto& c : customers) {
        int id = std::stoi(c[0]);
        if (id <= 1000) {
            ASSERT_EQ(c[5], tpcc::lastName(id - 1)) << "the first 1,000 by number";
        }
        ASSERT_EQ(c[4], "OE");
        ASSERT_EQ(c[11].size(), 16u);
        ASSERT_EQ(c[12], ctx.now);
        ASSERT_TRUE(c[13] == "GC" || c[13] == "BC");
        bad += c[13] == "BC";
        ASSERT_EQ(c[14], "50000.00");
        ASSERT_LE(number(c[15]), 0.5);
        ASSERT_EQ(c[16], "-10.00");
        ASSERT_EQ(c[17], "10.00");
        ASSERT_EQ(c[18], "1");
        ASSERT_EQ(c[19], "0");
        ASSERT_GE(c[20].size(), 300u);
        ASSERT_LE(c[20].size(), 500u);
    }
    EXPECT_NEAR(bad / 30000.0, 0.10, 0.01) << "10% bad credit";

    Rows orders = rowsOf(tpcc::Table::Orders, w, ctx);
    std::map<std::string, std::set<int>> customersOf;  // district -> O_C_IDs
    for (const auto& o : orders) {
        int id = std::stoi(o[0]);
        customersOf[o[1]].insert(std::stoi(o[3]));
        if (id < tpcc::kFirstNewOrder) {
            ASSERT_GE(std::stoi(o[5]), 1);
            ASSERT_LE(std::stoi(o[5]), 10);
        } else {
            ASSERT_EQ(o[5], "\\N") << "an undelivered order has no carrier";
        }
        ASSERT_EQ(o[7], "1");
    }
    for (const auto& [d, ids] : customersOf) {
        EXPECT_EQ(ids.size(), 3000u) << "a permutation of 1..3000 in district " << d;
        EXPECT_EQ(*ids.begin(), 1);
        EXPECT_EQ(*ids.rbegin(), 3000);
    }
    for (const auto& l : rowsOf(tpcc::Table::OrderLine, w, ctx)) {
        bool delivered = std::stoi(l[0]) < tpcc::kFirstNewOrder;
        ASSERT_EQ(l[6], delivered ? ctx.now : "\\N");
        ASSERT_EQ(l[7], "5");
        if (delivered) {
            ASSERT_EQ(l[8], "0.00");
        } else {
            ASSERT_GE(number(l[8]), 0.01);
        }
        ASSERT_LE(number(l[8]), 9999.99);
        ASSERT_EQ(l[9].size(), 24u);
        ASSERT_GE(std::stoi(l[4]), 1);
        ASSERT_LE(std::stoi(l[4]), tpcc::kItems);
    }
    Rows newOrders = rowsOf(tpcc::Table::NewOrder, w, ctx);
    EXPECT_EQ(newOrders.front()[0], "2101");
    EXPECT_EQ(newOrders.back()[0], "3000");

    int original = 0;
    for (const auto& s : rowsOf(tpcc::Table::Stock, w, ctx)) {
        int q = std::stoi(s[2]);
        ASSERT_GE(q, 10);
        ASSERT_LE(q, 100);
        original += s[16].find("ORIGINAL") != std::string::npos;
    }
    EXPECT_NEAR(original / 100000.0, 0.10, 0.005);
    for (const auto& i : rowsOf(tpcc::Table::Item, w, ctx)) {
        ASSERT_GE(number(i[3]), 1.0);
        ASSERT_LE(number(i[3]), 100.0);
        ASSERT_GE(i[2].size(), 14u);
        ASSERT_LE(i[2].size(), 24u);
    }
}

TEST(TpccRows, TheSameContextGivesTheSameRowsAndWarehousesDiffer) {
    tpcc::RowsContext ctx = context();
    EXPECT_EQ(rowsOf(tpcc::Table::Customer, 1, ctx), rowsOf(tpcc::Table::Customer, 1, ctx));
    EXPECT_NE(rowsOf(tpcc::Table::Customer, 1, ctx), rowsOf(tpcc::Table::Customer, 2, ctx));
    ctx.seed = 43;
    EXPECT_NE(rowsOf(tpcc::Table::Customer, 1, ctx), rowsOf(tpcc::Table::Customer, 1, context()));
}
