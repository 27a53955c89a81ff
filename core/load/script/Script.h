#pragma once
// Transaction scripts in pgbench's script language (docs/load.md): SQL commands split as psql
// splits them, with :name variables; \set, \if/\elif/\else/\endif with pgbench's expressions;
// \sleep; \setshell and \shell; \gset and \aset; \startpipeline, \syncpipeline and
// \endpipeline. Parsed once into a compiled form that a client executes without allocating.
// The pieces: ScriptScanner (splitting), Expr (expressions), ScriptValue (variables),
// BuiltinScripts (pgbench's built-in scripts as data).
#include "load/script/Expr.h"
#include "load/script/ScriptValue.h"

#include <cstdint>
#include <string>
#include <vector>

#include "util/Error.h"

namespace scalelab {

// "file:line:column: message", in pgbench's words where pgbench has them; a command's error
// goes on with the command's line and, where it has a place, a caret under it.
class ScriptError : public Error {
public:
    using Error::Error;
};

// The first line of a command's text and, when `caret` is a place on it (0-based), a second
// line with "^ error found here" under that place: pgbench's way of showing where.
std::string shownLine(const std::string& command, long caret);

struct SqlCommand {
    std::string text;                // as pgbench sends it in simple mode (with :name, with its ';')
    std::vector<std::string> pieces; // text around the variables: pieces.size() == vars.size() + 1
    std::vector<int> vars;           // slot of each :name, in order
    std::string parameterized;       // :name replaced by $1, $2, ... (extended and prepared modes)
    enum class Store { None, Gset, Aset };
    Store store = Store::None;       // \gset: the last result's one row; \aset: every result's last row
    std::string prefix;              // of the variables \gset or \aset stores into
};

struct Command {
    enum class Kind {
        Sql, Set, Sleep, If, Elif, Else, Endif, SetShell, Shell, StartPipeline, SyncPipeline, EndPipeline
    };
    Kind kind = Kind::Sql;
    int line = 0;
    std::string firstLine;           // as pgbench shows it in -r's report
    std::string name;                // the meta command's name as written ("set"), for messages
    SqlCommand sql;
    int setVar = -1;                 // \set, \setshell
    std::string setName;             // as written: pgbench checks the name when it first assigns it
    bool setNameValid = true;
    Expression expr;                 // \set, \if, \elif
    // \sleep N [us|ms|s] or \sleep :var [unit]
    int64_t sleepAmount = 0;
    int sleepVar = -1;
    int64_t sleepUnitUs = 1000000;
    // \setshell, \shell: the words of the command; ":name" words are variables (slot), "::x" is ":x"
    std::vector<std::string> shellWords;
    std::vector<int> shellVars;      // slot per word, -1 for literal words
    // \if / \elif: where to go when false (the next \elif, \else or \endif);
    // \elif / \else reached after a true branch: where its \endif is.
    int next = -1;
    int endif = -1;
};

struct Script {
    std::string name;                // "<builtin: TPC-B (sort of)>", or the file name
    std::vector<Command> commands;
    std::string text;                // the source, recorded with results so a run can be reproduced
    int weight = 1;
    bool usesScale = false;
    // A terminal's times around each transaction of this script, not counted in its latency
    // (TPROC-C's keying and thinking times, issue 36): a fixed wait before it starts, and after
    // it ends a wait drawn from a negative exponential of this mean (truncated at 10 means).
    // 0: none (pgbench's scripts and the user's).
    double keyingS = 0, thinkMeanS = 0;
};

// Parses `text`; `source` names it in error messages. Throws ScriptError.
Script parseScript(const std::string& text, const std::string& source, VariableTable& vars);

// pgbench's built-in scripts: "tpcb-like", "simple-update", "select-only"; a unique prefix
// is enough ("simple"). Throws Error listing the names for anything else.
Script builtinScript(const std::string& name, VariableTable& vars);
std::vector<std::string> builtinScriptNames();
const char* builtinScriptText(const std::string& name);  // nullptr when unknown
// The same, and its description "<builtin: select only>" (pgbench --show-script's header).
const char* builtinScriptText(const std::string& name, std::string& description);
// pgbench -b list's text: "Available builtin scripts:" and a line per script.
std::string builtinScriptList();
// Why `name` names no built-in, in pgbench's words: none begins with it, or several do.
std::string unknownBuiltin(const std::string& name);

// "name@weight" -> {name, weight}; weight 1 when absent. Throws Error for a bad weight.
std::pair<std::string, int> splitWeight(const std::string& spec);

} // namespace scalelab
