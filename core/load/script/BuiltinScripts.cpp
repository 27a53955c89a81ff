// pgbench's built-in scripts, as data: the same text pgbench runs (pgbench --show-script),
// parsed by the same reader as script files.
#include "load/script/Script.h"

#include <cstdio>

namespace scalelab {
namespace {

struct Builtin {
    const char* name;
    const char* description;
    const char* text;
};

// The first lines of tpcb-like and simple-update, which pgbench writes out twice.
#define TPCB_START                                                                    \
    "\\set aid random(1, 100000 * :scale)\n"                                           \
    "\\set bid random(1, 1 * :scale)\n"                                                \
    "\\set tid random(1, 10 * :scale)\n"                                               \
    "\\set delta random(-5000, 5000)\n"                                                \
    "BEGIN;\n"                                                                        \
    "UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;\n"    \
    "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n"

const Builtin kBuiltins[] = {
    {"tpcb-like", "TPC-B (sort of)",
     TPCB_START
     "UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;\n"
     "UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;\n"
     "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);\n"
     "END;\n"},
    {"simple-update", "simple update",
     TPCB_START
     "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);\n"
     "END;\n"},
    {"select-only", "select only",
     "\\set aid random(1, 100000 * :scale)\n"
     "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n"},
};

// The built-in named, or the only one the name begins (pgbench's findBuiltin); `matches` says
// how many begin with it when there is no single one.
const Builtin* findBuiltin(const std::string& name, int* matches = nullptr) {
    const Builtin* match = nullptr;
    int n = 0;
    for (const auto& b : kBuiltins) {
        if (name == b.name) return &b;
        if (!name.empty() && std::string(b.name).rfind(name, 0) == 0) {
            match = &b;
            ++n;
        }
    }
    if (matches) *matches = n;
    return n == 1 ? match : nullptr;
}

} // namespace

std::vector<std::string> builtinScriptNames() {
    std::vector<std::string> names;
    for (const auto& b : kBuiltins) names.emplace_back(b.name);
    return names;
}

const char* builtinScriptText(const std::string& name) {
    const Builtin* b = findBuiltin(name);
    return b ? b->text : nullptr;
}

std::string builtinScriptList() {
    std::string out = "Available builtin scripts:\n";
    for (const auto& b : kBuiltins) {
        char line[96];
        std::snprintf(line, sizeof line, "  %13s: <builtin: %s>\n", b.name, b.description);
        out += line;
    }
    return out + "\n";
}

const char* builtinScriptText(const std::string& name, std::string& description) {
    const Builtin* b = findBuiltin(name);
    if (b) description = std::string("<builtin: ") + b->description + ">";
    return b ? b->text : nullptr;
}

std::string unknownBuiltin(const std::string& name) {
    int matches = 0;
    findBuiltin(name, &matches);
    std::string names = " (built-in scripts: tpcb-like, simple-update, select-only)";
    if (matches > 1)
        return "ambiguous builtin name: " + std::to_string(matches) + " builtin scripts found for prefix \"" + name + "\"" + names;
    return "no builtin script found for name \"" + name + "\"" + names;
}

Script builtinScript(const std::string& name, VariableTable& vars) {
    const Builtin* b = findBuiltin(name);
    if (!b) throw Error(unknownBuiltin(name));
    Script s = parseScript(b->text, std::string("builtin:") + b->name, vars);
    s.name = std::string("<builtin: ") + b->description + ">";
    return s;
}

} // namespace scalelab
