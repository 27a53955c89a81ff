#pragma once
// The pgbench tables (pgbench_accounts, _branches, _tellers, _history): created and loaded
// like `pgbench -i -s N`, or found as pgbench left them.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace scalelab {

struct PgbenchDataInfo {
    std::vector<std::string> presentTables;  // which of the four exist
    bool complete = false;                   // all four
    bool createdByScaleLab = false;          // carries ScaleLab's marker
    int64_t scale = 0;                       // rows of pgbench_branches, when complete
};

PgbenchDataInfo inspectPgbenchData(const std::string& conninfo);

struct PgbenchInitOptions {
    int64_t scale = 1;
    int fillfactor = 100;     // 10..100, for accounts, branches and tellers
    bool reinit = false;      // drop and re-create tables that ScaleLab created earlier
    std::function<void(const std::string&)> note;
};

// Creates the tables, loads them with COPY (100,000 accounts, 10 tellers and 1 branch per
// scale unit), adds the primary keys and runs VACUUM ANALYZE. Refuses, with the reason,
// when tables exist and reinit is off, and always when they were not created by ScaleLab.
void initPgbenchData(const std::string& conninfo, const PgbenchInitOptions& options);

} // namespace scalelab
