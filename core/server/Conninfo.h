#pragma once
// libpq connection strings: "key=value" pairs, values quoted when they need it.
#include <string>
#include <utility>
#include <vector>

namespace scalelab {

std::string conninfoQuote(const std::string& value);
std::string makeConninfo(const std::vector<std::pair<std::string, std::string>>& pairs);

} // namespace scalelab
