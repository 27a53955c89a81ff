#pragma once
// A whole experiment moved between a file and a results store (either way, or file to file):
// `scalelab export EXP --to LOCATION` and `scalelab import EXP -o LOCATION`. Nothing is lost:
// the experiment's facts (created by, created at, note), the plan and its seed, provenance with
// the time it was taken, series in their order with their configuration, every run with its
// id, notes, exclusions and flags, and every sample.
#include <string>

namespace scalelab {

class ExperimentStore;

struct CopyCount {
    size_t runs = 0, samples = 0, series = 0;
};
// "3 runs (12 samples, 2 series)"
std::string describe(const CopyCount& n);

// `to` must be new (no plan, series or runs): throws Error otherwise, having written nothing.
// The runs are written in one transaction, so a failed copy leaves no runs behind.
CopyCount copyExperiment(ExperimentStore& from, ExperimentStore& to);

// Opens `from` read-only, creates `to`, copies; a `to` that could not be filled is removed.
CopyCount copyExperiment(const std::string& from, const std::string& to);

} // namespace scalelab
