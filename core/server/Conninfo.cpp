#include "server/Conninfo.h"

namespace scalelab {

std::string conninfoQuote(const std::string& value) {
    bool plain = !value.empty() && value.find_first_of(" \t\n'\\") == std::string::npos;
    if (plain) return value;
    std::string out = "'";
    for (char c : value) {
        if (c == '\'' || c == '\\') out += '\\';
        out += c;
    }
    return out + "'";
}

std::string makeConninfo(const std::vector<std::pair<std::string, std::string>>& pairs) {
    std::string out;
    for (const auto& [key, value] : pairs) {
        if (!out.empty()) out += ' ';
        out += key + "=" + conninfoQuote(value);
    }
    return out;
}

} // namespace scalelab
