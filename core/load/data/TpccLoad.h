#pragma once
// TPROC-C's data (issue 36): the nine TPC-C tables created, loaded with client-side COPY by
// several connections at once (a warehouse at a time), then keyed, indexed and analysed, each
// step timed as `scalelab init` does for pgbench's tables. The rows come from TpccRows.
#include "load/data/TpccRandom.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace scalelab::tpcc {

// The nine tables as found in a database.
struct DataInfo {
    std::vector<std::string> presentTables;  // which of the nine exist
    bool complete = false;                   // all nine
    bool createdByScaleLab = false;          // warehouse carries ScaleLab's marker
    // From the marker, when ScaleLab made them: what the load used. A run needs the load's
    // C_LAST to draw its own by clause 2.1.6.1.
    int warehouses = 0;
    uint64_t seed = 0;
    NurandConstants constants;
};
DataInfo inspectData(const std::string& conninfo);

struct InitOptions {
    int warehouses = 1;  // 1 .. 100,000
    int jobs = 0;        // connections loading and indexing at once; 0: this machine's CPUs
    uint64_t seed = 0;   // the data's seed (the NURand constants and every row derive from it)
    bool reinit = false; // drop nine tables that ScaleLab made earlier
    std::function<void(const std::string&)> note;  // progress and timings (serialised)
};
// Throws Error, saying which value is wrong, before anything connects.
void checkInitOptions(const InitOptions& options);
// How many connections a load uses: `jobs`, or this machine's CPUs, at most one per warehouse
// plus the item table's.
int loadJobs(const InitOptions& options);

// Drops (with reinit, ScaleLab's own only), creates, loads, keys and analyses. Refuses, with
// the reason, to touch tables of these names that ScaleLab did not make.
void initData(const std::string& conninfo, const InitOptions& options);

// The primary keys and secondary indexes made after the load, one statement each.
std::vector<std::string> keyStatements();

} // namespace scalelab::tpcc
