#include "load/PgbenchData.h"

#include "util/Error.h"

#include <pqxx/pqxx>

#include <chrono>

namespace scalelab {
namespace {

const char* const kTables[] = {"pgbench_accounts", "pgbench_branches", "pgbench_history", "pgbench_tellers"};
const char* const kMarkerPrefix = "created by ScaleLab";

std::string firstLine(const std::string& s) { return s.substr(0, s.find('\n')); }

} // namespace

PgbenchDataInfo inspectPgbenchData(const std::string& conninfo) {
    PgbenchDataInfo info;
    try {
        pqxx::connection c(conninfo);
        pqxx::nontransaction tx(c);
        for (const char* t : kTables)
            if (!tx.exec("SELECT to_regclass(" + tx.quote(t) + ")")[0][0].is_null()) info.presentTables.emplace_back(t);
        info.complete = info.presentTables.size() == 4;
        if (!tx.exec("SELECT to_regclass('pgbench_branches')")[0][0].is_null()) {
            auto marker = tx.exec("SELECT obj_description('pgbench_branches'::regclass, 'pg_class')")[0][0];
            info.createdByScaleLab = !marker.is_null() && std::string(marker.c_str()).rfind(kMarkerPrefix, 0) == 0;
        }
        if (info.complete) info.scale = tx.exec("SELECT count(*) FROM pgbench_branches")[0][0].as<int64_t>();
    } catch (const pqxx::failure& e) {
        throw Error("cannot inspect the pgbench tables: " + firstLine(e.what()));
    }
    return info;
}

void initPgbenchData(const std::string& conninfo, const PgbenchInitOptions& o) {
    if (o.scale < 1) throw Error("scale must be at least 1 (got " + std::to_string(o.scale) + ")");
    if (o.fillfactor < 10 || o.fillfactor > 100)
        throw Error("fillfactor must be between 10 and 100 (got " + std::to_string(o.fillfactor) + ")");
    auto say = [&](const std::string& s) {
        if (o.note) o.note(s);
    };
    PgbenchDataInfo info = inspectPgbenchData(conninfo);
    if (!info.presentTables.empty()) {
        std::string which;
        for (const auto& t : info.presentTables) which += (which.empty() ? "" : ", ") + t;
        if (!o.reinit)
            throw Error("the database already holds pgbench tables (" + which + ")" +
                        (info.complete ? ", scale " + std::to_string(info.scale) : std::string()) +
                        ". Run against them as they are, or re-create them with --reinit.");
        if (!info.createdByScaleLab)
            throw Error("the pgbench tables in the database (" + which +
                        ") were not created by ScaleLab (pgbench -i, or by hand?). ScaleLab drops only tables it "
                        "created; drop them yourself or initialize another database.");
    }
    try {
        pqxx::connection c(conninfo);
        auto started = std::chrono::steady_clock::now();
        {
            pqxx::work tx(c);
            if (o.reinit && !info.presentTables.empty()) {
                say("dropping the pgbench tables ScaleLab created earlier");
                tx.exec("DROP TABLE IF EXISTS pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers");
            }
            std::string ff = o.fillfactor < 100 ? " WITH (fillfactor=" + std::to_string(o.fillfactor) + ")" : "";
            // Column types as pgbench -i makes them; aid is bigint from scale 20,000 on.
            std::string aidType = o.scale >= 20000 ? "bigint" : "int";
            tx.exec("CREATE TABLE pgbench_history (tid int, bid int, aid " + aidType + ", delta int, mtime timestamp, filler char(22))");
            tx.exec("CREATE TABLE pgbench_tellers (tid int not null, bid int, tbalance int, filler char(84))" + ff);
            tx.exec("CREATE TABLE pgbench_accounts (aid " + aidType + " not null, bid int, abalance int, filler char(84))" + ff);
            tx.exec("CREATE TABLE pgbench_branches (bid int not null, bbalance int, filler char(88))" + ff);
            say("loading scale " + std::to_string(o.scale) + ": " + std::to_string(o.scale * 100000) + " accounts (COPY)");
            {
                pqxx::stream_to w(tx, "pgbench_branches");
                for (int64_t b = 1; b <= o.scale; ++b) w << std::make_tuple(b, 0, "");
                w.complete();
            }
            {
                pqxx::stream_to w(tx, "pgbench_tellers");
                for (int64_t t = 1; t <= o.scale * 10; ++t)
                    w << std::make_tuple(t, (t - 1) / 10 + 1, 0, "");
                w.complete();
            }
            {
                pqxx::stream_to w(tx, "pgbench_accounts");
                for (int64_t a = 1; a <= o.scale * 100000; ++a) w << std::make_tuple(a, (a - 1) / 100000 + 1, 0, "");
                w.complete();
            }
            say("creating primary keys");
            tx.exec("ALTER TABLE pgbench_branches ADD PRIMARY KEY (bid)");
            tx.exec("ALTER TABLE pgbench_tellers ADD PRIMARY KEY (tid)");
            tx.exec("ALTER TABLE pgbench_accounts ADD PRIMARY KEY (aid)");
            tx.exec("COMMENT ON TABLE pgbench_branches IS " +
                    tx.quote(std::string(kMarkerPrefix) + " init, scale " + std::to_string(o.scale)));
            tx.commit();
        }
        say("vacuum analyze");
        pqxx::nontransaction nt(c);
        nt.exec("VACUUM ANALYZE pgbench_branches, pgbench_tellers, pgbench_accounts, pgbench_history");
        double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.1f", secs);
        say(std::string("initialized scale ") + std::to_string(o.scale) + " in " + buf + " s");
    } catch (const pqxx::failure& e) {
        throw Error("initializing the pgbench tables failed: " + firstLine(e.what()));
    }
}

} // namespace scalelab
