#pragma once
// Reading a sweep plan's JSON (core/sweep/SweepPlan.cpp's sections): the errors' form
// ("$.series[1].placement: ..."), and a reader of one object that refuses members it does not
// know. Internal to core/sweep.
#include "load/RunSettings.h"
#include "server/ServerSettings.h"
#include "util/Error.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace scalelab::plan {

using json = nlohmann::json;

// "PATH: WHAT", the form of every plan error.
[[noreturn]] inline void fail(const std::string& path, const std::string& what) { throw Error(path + ": " + what); }

inline const char* typeName(const json& v) {
    if (v.is_null()) return "null";
    if (v.is_boolean()) return "a boolean";
    if (v.is_number()) return "a number";
    if (v.is_string()) return "a string";
    if (v.is_array()) return "an array";
    return "an object";
}

// Reads members of one JSON object, refusing members it does not know (typos must not pass).
class Reader {
public:
    Reader(const json& obj, std::string path) : obj_(obj), path_(std::move(path)) {
        if (!obj.is_object()) fail(path_, std::string("expected an object, found ") + typeName(obj));
    }
    // After reading every member it knows: refuses the ones it did not read.
    void finish() const {
        for (auto it = obj_.begin(); it != obj_.end(); ++it)
            if (!seen_.count(it.key())) fail(at(it.key()), "unknown member (see docs/sweeps.md for the plan's members)");
    }
    std::string at(const std::string& key) const { return path_ + "." + key; }
    const json* get(const std::string& key) {
        seen_.insert(key);
        auto it = obj_.find(key);
        return it == obj_.end() ? nullptr : &*it;
    }
    bool has(const std::string& key) const { return obj_.contains(key); }
    std::string string(const std::string& key, const std::string& def) {
        const json* v = get(key);
        if (!v) return def;
        if (!v->is_string()) fail(at(key), std::string("expected a string, found ") + typeName(*v));
        return v->get<std::string>();
    }
    bool boolean(const std::string& key, bool def) {
        const json* v = get(key);
        if (!v) return def;
        if (!v->is_boolean()) fail(at(key), std::string("expected true or false, found ") + typeName(*v));
        return v->get<bool>();
    }
    double number(const std::string& key, double def, double min, const char* rule) {
        const json* v = get(key);
        if (!v) return def;
        if (!v->is_number()) fail(at(key), std::string("expected a number, found ") + typeName(*v));
        double d = v->get<double>();
        if (!(d >= min) || !std::isfinite(d)) fail(at(key), std::string("must be ") + rule + " (got " + v->dump() + ")");
        return d;
    }
    int64_t integer(const std::string& key, int64_t def, int64_t min) {
        const json* v = get(key);
        if (!v) return def;
        if (!v->is_number_integer()) fail(at(key), std::string("expected an integer, found ") + typeName(*v) + " " + v->dump());
        int64_t i = v->get<int64_t>();
        if (i < min) fail(at(key), "must be at least " + std::to_string(min) + " (got " + std::to_string(i) + ")");
        return i;
    }
    std::vector<std::string> strings(const std::string& key) {
        const json* v = get(key);
        if (!v) return {};
        if (v->is_string()) return {v->get<std::string>()};
        if (!v->is_array()) fail(at(key), std::string("expected a string or an array of strings, found ") + typeName(*v));
        std::vector<std::string> out;
        for (size_t i = 0; i < v->size(); ++i) {
            if (!(*v)[i].is_string()) fail(at(key) + "[" + std::to_string(i) + "]", "expected a string");
            out.push_back((*v)[i].get<std::string>());
        }
        return out;
    }
    std::vector<Setting> settings(const std::string& key) {
        const json* v = get(key);
        if (!v) return {};
        if (!v->is_object()) fail(at(key), "expected an object of setting names and values, e.g. {\"autovacuum\": \"off\"}");
        std::vector<Setting> out;
        for (auto it = v->begin(); it != v->end(); ++it) {
            std::string value = it->is_string() ? it->get<std::string>() : it->is_number() || it->is_boolean() ? it->dump() : "";
            if (!it->is_string() && !it->is_number() && !it->is_boolean())
                fail(at(key) + "." + it.key(), "expected a string, number or boolean value");
            try {
                out.push_back(parseSetting(it.key() + "=" + value));
            } catch (const Error& e) {
                fail(at(key) + "." + it.key(), e.what());
            }
        }
        return out;
    }

private:
    const json& obj_;
    std::string path_;
    std::set<std::string> seen_;
};

// The run settings whose plan member is in this section ("" for the plan's root, "workload"),
// each by its row (core/load/RunSettings.cpp): its type, its bounds, its words.
void readRunSettings(Reader& r, std::string_view section, RunSettings& s);

} // namespace scalelab::plan
