#pragma once
// A field of a JSON object that must be there with the right type, or an Error naming it and
// `what` the object is ("load job", "load host result").
#include "util/Error.h"

#include <nlohmann/json.hpp>

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

} // namespace scalelab
