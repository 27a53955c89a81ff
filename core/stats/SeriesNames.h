#pragma once
// The one wording for a series asked for by name that the experiment does not have, naming the
// ones it has so that a typo shows at once (--compare, --series, --ratio, --baseline).
#include <string>
#include <vector>

namespace scalelab {

// "no series named 'X' WHERE (it has: A, B)"; "(it has none)" when `known` is empty.
std::string noSeriesNamed(const std::string& name, const std::string& where, const std::vector<std::string>& known);

} // namespace scalelab
