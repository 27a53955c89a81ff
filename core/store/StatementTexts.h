#pragma once
// pg_stat_statements' query texts, kept once per experiment (meta "statement_texts", a JSON
// object queryid -> text) instead of in every run that ran the statement.
#include "store/ExperimentStore.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>

namespace scalelab {

constexpr const char* kStatementTextsMeta = "statement_texts";

using StatementTexts = std::map<std::string, std::string>;  // queryid (decimal) -> text

// Moves each statement's "query" out of a run's detail (detail.system.statements.rows) into
// `texts`. True when a queryid new to `texts` was added.
bool moveStatementTexts(nlohmann::json& detail, StatementTexts& texts);

StatementTexts statementTexts(ExperimentStore& store);  // an experiment without any: empty
void saveStatementTexts(ExperimentStore& store, const StatementTexts& texts);

} // namespace scalelab
