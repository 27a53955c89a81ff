#include "load/data/PgbenchData.h"

#include "load/data/SyncConnection.h"
#include "util/Error.h"

#include <libpq-fe.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>

namespace scalelab {
namespace {

const char* const kTables[] = {"pgbench_accounts", "pgbench_branches", "pgbench_history", "pgbench_tellers"};
const char* const kMarkerPrefix = "created by ScaleLab";
const char* const kAllSteps = "dtgGvpf";
constexpr int64_t kScale32BitThreshold = 20000;  // pgbench's: aid is bigint from this scale on

double secondsSince(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

std::string fixed2(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

class Initializer {
public:
    Initializer(SyncConnection& c, const PgbenchInitOptions& o) : c_(c), o_(o) {}

    void dropTables() {
        say("dropping old tables...");
        c_.exec("drop table if exists pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers");
    }

    // pgbench's DDL, column for column; the filler columns default to NULL.
    void createTables() {
        say("creating tables...");
        bool big = o_.scale >= kScale32BitThreshold;
        struct Ddl {
            const char* table;
            std::string columns;
            bool fillfactor;
        };
        const Ddl ddls[] = {
            {"pgbench_history", std::string("tid int,bid int,aid ") + (big ? "bigint" : "   int") + ",delta int,mtime timestamp,filler char(22)", false},
            {"pgbench_tellers", "tid int not null,bid int,tbalance int,filler char(84)", true},
            {"pgbench_accounts", std::string("aid ") + (big ? "bigint" : "   int") + " not null,bid int,abalance int,filler char(84)", true},
            {"pgbench_branches", "bid int not null,bbalance int,filler char(88)", true},
        };
        bool partitioned = o_.partitionMethod != PartitionMethod::None;
        for (const auto& d : ddls) {
            bool isAccounts = std::string(d.table) == "pgbench_accounts";
            // A partitioned table has no storage: only its partitions are unlogged (pgbench 16+;
            // PostgreSQL 18 refuses an unlogged partitioned table).
            std::string sql = std::string("create") + (o_.unloggedTables && !(partitioned && isAccounts) ? " unlogged" : "") +
                              " table " + d.table + "(" + d.columns + ")";
            if (partitioned && isAccounts)
                sql += std::string(" partition by ") + (o_.partitionMethod == PartitionMethod::Range ? "range" : "hash") + " (aid)";
            else if (d.fillfactor)
                sql += " with (fillfactor=" + std::to_string(o_.fillfactor) + ")";
            c_.exec(sql);
        }
        if (partitioned) createPartitions();
        c_.exec(std::string("comment on table pgbench_branches is '") + kMarkerPrefix + " init, scale " +
                std::to_string(o_.scale) + "'");
    }

    void generateClientSide() {
        say("generating data (client-side)...");
        c_.exec("begin");
        truncateTables();
        int server = PQserverVersion(c_.get());
        bool freeze = server >= 140000;
        if (server >= 160000) {
            copy("pgbench_branches", 1, freeze, [](std::string& row, int64_t k) { row = std::to_string(k + 1) + "\t0\t\\N\n"; });
            copy("pgbench_tellers", 10, freeze, [](std::string& row, int64_t k) {
                row = std::to_string(k + 1) + "\t" + std::to_string(k / 10 + 1) + "\t0\t\\N\n";
            });
        } else {
            // pgbench 15 and older insert these rows one by one: not frozen, which shows in the
            // visibility map when the vacuum step is left out. Do as the server's own pgbench.
            for (int64_t b = 1; b <= o_.scale; ++b)
                c_.exec("insert into pgbench_branches(bid,bbalance) values(" + std::to_string(b) + ",0)");
            for (int64_t t = 1; t <= o_.scale * 10; ++t)
                c_.exec("insert into pgbench_tellers(tid,bid,tbalance) values (" + std::to_string(t) + "," +
                        std::to_string((t - 1) / 10 + 1) + ",0)");
        }
        // A partitioned table takes no FREEZE; its filler is a blank-padded empty string.
        copy("pgbench_accounts", 100000, freeze && o_.partitionMethod == PartitionMethod::None,
             [](std::string& row, int64_t k) { row = std::to_string(k + 1) + "\t" + std::to_string(k / 100000 + 1) + "\t0\t\n"; });
        c_.exec("commit");
    }

    void generateServerSide() {
        say("generating data (server-side)...");
        c_.exec("begin");
        truncateTables();
        std::string s = std::to_string(o_.scale);
        c_.exec("insert into pgbench_branches(bid,bbalance) select bid, 0 from generate_series(1, " + s + ") as bid");
        c_.exec("insert into pgbench_tellers(tid,bid,tbalance) select tid, (tid - 1) / 10 + 1, 0 from generate_series(1, " +
                std::to_string(o_.scale * 10) + ") as tid");
        c_.exec("insert into pgbench_accounts(aid,bid,abalance,filler) select aid, (aid - 1) / 100000 + 1, 0, '' "
                "from generate_series(1, " + std::to_string(o_.scale * 100000) + ") as aid");
        c_.exec("commit");
    }

    void vacuum() {
        say("vacuuming...");
        for (const char* t : {"pgbench_branches", "pgbench_tellers", "pgbench_accounts", "pgbench_history"})
            c_.exec(std::string("vacuum analyze ") + t);
    }

    void primaryKeys() {
        say("creating primary keys...");
        c_.exec("alter table pgbench_branches add primary key (bid)");
        c_.exec("alter table pgbench_tellers add primary key (tid)");
        c_.exec("alter table pgbench_accounts add primary key (aid)");
    }

    void foreignKeys() {
        say("creating foreign keys...");
        c_.exec("alter table pgbench_tellers add constraint pgbench_tellers_bid_fkey foreign key (bid) references pgbench_branches");
        c_.exec("alter table pgbench_accounts add constraint pgbench_accounts_bid_fkey foreign key (bid) references pgbench_branches");
        c_.exec("alter table pgbench_history add constraint pgbench_history_bid_fkey foreign key (bid) references pgbench_branches");
        c_.exec("alter table pgbench_history add constraint pgbench_history_tid_fkey foreign key (tid) references pgbench_tellers");
        c_.exec("alter table pgbench_history add constraint pgbench_history_aid_fkey foreign key (aid) references pgbench_accounts");
    }

private:
    void say(const std::string& s) {
        if (o_.note) o_.note(s);
    }

    void truncateTables() { c_.exec("truncate table pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers"); }

    void createPartitions() {
        say("creating " + std::to_string(o_.partitions) + " partitions...");
        int64_t total = 100000 * o_.scale;
        int64_t partSize = (total + o_.partitions - 1) / o_.partitions;
        for (int p = 1; p <= o_.partitions; ++p) {
            std::string sql = std::string("create") + (o_.unloggedTables ? " unlogged" : "") + " table pgbench_accounts_" +
                              std::to_string(p) + "\n  partition of pgbench_accounts\n  for values ";
            if (o_.partitionMethod == PartitionMethod::Range) {
                // Open-ended first and last partitions, as pgbench makes them.
                sql += "from (" + (p == 1 ? std::string("minvalue") : std::to_string((p - 1) * partSize + 1)) + ") to (" +
                       (p < o_.partitions ? std::to_string(p * partSize + 1) : std::string("maxvalue")) + ")";
            } else {
                sql += "with (modulus " + std::to_string(o_.partitions) + ", remainder " + std::to_string(p - 1) + ")";
            }
            sql += " with (fillfactor=" + std::to_string(o_.fillfactor) + ")";
            c_.exec(sql);
        }
    }

    template <typename Row>
    void copy(const char* table, int64_t perScale, bool freeze, Row row) {
        c_.beginCopy(std::string("copy ") + table + " from stdin" + (freeze ? " with (freeze on)" : ""));
        const std::string what = std::string("loading ") + table;
        int64_t total = perScale * o_.scale;
        auto started = std::chrono::steady_clock::now();
        int logInterval = 1;
        std::string buffer, line;
        buffer.reserve(1 << 16);
        auto flush = [&] { c_.putCopy(buffer, what); };
        for (int64_t k = 0; k < total; ++k) {
            row(line, k);
            buffer += line;
            if (buffer.size() > 60000) flush();
            int64_t j = k + 1;
            bool report = false;
            if (!o_.quiet) {
                report = j % 100000 == 0;
            } else if (j % 100 == 0) {
                double elapsed = secondsSince(started);
                if (j == total || elapsed >= logInterval * 5.0) {
                    report = true;
                    logInterval = static_cast<int>(std::ceil(elapsed / 5.0));
                }
            }
            if (report) {
                double elapsed = secondsSince(started);
                double remaining = static_cast<double>(total - j) * elapsed / static_cast<double>(j);
                say(std::to_string(j) + " of " + std::to_string(total) + " tuples (" + std::to_string(j * 100 / total) +
                    "%) of " + table + " done (elapsed " + fixed2(elapsed) + " s, remaining " + fixed2(remaining) + " s)");
            }
        }
        flush();
        c_.endCopy(what);
    }

    SyncConnection& c_;
    const PgbenchInitOptions& o_;
};

} // namespace

PgbenchDataInfo inspectPgbenchData(const std::string& conninfo) {
    PgbenchDataInfo info;
    try {
        SyncConnection c(conninfo);
        for (const char* t : kTables)
            if (!c.value(std::string("SELECT to_regclass('") + t + "')").empty()) info.presentTables.emplace_back(t);
        info.complete = info.presentTables.size() == 4;
        if (!c.value("SELECT to_regclass('pgbench_branches')").empty()) {
            std::string marker = c.value("SELECT obj_description('pgbench_branches'::regclass, 'pg_class')");
            info.createdByScaleLab = marker.rfind(kMarkerPrefix, 0) == 0;
        }
        if (info.complete) info.scale = std::stoll(c.value("SELECT count(*) FROM pgbench_branches"));
    } catch (const Error& e) {
        throw Error(std::string("cannot inspect the pgbench tables: ") + e.what());
    }
    return info;
}

int64_t scaleForRun(bool usesBuiltin, const PgbenchDataInfo& data, int64_t given,
                    const std::function<void(const std::string&)>& note) {
    if (usesBuiltin && data.complete) {
        if (given > 0 && given != data.scale && note)
            note("scale option ignored, using count from pgbench_branches table (" + std::to_string(data.scale) + ")");
        return data.scale;
    }
    return given > 0 ? given : 1;
}

PgbenchDataInfo ensurePgbenchData(const std::string& conninfo, const PgbenchDataNeed& need,
                                  const std::function<void(const std::string&)>& note) {
    PgbenchDataInfo info = inspectPgbenchData(conninfo);
    if (info.complete && !need.reinit && !(need.matchScale && info.scale != need.scale)) return info;
    if (info.complete && !need.reinit && note)
        note("the pgbench tables are at scale " + std::to_string(info.scale) + ": rebuilding them at scale " +
             std::to_string(need.scale));
    if (!need.ownServer && !need.reinit) throw Error("the target database has no pgbench tables: " + need.otherwise);
    if (!info.complete && note)
        note(std::string(need.ownServer ? "the embedded server" : "the target database") +
             " has no pgbench tables yet: initializing scale " + std::to_string(need.scale));
    PgbenchInitOptions o;
    o.scale = need.scale;
    o.reinit = !info.presentTables.empty();
    o.note = note;
    initPgbenchData(conninfo, o);
    return inspectPgbenchData(conninfo);
}

PartitionMethod parsePartitionMethod(const std::string& text) {
    if (text == "range") return PartitionMethod::Range;
    if (text == "hash") return PartitionMethod::Hash;
    throw Error("invalid partition method, expecting \"range\" or \"hash\", got: \"" + text + "\"");
}

std::string effectiveInitSteps(const PgbenchInitOptions& o) {
    std::string steps = o.steps;
    if (o.noVacuum)
        for (char& ch : steps)
            if (ch == 'v') ch = ' ';
    if (o.foreignKeys && steps.find('f') == std::string::npos) steps += 'f';
    return steps;
}

void checkInitOptions(const PgbenchInitOptions& o) {
    if (o.scale < 1) throw Error("-s/--scale must be in range 1.." + std::to_string(INT32_MAX) + " (got " + std::to_string(o.scale) + ")");
    if (o.fillfactor < 10 || o.fillfactor > 100)
        throw Error("-F/--fillfactor must be in range 10..100 (got " + std::to_string(o.fillfactor) + ")");
    if (o.steps.empty()) throw Error("no initialization steps specified");
    for (char ch : o.steps)
        if (ch != ' ' && std::string(kAllSteps).find(ch) == std::string::npos)
            throw Error(std::string("unrecognized initialization step \"") + ch + "\"; allowed step characters are: \"" +
                        kAllSteps + "\"");
    if (o.partitions < 0) throw Error("--partitions must be in range 0.." + std::to_string(INT32_MAX));
    if (o.partitions == 0 && o.partitionMethod != PartitionMethod::None)
        throw Error("--partition-method requires greater than zero --partitions");
}

void initPgbenchData(const std::string& conninfo, const PgbenchInitOptions& given) {
    PgbenchInitOptions o = given;
    checkInitOptions(o);
    if (o.partitions > 0 && o.partitionMethod == PartitionMethod::None) o.partitionMethod = PartitionMethod::Range;
    std::string steps = effectiveInitSteps(o);

    PgbenchDataInfo info = inspectPgbenchData(conninfo);
    if (!info.presentTables.empty() && steps.find('d') != std::string::npos) {
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
    SyncConnection c(conninfo);
    Initializer init(c, o);
    std::string timings;
    double total = 0;
    for (char step : steps) {
        auto started = std::chrono::steady_clock::now();
        const char* op = nullptr;
        try {
            switch (step) {
            case 'd': op = "drop tables"; init.dropTables(); break;
            case 't': op = "create tables"; init.createTables(); break;
            case 'g': op = "client-side generate"; init.generateClientSide(); break;
            case 'G': op = "server-side generate"; init.generateServerSide(); break;
            case 'v': op = "vacuum"; init.vacuum(); break;
            case 'p': op = "primary keys"; init.primaryKeys(); break;
            case 'f': op = "foreign keys"; init.foreignKeys(); break;
            default: break;  // ' '
            }
        } catch (const Error& e) {
            throw Error(std::string("initializing the pgbench tables failed in step '") + step + "' (" + (op ? op : "?") +
                        "): " + e.what());
        }
        if (!op) continue;
        double s = secondsSince(started);
        total += s;
        timings += (timings.empty() ? "" : ", ") + std::string(op) + " " + fixed2(s) + " s";
    }
    if (o.note) o.note("done in " + fixed2(total) + " s (" + timings + ").");
}

const char* runVacuumName(RunVacuum v) {
    switch (v) {
    case RunVacuum::None: return "none";
    case RunVacuum::Pgbench: return "pgbench";
    case RunVacuum::All: return "all";
    }
    return "?";
}

std::vector<HousekeepingStep> prepareForRun(const std::string& conninfo, RunVacuum vacuum) {
    std::vector<HousekeepingStep> done;
    if (vacuum == RunVacuum::None) return done;
    SyncConnection c(conninfo);
    std::vector<std::string> statements = {"vacuum pgbench_branches", "vacuum pgbench_tellers", "truncate pgbench_history"};
    if (vacuum == RunVacuum::All) statements.push_back("vacuum analyze pgbench_accounts");
    for (const auto& s : statements) done.push_back({s, c.tryExec(s)});
    return done;
}

} // namespace scalelab
