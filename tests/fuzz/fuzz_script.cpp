// libFuzzer: any text as a pgbench script. Parsing either succeeds or throws ScriptError; a
// parsed script's \set/\if expressions evaluate or fail with a message, never crash, hang or
// overflow (the evaluator's integer paths are checked by UBSan in this build).
#include "load/script/Random.h"
#include "load/script/Script.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace scalelab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string text(reinterpret_cast<const char*>(data), size);
    VariableTable vars;
    Script script;
    try {
        script = parseScript(text, "fuzz.sql", vars);
    } catch (const ScriptError&) {
        return 0;
    }
    VariableValues values;
    values.resize(vars.size());
    values.setValue(VariableTable::kScale, ScriptValue::integer(1));
    values.setText(VariableTable::kClientId, "7");
    Random rng(42);
    for (const auto& c : script.commands) {
        if (c.kind != Command::Kind::Set && c.kind != Command::Kind::If && c.kind != Command::Kind::Elif) continue;
        EvalContext ctx{values, vars, rng, 0, 0, nullptr, {}};
        ScriptValue v;
        if (evaluate(c.expr, ctx, v) && c.kind == Command::Kind::Set) values.setValue(c.setVar, v);
    }
    return 0;
}
