#include "stats/SeriesNames.h"

namespace scalelab {

std::string noSeriesNamed(const std::string& name, const std::string& where, const std::vector<std::string>& known) {
    std::string list;
    for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
    return "no series named '" + name + "' " + where + (known.empty() ? " (it has none)" : " (it has: " + list + ")");
}

} // namespace scalelab
