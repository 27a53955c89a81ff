#include "load/script/Workload.h"

#include <fstream>
#include <sstream>

namespace scalelab {

QueryMode parseQueryMode(const std::string& text) {
    if (text == "simple") return QueryMode::Simple;
    if (text == "extended") return QueryMode::Extended;
    if (text == "prepared") return QueryMode::Prepared;
    throw Error("query mode '" + text + "' is not one of simple, extended, prepared");
}

const char* queryModeName(QueryMode mode) {
    switch (mode) {
    case QueryMode::Simple: return "simple";
    case QueryMode::Extended: return "extended";
    case QueryMode::Prepared: return "prepared";
    }
    return "?";
}

void Workload::define(const std::string& nameEqualsValue) {
    size_t eq = nameEqualsValue.find('=');
    // pgbench's rule: a name and a value, neither empty ("-D v=" and "-D =5" are refused).
    if (eq == std::string::npos || eq == 0 || eq + 1 == nameEqualsValue.size())
        throw Error("invalid variable definition: \"" + nameEqualsValue + "\"");
    std::string name = nameEqualsValue.substr(0, eq);
    if (!isValidVariableName(name)) throw Error("option -D: invalid variable name: \"" + name + "\"");
    int slot = vars.slot(name);
    for (auto& d : defines_)
        if (d.slot == slot) {
            d.value = nameEqualsValue.substr(eq + 1);
            return;
        }
    defines_.push_back({slot, nameEqualsValue.substr(eq + 1)});
}

bool Workload::isDefined(int slot) const {
    for (const auto& d : defines_)
        if (d.slot == slot) return true;
    return false;
}

bool Workload::usesScale() const {
    for (const auto& s : scripts)
        if (s.usesScale) return true;
    return false;
}

int Workload::totalWeight() const {
    int total = 0;
    for (const auto& s : scripts) total += s.weight;
    return total;
}

std::string Workload::describe() const {
    if (replay) return "replay of " + replaySource + (shuffle ? " (shuffled)" : " (in order)");
    if (scripts.size() == 1) return scripts[0].name;
    std::string out;
    for (const auto& s : scripts) out += (out.empty() ? "" : ", ") + s.name + "@" + std::to_string(s.weight);
    return out;
}

void Workload::addBuiltin(const std::string& nameAtWeight) {
    auto [name, weight] = splitWeight(nameAtWeight);
    Script s = builtinScript(name, vars);
    s.weight = weight;
    scripts.push_back(std::move(s));
}

void Workload::addScriptText(const std::string& text, const std::string& source, int weight) {
    Script s = parseScript(text, source, vars);
    s.weight = weight;
    scripts.push_back(std::move(s));
}

namespace {
std::string readFile(const std::string& path, const char* what) {
    std::ifstream in(path);
    if (!in) throw Error(std::string("cannot read ") + what + " " + path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}
} // namespace

void Workload::addScriptFile(const std::string& pathAtWeight) {
    auto [path, weight] = splitWeight(pathAtWeight);
    addScriptText(readFile(path, "script file"), path, weight);
}

Workload Workload::replayText(const std::string& text, const std::string& source, bool shuffle) {
    Workload w;
    w.replay = true;
    w.shuffle = shuffle;
    w.replaySource = source;
    w.replayFileText = text;
    std::istringstream in(text);
    std::string line, pending;
    int lineNo = 0, pendingLine = 0;
    auto flush = [&] {
        std::string sql = pending;
        while (!sql.empty() && (std::isspace(static_cast<unsigned char>(sql.back())) || sql.back() == ';')) sql.pop_back();
        if (!sql.empty()) {
            Script s;
            s.name = source + ":" + std::to_string(pendingLine);
            Command c;
            c.kind = Command::Kind::Sql;
            c.line = pendingLine;
            c.sql.text = sql;
            c.sql.pieces = {sql};
            c.sql.parameterized = sql;
            s.commands.push_back(std::move(c));
            w.scripts.push_back(std::move(s));
        }
        pending.clear();
    };
    while (std::getline(in, line)) {
        ++lineNo;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        size_t first = line.find_first_not_of(" \t");
        if (first == std::string::npos || line.compare(first, 2, "--") == 0) continue;
        if (line[first] == '\\')
            throw ScriptError(source + ":" + std::to_string(lineNo) + ":" + std::to_string(first + 1) +
                              ": a replay file holds SQL statements only; meta commands belong in a script (-f)");
        if (pending.empty()) pendingLine = lineNo;
        pending += line + "\n";
        size_t last = line.find_last_not_of(" \t");
        if (line[last] == ';') flush();
    }
    flush();
    if (w.scripts.empty()) throw ScriptError(source + ":1:1: the replay file has no SQL statement");
    return w;
}

Workload Workload::replayFile(const std::string& path, bool shuffle) {
    return replayText(readFile(path, "replay file"), path, shuffle);
}

} // namespace scalelab
