#pragma once
// "HEAD last week against the patch today": the runs of one experiment with the series of
// others added, for charts, tables and reports. An added series is named "LABEL [FILE]" (the
// other file's name), so it never merges with a series of the same label; nothing is written
// into any of the files.
#include "store/ExperimentStore.h"
#include "store/StatementTexts.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace scalelab {

struct CombinedRuns {
    std::vector<RunRecord> runs;
    std::vector<std::string> order;              // the experiment's series, then each added file's
    std::vector<nlohmann::json> provenance;      // of every file: chart markers for their machines
    StatementTexts statementTexts;               // of every file (a queryid names the same text in each)
};

// The series name an added file's series gets.
std::string addedSeriesLabel(const std::string& label, const std::string& file);

// Throws Error naming the file that cannot be read, or one named twice.
CombinedRuns combineExperiments(const std::string& experiment, const std::vector<std::string>& others);

// Adds the runs and series of `other` to `into` (read-only). Throws Error when it cannot be read.
void addExperimentRuns(CombinedRuns& into, const std::string& other);

} // namespace scalelab
