#pragma once
// TPROC-C's results in its own terms (issue 36), as HammerDB reports them:
//   NOPM: New-Order transactions committed per minute (the new_order script's; the 1% rolled
//         back on purpose by new_order_rollback are not orders);
//   TPM:  the database's commits + rollbacks per minute, from the server's counters
//         (pg_stat_database), so it counts every transaction the server ended, ours or not.
// Both over the counted window; none (missing, never 0) for a run of another workload or one
// that lacks what they are made of.
#include "load/LoadSpec.h"

#include <optional>
#include <string>
#include <vector>

namespace scalelab::tpcc {

bool isTprocc(const std::string& scriptSet);

std::optional<double> newOrdersPerMinute(const std::string& scriptSet, const std::vector<ScriptReport>& scripts,
                                         double measuredSeconds);
// NOPM of one interval of a run (LoadSample::scriptTransactions, in addScripts' order): the
// live figure. None for another workload or a sample without per-script counts.
std::optional<double> sampleNewOrdersPerMinute(const std::string& scriptSet, const LoadSample& s);
std::optional<double> transactionsPerMinute(const std::string& scriptSet, std::optional<double> serverCommitsPerSec,
                                            std::optional<double> serverRollbacksPerSec);

// The report's lines of a TPROC-C run (`scalelab run`): NOPM, TPM, New-Order's rollbacks, and a
// line per transaction with its share of the mix and its latency percentiles. Empty for
// another workload.
std::vector<std::string> reportLines(const LoadResult& r);

} // namespace scalelab::tpcc
