#pragma once
// pgbench's expression language (exprparse.y, exprscan.l): the tree a \set, \if or \elif
// holds, its parser, and its evaluator. Operators are functions, as in pgbench: `a > b` is
// `<`(b, a), `-x` is `-`(0, x), `~x` is `#`(-1, x), CASE is one function of its branches.
#include "load/script/ScriptValue.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace scalelab {

class Random;

enum class ExprFn : uint8_t {
    Add, Sub, Mul, Div, Mod, Abs, Least, Greatest, Debug, Pi, Sqrt, Ln, Exp, Int, Double,
    Random, RandomGaussian, RandomExponential, RandomZipfian, Pow, And, Or, Not,
    BitAnd, BitOr, BitXor, LShift, RShift, Eq, Ne, Le, Lt, Is, Case, HashMurmur2, HashFnv1a, Permute
};

struct ExprNode {
    enum class Kind : uint8_t { Const, Var, Call };
    Kind kind = Kind::Const;
    ExprFn fn = ExprFn::Add;
    ScriptValue constant;
    int var = -1;         // slot
    int firstArg = 0;     // into Expression::args
    int argCount = 0;
};

struct Expression {
    std::vector<ExprNode> nodes;
    std::vector<int> args;  // node indexes, each call's arguments contiguous
    int root = -1;
    bool usesVar(int slot) const;
};

// Where an expression sits, for messages in pgbench's form:
//   "file:line:column: message (more) in command "set""
struct ExprSource {
    std::string file;
    int line = 0;
    std::string command;      // "set", "if", "elif"
    int columnBase = 0;       // column of line[0] in the file, minus one
};

// Parses the expression that starts at line[start] and runs to the end of the meta command
// (its line, with backslash-newline continuations). Variable names get slots in `vars`.
// Throws ScriptError with the 1-based column in `line`.
Expression parseExpression(const std::string& line, size_t start, const ExprSource& where, VariableTable& vars);

// What evaluation needs from the client that runs it.
struct EvalContext {
    VariableValues& values;
    const VariableTable& names;
    Random& rng;
    int script = 0;           // for debug(): pgbench's script and command numbers
    int command = 0;
    FILE* debugOut = stderr;
    std::string error;        // pgbench's words when evaluation fails
};

// pgbench's evaluateExpr(). False on a runtime error (ctx.error says which).
bool evaluate(const Expression& e, EvalContext& ctx, ScriptValue& out);
// pgbench's valueTruth(): NULL and zero are false.
bool valueTruth(const ScriptValue& v);

} // namespace scalelab
