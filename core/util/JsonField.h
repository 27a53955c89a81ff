#pragma once
// A field of a JSON object that must be there with the right type, or an Error naming it and
// `what` the object is ("load job", "load host result").
#include "util/Error.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace scalelab {

template <class T>
T jsonField(const nlohmann::json& j, const char* name, const char* what) {
    auto it = j.find(name);
    if (it == j.end()) throw Error(std::string(what) + ": no \"" + name + "\"");
    try {
        return it->get<T>();
    } catch (const nlohmann::json::exception&) {
        throw Error(std::string(what) + ": \"" + name + "\" is " + it->type_name() + ", not what it should be");
    }
}

// A stored measurement that could not be taken: `{"unavailable": WHY}` -> WHY ("no reason given"
// when empty); nullopt when `j` is a measurement. Error naming `what` when WHY is not a string.
inline std::optional<std::string> unavailableIn(const nlohmann::json& j, const std::string& what) {
    auto it = j.find("unavailable");
    if (it == j.end()) return std::nullopt;
    if (!it->is_string()) throw Error(what + ".unavailable: not a string");
    std::string why = it->get<std::string>();
    return why.empty() ? std::string("no reason given") : why;
}

} // namespace scalelab
