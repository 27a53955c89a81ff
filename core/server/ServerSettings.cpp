#include "server/ServerSettings.h"

#include "util/Error.h"

#include <algorithm>
#include <cctype>

namespace scalelab {

Setting parseSetting(const std::string& text) {
    auto eq = text.find('=');
    if (eq == std::string::npos)
        throw Error("server setting '" + text + "' has no '=': write it as name=value, e.g. shared_buffers=1GB");
    std::string name = text.substr(0, eq);
    while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back()))) name.pop_back();
    while (!name.empty() && std::isspace(static_cast<unsigned char>(name.front()))) name.erase(name.begin());
    if (name.empty()) throw Error("server setting '" + text + "' has no name before '='");
    bool plain = std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
    });
    if (!plain) throw Error("server setting name '" + name + "' may hold only letters, digits, '_' and '.'");
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    return {name, text.substr(eq + 1)};
}

SettingEffect effectOfContext(const std::string& context) {
    if (context == "postmaster") return SettingEffect::Restart;
    if (context == "internal") return SettingEffect::Fixed;
    if (context == "sighup" || context == "superuser-backend" || context == "backend" ||
        context == "superuser" || context == "user")
        return SettingEffect::Reload;
    throw Error("unknown setting context '" + context + "' reported by the server");
}

} // namespace scalelab
