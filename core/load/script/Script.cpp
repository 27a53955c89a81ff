// The script reader: pieces from ScriptScanner become commands, meta commands are checked as
// pgbench's process_backslash_command() checks them, \gset/\aset join the SQL before them,
// and \if blocks are matched (pgbench's CheckConditional) with their jump targets.
#include "load/script/Script.h"

#include "load/script/ScriptScanner.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdlib>
#include <strings.h>

namespace scalelab {
namespace {

bool varStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || static_cast<unsigned char>(c) >= 0x80; }
bool varCont(char c) { return varStart(c) || std::isdigit(static_cast<unsigned char>(c)); }

// pgbench's parseQuery()/assignVariables(): every ":name" in the text is a variable reference,
// inside quotes and comments too; a run of colons not followed by a name ("::int") is kept.
SqlCommand compileSql(const std::string& text, VariableTable& vars) {
    SqlCommand sql;
    sql.text = text;
    std::string piece;
    for (size_t i = 0; i < text.size();) {
        if (text[i] != ':') {
            piece += text[i++];
            continue;
        }
        if (i + 1 < text.size() && varStart(text[i + 1])) {
            size_t end = i + 2;
            while (end < text.size() && varCont(text[end])) ++end;
            sql.pieces.push_back(piece);
            sql.vars.push_back(vars.slot(text.substr(i + 1, end - i - 1)));
            piece.clear();
            i = end;
            continue;
        }
        while (i < text.size() && text[i] == ':') piece += text[i++];
    }
    sql.pieces.push_back(piece);
    sql.parameterized = sql.pieces[0];
    for (size_t k = 0; k < sql.vars.size(); ++k)
        sql.parameterized += "$" + std::to_string(k + 1) + sql.pieces[k + 1];
    return sql;
}

struct Word {
    std::string text;
    size_t offset;  // in the meta command's text
};

// Space-separated words (pgbench's expr_lex_one_word): backslash-newline separates too.
std::vector<Word> splitWords(const std::string& text, size_t from) {
    std::vector<Word> words;
    size_t i = from;
    auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == '\n'; };
    while (i < text.size()) {
        if (space(text[i])) {
            ++i;
            continue;
        }
        if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
            i += 2;
            continue;
        }
        size_t start = i;
        while (i < text.size() && !space(text[i]) && !(text[i] == '\\' && i + 1 < text.size() && text[i + 1] == '\n')) ++i;
        words.push_back({text.substr(start, i - start), start});
    }
    return words;
}

constexpr size_t kMaxArgs = 256;  // pgbench's MAX_ARGS: words of a meta command, parameters + 1 of a statement

class Reader {
public:
    Reader(const std::string& source, VariableTable& vars, Script& script) : source_(source), vars_(vars), script_(script) {}

    void sql(const ScriptPiece& p) {
        Command c;
        c.kind = Command::Kind::Sql;
        c.line = p.line;
        c.firstLine = p.text.substr(0, std::min<size_t>(127, p.text.find_first_of("\r\n")));
        c.sql = compileSql(p.text, vars_);
        script_.commands.push_back(std::move(c));
    }

    void meta(const ScriptPiece& p) {
        piece_ = &p;
        std::vector<Word> words = splitWords(p.text, 1);
        if (words.empty()) return;  // a lone backslash: nothing, as pgbench
        std::string name = words[0].text;
        name_ = name;
        Command c;
        c.line = p.line;
        c.firstLine = p.text.substr(0, p.text.find_first_of("\r\n"));
        c.name = name;
        auto is = [&](const char* n) { return strcasecmp(name.c_str(), n) == 0; };
        if (is("set") || is("if") || is("elif")) {
            c.kind = is("set") ? Command::Kind::Set : is("if") ? Command::Kind::If : Command::Kind::Elif;
            size_t exprStart = words[0].offset + words[0].text.size();
            if (c.kind == Command::Kind::Set) {
                if (words.size() < 2) fail("missing argument", "", -1, false);
                c.setName = words[1].text;
                c.setNameValid = isValidVariableName(c.setName);
                c.setVar = vars_.slot(c.setName);
                exprStart = words[1].offset + words[1].text.size();
            }
            ExprSource where{source_, p.line, name, p.column - 1};
            c.expr = parseExpression(p.text, exprStart, where, vars_);
            script_.commands.push_back(std::move(c));
            return;
        }
        if (words.size() > kMaxArgs) fail("too many arguments", "", -1, false);
        if (is("sleep")) {
            c.kind = Command::Kind::Sleep;
            sleep(c, words);
        } else if (is("setshell") || is("shell")) {
            c.kind = is("setshell") ? Command::Kind::SetShell : Command::Kind::Shell;
            size_t first = c.kind == Command::Kind::SetShell ? 2 : 1;
            if (words.size() < first + 1) fail(c.kind == Command::Kind::SetShell ? "missing argument" : "missing command");
            if (c.kind == Command::Kind::SetShell) {
                c.setName = words[1].text;
                c.setNameValid = isValidVariableName(c.setName);
                c.setVar = vars_.slot(c.setName);
            }
            for (size_t k = first; k < words.size(); ++k) {
                const std::string& w = words[k].text;
                if (w.size() > 1 && w[0] == ':' && w[1] != ':') {
                    c.shellWords.push_back(w);
                    c.shellVars.push_back(vars_.slot(w.substr(1)));
                } else {
                    c.shellWords.push_back(w[0] == ':' ? w.substr(1) : w);
                    c.shellVars.push_back(-1);
                }
            }
        } else if (is("else") || is("endif") || is("startpipeline") || is("syncpipeline") || is("endpipeline")) {
            if (words.size() != 1) fail("unexpected argument");
            c.kind = is("else") ? Command::Kind::Else : is("endif") ? Command::Kind::Endif
                     : is("startpipeline") ? Command::Kind::StartPipeline
                     : is("syncpipeline") ? Command::Kind::SyncPipeline : Command::Kind::EndPipeline;
        } else if (is("gset") || is("aset")) {
            if (words.size() > 2) fail("too many arguments");
            gset(is("gset") ? SqlCommand::Store::Gset : SqlCommand::Store::Aset, words.size() > 1 ? words[1].text : "");
            return;
        } else {
            fail("invalid command");
        }
        script_.commands.push_back(std::move(c));
    }

    // pgbench's CheckConditional(), plus the jump targets a client follows.
    void matchConditionals() {
        struct Open {
            size_t branch;              // the \if or \elif whose `next` is still to be set
            std::vector<size_t> chain;  // \elif and \else of this block
            bool sawElse;
        };
        std::vector<Open> open;
        auto& cmds = script_.commands;
        auto condition = [&](size_t i, const std::string& msg) {
            throw ScriptError(source_ + ":" + std::to_string(cmds[i].line) + ":1: condition error in script \"" + source_ +
                              "\" command " + std::to_string(i + 1) + ": " + msg);
        };
        for (size_t i = 0; i < cmds.size(); ++i) {
            switch (cmds[i].kind) {
            case Command::Kind::If: open.push_back({i, {}, false}); break;
            case Command::Kind::Elif:
            case Command::Kind::Else: {
                bool isElse = cmds[i].kind == Command::Kind::Else;
                if (open.empty()) condition(i, isElse ? "\\else without matching \\if" : "\\elif without matching \\if");
                if (open.back().sawElse) condition(i, isElse ? "\\else after \\else" : "\\elif after \\else");
                cmds[open.back().branch].next = static_cast<int>(i);
                open.back().branch = i;
                open.back().chain.push_back(i);
                open.back().sawElse = isElse;
                break;
            }
            case Command::Kind::Endif:
                if (open.empty()) condition(i, "\\endif without matching \\if");
                cmds[open.back().branch].next = static_cast<int>(i);
                for (size_t k : open.back().chain) cmds[k].endif = static_cast<int>(i);
                open.pop_back();
                break;
            default: break;
            }
        }
        if (!open.empty())
            throw ScriptError(source_ + ":" + std::to_string(cmds[open.back().branch].line) + ":1: condition error in script \"" +
                              source_ + "\" command " + std::to_string(cmds.size() + 1) + ": \\if without matching \\endif");
    }

private:
    [[noreturn]] void fail(const std::string& msg, const std::string& more = "", long offset = -1, bool withLine = true) const {
        int col = offset < 0 ? piece_->column : piece_->column + static_cast<int>(offset);
        std::string text = source_ + ":" + std::to_string(piece_->line) + ":" + std::to_string(col) + ": " + msg;
        if (!more.empty()) text += " (" + more + ")";
        if (!name_.empty()) text += " in command \"" + name_ + "\"";
        // As pgbench's syntax_error(): the command's line under the message and, where the
        // error has a place, "^ error found here" under it (pgbench's TAP scripts look for both).
        // pgbench shows no line for a \set without arguments, a command over its argument
        // limit, or a misplaced \gset (no command name).
        if (withLine && !name_.empty()) text += "\n" + shownLine(piece_->text, offset);
        throw ScriptError(text);
    }

    // pgbench: "\sleep N", "\sleep Nunit", "\sleep N unit", "\sleep :var [unit]".
    void sleep(Command& c, std::vector<Word> words) {
        if (words.size() < 2) fail("missing argument");
        if (words.size() > 3) fail("too many arguments", "", static_cast<long>(words[3].offset));
        std::string amount = words[1].text;
        if (amount[0] != ':') {
            size_t k = 0;
            if (amount[k] == '+' || amount[k] == '-') ++k;
            bool digit = k < amount.size() && std::isdigit(static_cast<unsigned char>(amount[k]));
            while (k < amount.size() && std::isdigit(static_cast<unsigned char>(amount[k]))) ++k;
            if (k < amount.size()) {
                if (words.size() == 2 && digit) {
                    words.push_back({amount.substr(k), words[1].offset + k});
                    amount.resize(k);
                } else {
                    fail("invalid sleep time, must be an integer", amount, static_cast<long>(words[1].offset));
                }
            }
            c.sleepAmount = std::atoi(amount.c_str());
        } else {
            c.sleepVar = vars_.slot(amount.substr(1));
        }
        c.sleepUnitUs = 1000000;
        if (words.size() == 3) {
            const std::string& unit = words[2].text;
            if (strcasecmp(unit.c_str(), "us") == 0) c.sleepUnitUs = 1;
            else if (strcasecmp(unit.c_str(), "ms") == 0) c.sleepUnitUs = 1000;
            else if (strcasecmp(unit.c_str(), "s") == 0) c.sleepUnitUs = 1000000;
            else fail("unrecognized time unit, must be us, ms or s", unit, static_cast<long>(words[2].offset));
        }
    }

    void gset(SqlCommand::Store store, const std::string& prefix) {
        auto& cmds = script_.commands;
        name_.clear();  // pgbench names no command in this message (meta() sets it for the next one)
        if (cmds.empty()) fail("\\gset must follow an SQL command");
        Command& last = cmds.back();
        if (last.kind != Command::Kind::Sql || last.sql.store != SqlCommand::Store::None) {
            std::string first = last.kind == Command::Kind::Sql ? last.sql.text : "\\" + last.name;
            first = first.substr(0, first.find_first_of("\r\n"));
            fail("\\gset must follow an SQL command", first);
        }
        last.sql.store = store;
        last.sql.prefix = prefix;
    }

    std::string source_;
    VariableTable& vars_;
    Script& script_;
    const ScriptPiece* piece_ = nullptr;
    std::string name_;
};

} // namespace

std::string shownLine(const std::string& command, long caret) {
    std::string line = command.substr(0, command.find_first_of("\r\n"));
    if (caret < 0 || static_cast<size_t>(caret) > line.size()) return line;
    return line + "\n" + std::string(static_cast<size_t>(caret), ' ') + "^ error found here";
}

Script parseScript(const std::string& text, const std::string& source, VariableTable& vars) {
    Script script;
    script.name = source;
    script.text = text;
    Reader reader(source, vars, script);
    for (const ScriptPiece& p : scanScript(text)) {
        if (p.kind == ScriptPiece::Kind::Sql) reader.sql(p);
        else reader.meta(p);
    }
    if (script.commands.empty()) throw ScriptError(source + ":1:1: empty command list for script \"" + source + "\"");
    reader.matchConditionals();
    for (const auto& c : script.commands) {
        bool scale = c.expr.usesVar(VariableTable::kScale) || c.sleepVar == VariableTable::kScale ||
                     std::count(c.sql.vars.begin(), c.sql.vars.end(), VariableTable::kScale) > 0 ||
                     std::count(c.shellVars.begin(), c.shellVars.end(), VariableTable::kScale) > 0;
        script.usesScale = script.usesScale || scale;
    }
    return script;
}

std::pair<std::string, int> splitWeight(const std::string& spec) {
    auto at = spec.rfind('@');
    if (at == std::string::npos) return {spec, 1};
    std::string w = spec.substr(at + 1);
    if (w.empty() || !std::all_of(w.begin(), w.end(), ::isdigit) || w.size() > 9 || std::stoi(w) == 0)
        throw Error("'" + spec + "': the weight after '@' must be a positive integer");
    return {spec.substr(0, at), std::stoi(w)};
}

} // namespace scalelab
