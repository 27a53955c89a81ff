#include "store/CopyExperiment.h"

#include "store/ExperimentStore.h"
#include "util/Error.h"

namespace scalelab {

namespace {
// Every fact a store keeps about itself (ExperimentStore::meta).
const char* const kMetaKeys[] = {"application", "created_by", "created_at", "note", "statement_texts"};
} // namespace

std::string describe(const CopyCount& n) {
    return std::to_string(n.runs) + " runs (" + std::to_string(n.samples) + " samples, " + std::to_string(n.series) + " series)";
}

CopyCount copyExperiment(ExperimentStore& from, ExperimentStore& to) {
    if (to.plan() || !to.series().empty() || !to.runs().empty())
        throw Error(to.path() + " already holds an experiment; copy into a new one");
    CopyCount count;
    for (const char* key : kMetaKeys)
        if (std::string v = from.meta(key); !v.empty()) to.setMeta(key, v);
    if (auto plan = from.plan()) to.savePlan(plan->first, plan->second);
    for (const auto& p : from.provenanceRecords()) to.addProvenanceRecord(p);
    for (const auto& s : from.series()) {
        to.ensureSeries(s.label, s.config);
        ++count.series;
    }
    std::vector<std::pair<RunRecord, std::vector<StoredSample>>> runs;
    for (auto& r : from.runs()) {
        auto samples = from.samples(r.id);
        count.samples += samples.size();
        runs.emplace_back(std::move(r), std::move(samples));
    }
    count.runs = runs.size();
    to.saveRuns(runs, true);
    return count;
}

CopyCount copyExperiment(const std::string& from, const std::string& to) {
    auto source = ExperimentStore::open(from, true);
    std::unique_ptr<ExperimentStore> target = ExperimentStore::create(to);
    try {
        return copyExperiment(*source, *target);
    } catch (const Error& e) {
        target.reset();
        try {
            ExperimentStore::remove(to);
        } catch (const Error& left) {
            throw Error(std::string("copying ") + from + " to " + to + " failed: " + e.what() + "; and " + to +
                        " could not be removed (" + left.what() + ")");
        }
        throw Error(std::string("copying ") + from + " to " + to + " failed: " + e.what());
    }
}

} // namespace scalelab
