#include "load/data/TpccRows.h"

#include <charconv>
#include <numeric>
#include <utility>
#include <vector>

namespace scalelab::tpcc {

namespace {

// One table's rows, a field at a time: tab between fields, newline after the row.
class Row {
public:
    explicit Row(std::string& out) : out_(out) {}
    Row& num(int64_t v) {
        sep();
        char b[24];
        out_.append(b, static_cast<size_t>(std::to_chars(b, b + sizeof b, v).ptr - b));
        return *this;
    }
    // A fixed-point value given in units of 10^-digits: 1234 with 2 digits is 12.34.
    Row& fixed(int64_t units, int digits) {
        sep();
        if (units < 0) {
            out_.push_back('-');
            units = -units;
        }
        int64_t scale = 1;
        for (int i = 0; i < digits; ++i) scale *= 10;
        char b[24];
        out_.append(b, static_cast<size_t>(std::to_chars(b, b + sizeof b, units / scale).ptr - b));
        out_.push_back('.');
        std::string frac = std::to_string(units % scale);
        out_.append(static_cast<size_t>(digits) - frac.size(), '0').append(frac);
        return *this;
    }
    Row& text(const char* s) {
        sep();
        out_.append(s);
        return *this;
    }
    Row& text(const std::string& s) { return text(s.c_str()); }
    Row& null() {
        sep();
        out_.append("\\N");
        return *this;
    }
    Row& aString(Random& rng, int lo, int hi) {
        sep();
        appendAString(rng, lo, hi, out_);
        return *this;
    }
    Row& nString(Random& rng, int lo, int hi) {
        sep();
        appendNString(rng, lo, hi, out_);
        return *this;
    }
    Row& zip(Random& rng) {
        sep();
        appendZip(rng, out_);
        return *this;
    }
    Row& data(Random& rng) {
        sep();
        appendData(rng, out_);
        return *this;
    }
    // Street 1, street 2, city, state (2 letters), zip: clause 4.3.3.1's address.
    Row& address(Random& rng) {
        aString(rng, 10, 20).aString(rng, 10, 20).aString(rng, 10, 20);
        sep();
        for (int i = 0; i < 2; ++i) out_.push_back(static_cast<char>('A' + rng.between(0, 25)));
        return zip(rng);
    }
    void end() {
        out_.push_back('\n');
        first_ = true;
    }

private:
    void sep() {
        if (!first_) out_.push_back('\t');
        first_ = false;
    }
    std::string& out_;
    bool first_ = true;
};

uint64_t mix(uint64_t seed, uint64_t a, uint64_t b) {
    // Distinct (table, warehouse, district) give distinct seeds; pg_prng's splitmix64 seeding
    // spreads them.
    return seed ^ (a * 0x9E3779B97F4A7C15ull) ^ (b * 0xC2B2AE3D27D4EB4Full) ^ ((a + 1) << 48);
}

// An order's line count, clause 4.3.3.1: random within [5, 15], from its district's generator.
class LineCounts {
public:
    LineCounts(const RowsContext& ctx, int warehouse, int district)
        : rng_(mix(ctx.seed, 1000 + static_cast<uint64_t>(district), static_cast<uint64_t>(warehouse))) {}
    int next() { return static_cast<int>(rng_.between(5, 15)); }

private:
    Random rng_;
};

} // namespace

const char* tableName(Table t) {
    switch (t) {
    case Table::Item: return "item";
    case Table::Warehouse: return "warehouse";
    case Table::Stock: return "stock";
    case Table::District: return "district";
    case Table::Customer: return "customer";
    case Table::History: return "history";
    case Table::Orders: return "orders";
    case Table::NewOrder: return "new_order";
    case Table::OrderLine: return "order_line";
    }
    return "?";
}

std::string createTablesSql() {
    return "CREATE TABLE warehouse (w_id integer NOT NULL, w_name varchar(10), w_street_1 varchar(20), "
           "w_street_2 varchar(20), w_city varchar(20), w_state char(2), w_zip char(9), w_tax numeric(4,4), "
           "w_ytd numeric(12,2));\n"
           "CREATE TABLE district (d_id smallint NOT NULL, d_w_id integer NOT NULL, d_name varchar(10), "
           "d_street_1 varchar(20), d_street_2 varchar(20), d_city varchar(20), d_state char(2), d_zip char(9), "
           "d_tax numeric(4,4), d_ytd numeric(12,2), d_next_o_id integer);\n"
           "CREATE TABLE customer (c_id integer NOT NULL, c_d_id smallint NOT NULL, c_w_id integer NOT NULL, "
           "c_first varchar(16), c_middle char(2), c_last varchar(16), c_street_1 varchar(20), c_street_2 varchar(20), "
           "c_city varchar(20), c_state char(2), c_zip char(9), c_phone char(16), c_since timestamp, c_credit char(2), "
           "c_credit_lim numeric(12,2), c_discount numeric(4,4), c_balance numeric(12,2), c_ytd_payment numeric(12,2), "
           "c_payment_cnt smallint, c_delivery_cnt smallint, c_data varchar(500));\n"
           "CREATE TABLE history (h_c_id integer, h_c_d_id smallint, h_c_w_id integer, h_d_id smallint, h_w_id integer, "
           "h_date timestamp, h_amount numeric(6,2), h_data varchar(24));\n"
           "CREATE TABLE new_order (no_o_id integer NOT NULL, no_d_id smallint NOT NULL, no_w_id integer NOT NULL);\n"
           "CREATE TABLE orders (o_id integer NOT NULL, o_d_id smallint NOT NULL, o_w_id integer NOT NULL, o_c_id integer, "
           "o_entry_d timestamp, o_carrier_id smallint, o_ol_cnt smallint, o_all_local smallint);\n"
           "CREATE TABLE order_line (ol_o_id integer NOT NULL, ol_d_id smallint NOT NULL, ol_w_id integer NOT NULL, "
           "ol_number smallint NOT NULL, ol_i_id integer, ol_supply_w_id integer, ol_delivery_d timestamp, "
           "ol_quantity smallint, ol_amount numeric(6,2), ol_dist_info char(24));\n"
           "CREATE TABLE item (i_id integer NOT NULL, i_im_id integer, i_name varchar(24), i_price numeric(5,2), "
           "i_data varchar(50));\n"
           "CREATE TABLE stock (s_i_id integer NOT NULL, s_w_id integer NOT NULL, s_quantity smallint, "
           "s_dist_01 char(24), s_dist_02 char(24), s_dist_03 char(24), s_dist_04 char(24), s_dist_05 char(24), "
           "s_dist_06 char(24), s_dist_07 char(24), s_dist_08 char(24), s_dist_09 char(24), s_dist_10 char(24), "
           "s_ytd numeric(8,0), s_order_cnt smallint, s_remote_cnt smallint, s_data varchar(50));\n";
}

int64_t generateRows(Table table, int w, const RowsContext& ctx, std::string& buffer,
                     const std::function<void(std::string&)>& flush, size_t flushBytes) {
    Random rng(mix(ctx.seed, static_cast<uint64_t>(table), table == Table::Item ? 0 : static_cast<uint64_t>(w)));
    Row row(buffer);
    int64_t rows = 0;
    auto done = [&] {
        row.end();
        ++rows;
        if (buffer.size() > flushBytes) flush(buffer);
    };
    switch (table) {
    case Table::Item:
        for (int i = 1; i <= kItems; ++i) {
            row.num(i).num(rng.between(1, 10000)).aString(rng, 14, 24).fixed(rng.between(100, 10000), 2).data(rng);
            done();
        }
        break;
    case Table::Warehouse:
        row.num(w).aString(rng, 6, 10).address(rng).fixed(rng.between(0, 2000), 4).fixed(30000000, 2);
        done();
        break;
    case Table::Stock:
        for (int i = 1; i <= kItems; ++i) {
            row.num(i).num(w).num(rng.between(10, 100));
            for (int d = 0; d < 10; ++d) row.aString(rng, 24, 24);
            row.num(0).num(0).num(0).data(rng);
            done();
        }
        break;
    case Table::District:
        for (int d = 1; d <= kDistrictsPerWarehouse; ++d) {
            row.num(d).num(w).aString(rng, 6, 10).address(rng).fixed(rng.between(0, 2000), 4).fixed(3000000, 2)
                .num(kOrdersPerDistrict + 1);
            done();
        }
        break;
    case Table::Customer:
        for (int d = 1; d <= kDistrictsPerWarehouse; ++d) {
            for (int c = 1; c <= kCustomersPerDistrict; ++c) {
                int nameNumber = c <= 1000 ? c - 1 : static_cast<int>(nurand(rng, kLastNameA, 0, 999, ctx.constants.lastName));
                row.num(c).num(d).num(w).aString(rng, 8, 16).text("OE").text(lastName(nameNumber)).address(rng)
                    .nString(rng, 16, 16).text(ctx.now).text(rng.between(1, 10) == 1 ? "BC" : "GC").fixed(5000000, 2)
                    .fixed(rng.between(0, 5000), 4).fixed(-1000, 2).fixed(1000, 2).num(1).num(0).aString(rng, 300, 500);
                done();
            }
        }
        break;
    case Table::History:
        for (int d = 1; d <= kDistrictsPerWarehouse; ++d) {
            for (int c = 1; c <= kCustomersPerDistrict; ++c) {
                row.num(c).num(d).num(w).num(d).num(w).text(ctx.now).fixed(1000, 2).aString(rng, 12, 24);
                done();
            }
        }
        break;
    case Table::Orders: {
        std::vector<int> customers(kOrdersPerDistrict);
        for (int d = 1; d <= kDistrictsPerWarehouse; ++d) {
            // O_C_ID: "selected sequentially from a random permutation of [1 .. 3,000]".
            std::iota(customers.begin(), customers.end(), 1);
            for (int i = kOrdersPerDistrict - 1; i > 0; --i) std::swap(customers[static_cast<size_t>(i)], customers[static_cast<size_t>(rng.between(0, i))]);
            LineCounts lines(ctx, w, d);
            for (int o = 1; o <= kOrdersPerDistrict; ++o) {
                row.num(o).num(d).num(w).num(customers[static_cast<size_t>(o - 1)]).text(ctx.now);
                if (o < kFirstNewOrder) row.num(rng.between(1, 10));
                else row.null();
                row.num(lines.next()).num(1);
                done();
            }
        }
        break;
    }
    case Table::NewOrder:
        for (int d = 1; d <= kDistrictsPerWarehouse; ++d) {
            for (int o = kFirstNewOrder; o <= kOrdersPerDistrict; ++o) {
                row.num(o).num(d).num(w);
                done();
            }
        }
        break;
    case Table::OrderLine:
        for (int d = 1; d <= kDistrictsPerWarehouse; ++d) {
            LineCounts lines(ctx, w, d);
            for (int o = 1; o <= kOrdersPerDistrict; ++o) {
                int count = lines.next();
                bool delivered = o < kFirstNewOrder;
                for (int n = 1; n <= count; ++n) {
                    row.num(o).num(d).num(w).num(n).num(rng.between(1, kItems)).num(w);
                    if (delivered) row.text(ctx.now);
                    else row.null();
                    row.num(5).fixed(delivered ? 0 : rng.between(1, 999999), 2).aString(rng, 24, 24);
                    done();
                }
            }
        }
        break;
    }
    if (!buffer.empty()) flush(buffer);
    return rows;
}

} // namespace scalelab::tpcc
