#include "load/data/TpccLoad.h"

#include "load/data/SyncConnection.h"
#include "load/data/TpccProcedures.h"
#include "load/data/TpccRows.h"
#include "util/Clock.h"
#include "util/Error.h"
#include "util/Format.h"

#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <ctime>
#include <mutex>
#include <thread>

namespace scalelab::tpcc {
namespace {

const Table kTables[] = {Table::Warehouse, Table::District, Table::Customer, Table::History, Table::NewOrder,
                         Table::Orders,    Table::OrderLine, Table::Item,     Table::Stock};
// The tables loaded per warehouse, largest first: a job that fails early fails cheaply.
const Table kPerWarehouse[] = {Table::Stock,   Table::OrderLine, Table::Customer, Table::History,
                               Table::Orders,  Table::NewOrder,  Table::District, Table::Warehouse};
const char* const kMarker = "created by ScaleLab: TPROC-C";
constexpr int kMaxWarehouses = 100000;

double secondsSince(int64_t startNs) { return static_cast<double>(monotonicNs() - startNs) / 1e9; }

std::string seconds(double s) { return formatNumber("%.2f", s); }

std::string markerText(const InitOptions& o, const NurandConstants& c) {
    char text[256];
    std::snprintf(text, sizeof text, "%s, %d warehouses, seed %" PRIu64 ", C_LAST %" PRId64 ", C_ID %" PRId64 ", OL_I_ID %" PRId64,
                  kMarker, o.warehouses, o.seed, c.lastName, c.customerId, c.itemId);
    return text;
}

// The marker read back: false when it is not ScaleLab's.
bool parseMarker(const std::string& text, DataInfo& info) {
    std::string format = std::string(kMarker) + ", %d warehouses, seed %" SCNu64 ", C_LAST %" SCNd64 ", C_ID %" SCNd64 ", OL_I_ID %" SCNd64;
    return std::sscanf(text.c_str(), format.c_str(), &info.warehouses, &info.seed, &info.constants.lastName,
                       &info.constants.customerId, &info.constants.itemId) == 5;
}

std::string localTimestamp() {
    std::time_t t = std::time(nullptr);
    std::tm tm{};
    localtime_r(&t, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", &tm);
    return text;
}

// Runs `job(connection, i)` for i in [0, count) on `jobs` connections at once. The first error
// stops the others from taking more and is thrown here once all have stopped.
void inParallel(const std::string& conninfo, int jobs, size_t count, const std::function<void(SyncConnection&, size_t)>& job) {
    std::atomic<size_t> next{0};
    std::atomic<bool> failed{false};
    std::mutex errorMutex;
    std::string firstError;
    auto work = [&] {
        try {
            SyncConnection c(conninfo);
            for (size_t i; !failed && (i = next++) < count;) job(c, i);
        } catch (const std::exception& e) {
            std::lock_guard<std::mutex> lock(errorMutex);
            if (!failed.exchange(true)) firstError = e.what();
        }
    };
    std::vector<std::thread> threads;
    int n = static_cast<int>(std::min<size_t>(static_cast<size_t>(jobs), count));
    for (int t = 0; t < n; ++t) threads.emplace_back(work);
    for (auto& t : threads) t.join();
    if (failed) throw Error(firstError);
}

class Loader {
public:
    Loader(const std::string& conninfo, const InitOptions& o) : conninfo_(conninfo), o_(o), jobs_(loadJobs(o)) {
        Random rng(o.seed);
        ctx_.seed = o.seed;
        ctx_.constants = loadConstants(rng);
        ctx_.now = localTimestamp();
    }

    void dropTables(SyncConnection& c) {
        say("dropping old tables...");
        c.exec("DROP TABLE IF EXISTS warehouse, district, customer, history, new_order, orders, order_line, item, stock");
    }

    void createTables(SyncConnection& c) {
        say("creating tables...");
        c.exec(createTablesSql());
        // Every table carries the marker, so that a reinit drops only tables ScaleLab made; the
        // warehouse's says what the load used.
        for (Table t : kTables)
            c.exec(std::string("COMMENT ON TABLE ") + tableName(t) + " IS '" +
                   (t == Table::Warehouse ? markerText(o_, ctx_.constants) : std::string(kMarker)) + "'");
    }

    // Item first (on the first connection free), then the warehouses in order, each on the
    // connection that takes it: every table's rows of one warehouse in one COPY.
    void load() {
        say("loading " + std::to_string(o_.warehouses) + (o_.warehouses == 1 ? " warehouse" : " warehouses") + " on " +
            std::to_string(jobs_) + (jobs_ == 1 ? " connection..." : " connections..."));
        int64_t started = monotonicNs();
        std::atomic<int> warehousesDone{0};
        inParallel(conninfo_, jobs_, static_cast<size_t>(o_.warehouses) + 1, [&](SyncConnection& c, size_t i) {
            std::string buffer;
            buffer.reserve(1 << 17);
            if (i == 0) {
                copy(c, Table::Item, 0, buffer);
                return;
            }
            int w = static_cast<int>(i);
            for (Table t : kPerWarehouse) copy(c, t, w, buffer);
            int done = ++warehousesDone;
            say("warehouse " + std::to_string(w) + " loaded (" + std::to_string(done) + " of " +
                std::to_string(o_.warehouses) + ", elapsed " + seconds(secondsSince(started)) + " s)");
        });
    }

    void keys() {
        say("creating primary keys and indexes...");
        std::vector<std::string> statements = keyStatements();
        inParallel(conninfo_, jobs_, statements.size(), [&](SyncConnection& c, size_t i) { c.exec(statements[i]); });
    }

    void functions(SyncConnection& c) {
        say("creating the transactions' functions...");
        c.exec(proceduresSql());
    }

    void analyze() {
        say("vacuuming and analysing...");
        inParallel(conninfo_, jobs_, std::size(kTables), [&](SyncConnection& c, size_t i) {
            c.exec(std::string("VACUUM (ANALYZE) ") + tableName(kTables[i]));
        });
    }

private:
    void copy(SyncConnection& c, Table t, int w, std::string& buffer) {
        std::string what = std::string("loading ") + tableName(t) + (t == Table::Item ? "" : " of warehouse " + std::to_string(w));
        c.beginCopy(std::string("COPY ") + tableName(t) + " FROM STDIN");
        generateRows(t, w, ctx_, buffer, [&](std::string& rows) { c.putCopy(rows, what); });
        c.endCopy(what);
    }

    void say(const std::string& s) {
        if (!o_.note) return;
        std::lock_guard<std::mutex> lock(noteMutex_);
        o_.note(s);
    }

    const std::string& conninfo_;
    const InitOptions& o_;
    int jobs_;
    RowsContext ctx_;
    std::mutex noteMutex_;
};

} // namespace

std::vector<std::string> keyStatements() {
    return {"ALTER TABLE stock ADD PRIMARY KEY (s_w_id, s_i_id)",
            "ALTER TABLE order_line ADD PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number)",
            "ALTER TABLE customer ADD PRIMARY KEY (c_w_id, c_d_id, c_id)",
            // Payment and Order-Status by last name: the customers of a name in first-name order.
            "CREATE INDEX customer_i1 ON customer (c_w_id, c_d_id, c_last, c_first, c_id)",
            "ALTER TABLE orders ADD PRIMARY KEY (o_w_id, o_d_id, o_id)",
            // Order-Status: a customer's latest order.
            "CREATE INDEX orders_i1 ON orders (o_w_id, o_d_id, o_c_id, o_id)",
            "ALTER TABLE new_order ADD PRIMARY KEY (no_w_id, no_d_id, no_o_id)",
            "ALTER TABLE item ADD PRIMARY KEY (i_id)",
            "ALTER TABLE district ADD PRIMARY KEY (d_w_id, d_id)",
            "ALTER TABLE warehouse ADD PRIMARY KEY (w_id)"};
}

DataInfo inspectData(const std::string& conninfo) {
    DataInfo info;
    try {
        SyncConnection c(conninfo);
        bool allMarked = true;
        for (Table t : kTables) {
            std::string name = tableName(t);
            if (c.value("SELECT to_regclass('" + name + "')").empty()) continue;
            info.presentTables.push_back(name);
            std::string comment = c.value("SELECT obj_description('" + name + "'::regclass, 'pg_class')");
            allMarked = allMarked && comment.rfind(kMarker, 0) == 0;
            if (t == Table::Warehouse && !parseMarker(comment, info)) allMarked = false;
        }
        info.complete = info.presentTables.size() == std::size(kTables);
        info.createdByScaleLab = !info.presentTables.empty() && allMarked;
    } catch (const Error& e) {
        throw Error(std::string("cannot inspect the TPROC-C tables: ") + e.what());
    }
    return info;
}

void checkInitOptions(const InitOptions& o) {
    if (o.warehouses < 1 || o.warehouses > kMaxWarehouses)
        throw Error("--warehouses must be in range 1.." + std::to_string(kMaxWarehouses) + " (got " + std::to_string(o.warehouses) + ")");
    if (o.jobs < 0 || o.jobs > 256) throw Error("--jobs must be in range 0..256, 0 for one per CPU (got " + std::to_string(o.jobs) + ")");
}

int loadJobs(const InitOptions& o) {
    int jobs = o.jobs > 0 ? o.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    return std::min(jobs, o.warehouses + 1);
}

void initData(const std::string& conninfo, const InitOptions& o) {
    checkInitOptions(o);
    DataInfo info = inspectData(conninfo);
    if (!info.presentTables.empty()) {
        std::string which;
        for (const auto& t : info.presentTables) which += (which.empty() ? "" : ", ") + t;
        if (!info.createdByScaleLab)
            throw Error("the database holds tables named as TPROC-C's (" + which +
                        ") that ScaleLab did not create. ScaleLab drops only tables it created; drop them yourself or "
                        "initialize another database.");
        if (!o.reinit)
            throw Error("the database already holds TPROC-C tables (" + which + ")" +
                        (info.warehouses > 0 ? ", " + std::to_string(info.warehouses) + (info.warehouses == 1 ? " warehouse" : " warehouses")
                                             : std::string()) +
                        ". Run against them as they are, or re-create them with --reinit.");
    }
    Loader loader(conninfo, o);
    SyncConnection c(conninfo);
    struct Step {
        const char* name;
        std::function<void()> run;
    };
    const Step steps[] = {
        {"drop tables", [&] { loader.dropTables(c); }},
        {"create tables", [&] { loader.createTables(c); }},
        {"load", [&] { loader.load(); }},
        {"keys", [&] { loader.keys(); }},
        {"functions", [&] { loader.functions(c); }},
        {"vacuum analyze", [&] { loader.analyze(); }},
    };
    std::string timings;
    double total = 0;
    for (const Step& step : steps) {
        int64_t started = monotonicNs();
        try {
            step.run();
        } catch (const Error& e) {
            throw Error(std::string("initializing the TPROC-C tables failed in step \"") + step.name + "\": " + e.what());
        }
        double s = secondsSince(started);
        total += s;
        timings += (timings.empty() ? "" : ", ") + std::string(step.name) + " " + seconds(s) + " s";
    }
    if (o.note) o.note("done in " + seconds(total) + " s (" + timings + ").");
}

} // namespace scalelab::tpcc
