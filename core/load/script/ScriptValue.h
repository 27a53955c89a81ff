#pragma once
// Values of pgbench's script language and the variables that hold them. A variable holds a
// typed value (from \set) or text (from -D, \gset, \aset) that becomes a value when an
// expression reads it, as pgbench's makeVariableValue() decides: null, booleans (true/yes/on
// and their prefixes), a bigint, else a double.
#include <cstdint>
#include <string>
#include <vector>

namespace scalelab {

struct ScriptValue {
    enum class Type : uint8_t { None, Null, Bool, Int, Double };
    Type type = Type::None;
    bool b = false;
    int64_t i = 0;
    double d = 0;

    static ScriptValue null() { return ScriptValue{Type::Null}; }
    static ScriptValue boolean(bool v) { ScriptValue r{Type::Bool}; r.b = v; return r; }
    static ScriptValue integer(int64_t v) { ScriptValue r{Type::Int}; r.i = v; return r; }
    static ScriptValue real(double v) { ScriptValue r{Type::Double}; r.d = v; return r; }
};

const char* typeName(ScriptValue::Type type);  // "null", "boolean", "int", "double"
// The text pgbench substitutes for a value: 42, 0.333333333333333 (%.15g), Infinity, true, NULL.
// Writes into buf (at least 32 bytes) and returns it.
const char* formatValue(const ScriptValue& v, char* buf, size_t size);
// pgbench's reading of a variable's text as a value. False when it is none of them; `error`
// then says why in pgbench's words (empty for an empty text, as pgbench says nothing).
bool parseValueText(const std::string& name, const std::string& text, ScriptValue& out, std::string& error);
// pgbench's valid_variable_name(): ASCII letters, digits (not first), '_' and any non-ASCII byte.
bool isValidVariableName(const std::string& name);

// Variable names to slots, shared by all scripts of a workload (pgbench keeps one set of
// variables per client, whatever script it runs). Every name a script reads or writes gets a
// slot when the script is parsed; a client's values live in VariableValues.
class VariableTable {
public:
    VariableTable();  // predefines scale, client_id, random_seed, default_seed
    int slot(const std::string& name);        // adds the name when new
    int find(const std::string& name) const;  // -1 when absent
    int find(const std::string& prefix, const char* name) const;  // prefix + name, without building it
    size_t size() const { return names_.size(); }
    const std::string& name(int slot) const { return names_[static_cast<size_t>(slot)]; }
    static constexpr int kScale = 0, kClientId = 1, kRandomSeed = 2, kDefaultSeed = 3;

private:
    std::vector<std::string> names_;
};

// One client's variables. Setting a value or text reuses the slot's storage, so a steady
// workload does not allocate.
class VariableValues {
public:
    void resize(size_t n) { slots_.resize(n); }
    bool defined(int slot) const { return slots_[static_cast<size_t>(slot)].defined; }
    void setValue(int slot, const ScriptValue& v);
    void setText(int slot, const char* text);
    // The value, parsed from text on first use. False (with pgbench's words in `error`) when
    // undefined or not a value.
    bool value(int slot, const VariableTable& names, ScriptValue& out, std::string& error);
    // The text form; nullptr when undefined.
    const char* text(int slot);

private:
    struct Slot {
        bool defined = false;
        bool textValid = false;
        ScriptValue value;   // type None: parse `text` on first use
        std::string text;
    };
    std::vector<Slot> slots_;
};

} // namespace scalelab
