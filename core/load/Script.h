#pragma once
// Transaction scripts in a documented subset of pgbench's script language
// (docs/load.md): SQL commands ending with ';', `\set var expr` with integer arithmetic
// and random functions, `:var` substitution, `\sleep N [us|ms|s]`. Parsed once into a
// compiled form that a client executes without allocating.
#include <cstdint>
#include <string>
#include <vector>

#include "util/Error.h"

namespace scalelab {

// "file:line:column: message".
class ScriptError : public Error {
public:
    using Error::Error;
};

// Variable names to slots, shared by all scripts of a workload (pgbench keeps one set of
// variables per client, whatever script it runs).
class VariableTable {
public:
    VariableTable();  // predefines scale, client_id, random_seed
    int slot(const std::string& name);        // adds the name when new
    int find(const std::string& name) const;  // -1 when absent
    size_t size() const { return names_.size(); }
    const std::string& name(int slot) const { return names_[static_cast<size_t>(slot)]; }
    static constexpr int kScale = 0, kClientId = 1, kRandomSeed = 2;

private:
    std::vector<std::string> names_;
};

struct ExprNode {
    enum class Kind { Int, Double, Var, Neg, Add, Sub, Mul, Div, Mod, Random, RandomExponential, RandomGaussian, RandomZipfian };
    Kind kind = Kind::Int;
    int64_t intValue = 0;
    double doubleValue = 0;
    int var = -1;
    int args[3] = {-1, -1, -1};  // node indexes
};

struct Expression {
    std::vector<ExprNode> nodes;
    int root = -1;
};

struct SqlCommand {
    std::string text;                // as written, without the final ';'
    std::vector<std::string> pieces; // text around the variables: pieces.size() == vars.size() + 1
    std::vector<int> vars;           // slot of each :var, in order
    std::string parameterized;       // :var replaced by $1, $2, ... (extended and prepared modes)
};

struct Command {
    enum class Kind { Sql, Set, Sleep };
    Kind kind = Kind::Sql;
    int line = 0;
    SqlCommand sql;
    int setVar = -1;                 // \set
    Expression expr;                 // \set value, \sleep duration
    int64_t sleepUnitUs = 1000000;   // \sleep: microseconds per unit
};

struct Script {
    std::string name;                // "builtin: TPC-B (sort of)", or the file name
    std::vector<Command> commands;
    int weight = 1;
    bool usesScale = false;
};

// Parses `text`; `source` names it in error messages. Throws ScriptError.
Script parseScript(const std::string& text, const std::string& source, VariableTable& vars);

// Runtime failure of an expression (division by zero, empty random range): the message.
struct EvalError {
    const char* what = nullptr;
};
class Random;
// Evaluates an integer expression. On error returns 0 and sets err.what.
int64_t evaluate(const Expression& e, const int64_t* vars, Random& rng, EvalError& err);

// pgbench's built-in scripts: "tpcb-like", "simple-update", "select-only"; a unique prefix
// is enough ("simple"). Throws Error listing the names for anything else.
Script builtinScript(const std::string& name, VariableTable& vars);
std::vector<std::string> builtinScriptNames();

// "name@weight" -> {name, weight}; weight 1 when absent. Throws Error for a bad weight.
std::pair<std::string, int> splitWeight(const std::string& spec);

} // namespace scalelab
