#pragma once
// TPC-C's consistency conditions (clause 3.3.2, 1 to 12) over TPROC-C's nine tables, for
// `scalelab check --workload tprocc` after a run: each condition as the number of rows
// (warehouses, districts, orders, order lines, customers) that break it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace scalelab::tpcc {

struct ConditionResult {
    int number = 0;                     // 3.3.2.N
    std::string rule;                   // the relationship, short
    std::string per;                    // what a violation counts, a plural in s: "warehouses", "districts", ...
    std::optional<int64_t> violations;  // none: the condition does not apply to this data (notApplicable says why)
    std::string notApplicable;
};

// Throws Error when it cannot connect, or when the nine tables are not all there.
std::vector<ConditionResult> checkConsistency(const std::string& conninfo);

} // namespace scalelab::tpcc
