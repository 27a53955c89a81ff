#include "load/script/ScriptValue.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <strings.h>

namespace scalelab {

const char* typeName(ScriptValue::Type type) {
    switch (type) {
    case ScriptValue::Type::None: return "none";
    case ScriptValue::Type::Null: return "null";
    case ScriptValue::Type::Bool: return "boolean";
    case ScriptValue::Type::Int: return "int";
    case ScriptValue::Type::Double: return "double";
    }
    return "?";
}

const char* formatValue(const ScriptValue& v, char* buf, size_t size) {
    switch (v.type) {
    case ScriptValue::Type::None:
    case ScriptValue::Type::Null: snprintf(buf, size, "NULL"); break;
    case ScriptValue::Type::Bool: snprintf(buf, size, "%s", v.b ? "true" : "false"); break;
    case ScriptValue::Type::Int: {
        // Every transaction formats its \set values: to_chars, not printf's format parsing.
        auto end = std::to_chars(buf, buf + size - 1, v.i).ptr;
        *end = '\0';
        break;
    }
    case ScriptValue::Type::Double:
        // PostgreSQL's own snprintf spells the special values this way.
        if (std::isnan(v.d)) snprintf(buf, size, "NaN");
        else if (std::isinf(v.d)) snprintf(buf, size, "%s", v.d > 0 ? "Infinity" : "-Infinity");
        else snprintf(buf, size, "%.15g", v.d);
        break;
    }
    return buf;
}

namespace {
bool looksLikeInt(const char* s) {  // pgbench's is_an_int: ^\s*[-+]?[0-9]+$
    while (*s && std::isspace(static_cast<unsigned char>(*s))) ++s;
    if (*s == '+' || *s == '-') ++s;
    if (*s && !std::isdigit(static_cast<unsigned char>(*s))) return false;
    while (*s && std::isdigit(static_cast<unsigned char>(*s))) ++s;
    return *s == '\0';
}
bool isPrefixOf(const std::string& text, const char* word) {
    return strncasecmp(text.c_str(), word, text.size()) == 0;
}
} // namespace

bool parseValueText(const std::string& name, const std::string& text, ScriptValue& out, std::string& error) {
    error.clear();
    if (text.empty()) return false;
    if (strcasecmp(text.c_str(), "null") == 0) {
        out = ScriptValue::null();
    } else if (isPrefixOf(text, "true") || isPrefixOf(text, "yes") || strcasecmp(text.c_str(), "on") == 0) {
        out = ScriptValue::boolean(true);
    } else if (isPrefixOf(text, "false") || isPrefixOf(text, "no") || strcasecmp(text.c_str(), "off") == 0 ||
               strcasecmp(text.c_str(), "of") == 0) {
        out = ScriptValue::boolean(false);
    } else if (looksLikeInt(text.c_str())) {
        errno = 0;
        char* end = nullptr;
        long long v = std::strtoll(text.c_str(), &end, 10);
        if (errno == ERANGE) {
            error = "value \"" + text + "\" is out of range for type bigint";
            return false;
        }
        out = ScriptValue::integer(v);
    } else {
        errno = 0;
        char* end = nullptr;
        double v = std::strtod(text.c_str(), &end);
        if (errno == ERANGE || end == text.c_str() || *end != '\0') {
            error = "malformed variable \"" + name + "\" value: \"" + text + "\"";
            return false;
        }
        out = ScriptValue::real(v);
    }
    return true;
}

bool isValidVariableName(const std::string& name) {
    if (name.empty()) return false;
    for (size_t k = 0; k < name.size(); ++k) {
        unsigned char c = static_cast<unsigned char>(name[k]);
        bool ok = c >= 0x80 || std::isalpha(c) || c == '_' || (k > 0 && std::isdigit(c));
        if (!ok) return false;
    }
    return true;
}

VariableTable::VariableTable() : names_{"scale", "client_id", "random_seed", "default_seed"} {}

int VariableTable::slot(const std::string& name) {
    int found = find(name);
    if (found >= 0) return found;
    names_.push_back(name);
    return static_cast<int>(names_.size() - 1);
}

int VariableTable::find(const std::string& name) const {
    for (size_t i = 0; i < names_.size(); ++i)
        if (names_[i] == name) return static_cast<int>(i);
    return -1;
}

int VariableTable::find(const std::string& prefix, const char* name) const {
    size_t len = std::strlen(name);
    for (size_t i = 0; i < names_.size(); ++i) {
        const std::string& n = names_[i];
        if (n.size() == prefix.size() + len && n.compare(0, prefix.size(), prefix) == 0 &&
            n.compare(prefix.size(), len, name) == 0)
            return static_cast<int>(i);
    }
    return -1;
}

void VariableValues::setValue(int slot, const ScriptValue& v) {
    Slot& s = slots_[static_cast<size_t>(slot)];
    s.defined = true;
    s.textValid = false;
    s.value = v;
}

void VariableValues::setText(int slot, const char* text) {
    Slot& s = slots_[static_cast<size_t>(slot)];
    s.defined = true;
    s.textValid = true;
    s.text.assign(text);
    s.value.type = ScriptValue::Type::None;
}

bool VariableValues::value(int slot, const VariableTable& names, ScriptValue& out, std::string& error) {
    Slot& s = slots_[static_cast<size_t>(slot)];
    if (!s.defined) {
        error = "undefined variable \"" + names.name(slot) + "\"";
        return false;
    }
    if (s.value.type == ScriptValue::Type::None && !parseValueText(names.name(slot), s.text, s.value, error))
        return false;
    out = s.value;
    return true;
}

const char* VariableValues::text(int slot) {
    Slot& s = slots_[static_cast<size_t>(slot)];
    if (!s.defined) return nullptr;
    if (!s.textValid) {
        char buf[64];
        s.text.assign(formatValue(s.value, buf, sizeof buf));
        s.textValid = true;
    }
    return s.text.c_str();
}

} // namespace scalelab
