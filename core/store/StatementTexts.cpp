#include "store/StatementTexts.h"

#include "util/Error.h"
#include "util/JsonParse.h"

namespace scalelab {

bool moveStatementTexts(nlohmann::json& detail, StatementTexts& texts) {
    bool added = false;
    auto system = detail.find("system");
    if (system == detail.end() || !system->is_object()) return false;
    auto statements = system->find("statements");
    if (statements == system->end() || !statements->contains("rows")) return false;
    for (auto& row : (*statements)["rows"]) {
        auto query = row.find("query");
        if (query == row.end()) continue;
        std::string id = row.value("queryid", "");
        if (!id.empty() && texts.emplace(id, query->get<std::string>()).second) added = true;
        row.erase("query");
    }
    return added;
}

StatementTexts statementTexts(ExperimentStore& store) {
    StatementTexts texts;
    std::string stored = store.meta(kStatementTextsMeta);
    if (stored.empty()) return texts;
    auto j = parseJsonOrDiscarded(stored);
    if (!j.is_object()) throw Error(store.path() + ": the statements' texts (meta " + kStatementTextsMeta + ") are not a JSON object");
    for (auto it = j.begin(); it != j.end(); ++it)
        if (it->is_string()) texts[it.key()] = it->get<std::string>();
    return texts;
}

void saveStatementTexts(ExperimentStore& store, const StatementTexts& texts) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [id, text] : texts) j[id] = text;
    store.setMeta(kStatementTextsMeta, j.dump());
}

} // namespace scalelab
