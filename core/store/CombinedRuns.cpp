#include "store/CombinedRuns.h"

#include "util/Error.h"

#include <algorithm>

namespace scalelab {

std::string addedSeriesLabel(const std::string& label, const std::string& file) {
    return label + " [" + experimentName(file) + "]";
}

void addExperimentRuns(CombinedRuns& into, const std::string& other) {
    auto store = ExperimentStore::open(other, true);
    for (const auto& label : store->seriesLabels()) {
        std::string added = addedSeriesLabel(label, other);
        if (std::find(into.order.begin(), into.order.end(), added) != into.order.end())
            throw Error(other + ": its series '" + label + "' is shown already as '" + added +
                        "' (the same file, or one with the same name, was added before)");
        into.order.push_back(added);
    }
    for (auto run : store->runs()) {
        run.series = addedSeriesLabel(run.series, other);
        run.source = "added from " + other + (run.source.empty() ? "" : " (" + run.source + ")");
        into.runs.push_back(std::move(run));
    }
    for (auto& p : store->provenance()) into.provenance.push_back(std::move(p));
    for (auto& [id, text] : statementTexts(*store)) into.statementTexts.emplace(id, std::move(text));
}

CombinedRuns combineExperiments(const std::string& experiment, const std::vector<std::string>& others) {
    CombinedRuns c;
    auto store = ExperimentStore::open(experiment, true);
    c.runs = store->runs();
    c.order = store->seriesLabels();
    c.provenance = store->provenance();
    c.statementTexts = statementTexts(*store);
    for (const auto& other : others) {
        if (sameExperiment(experiment, other))
            throw Error(other + " is the experiment itself: its series are shown already");
        addExperimentRuns(c, other);
    }
    return c;
}

} // namespace scalelab
