#include "load/Script.h"

#include "load/Random.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>
#include <unordered_set>

namespace scalelab {
namespace {

bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Recursive-descent parser for one \set or \sleep expression.
class ExprParser {
public:
    ExprParser(const std::string& text, size_t start, const std::string& where, int line,
               VariableTable& vars, const std::unordered_set<int>& defined, bool& usesScale)
        : text_(text), pos_(start), where_(where), line_(line), vars_(vars), defined_(defined), usesScale_(usesScale) {}

    Expression parseAll() {
        Expression e;
        expr_ = &e;
        e.root = parseSum();
        skipSpace();
        if (pos_ < text_.size()) fail("unexpected '" + std::string(1, text_[pos_]) + "' after the expression");
        requireInteger(e.root, "expression");
        return e;
    }

    [[noreturn]] void fail(const std::string& msg, size_t at = std::string::npos) const {
        size_t col = (at == std::string::npos ? pos_ : at) + 1;
        throw ScriptError(where_ + ":" + std::to_string(line_) + ":" + std::to_string(col) + ": " + msg);
    }

private:
    int add(ExprNode n) {
        // An operator starts where its first operand does; a leaf where it was read.
        starts_.push_back(n.args[0] >= 0 ? starts_[static_cast<size_t>(n.args[0])] : nodeStart_);
        expr_->nodes.push_back(n);
        return static_cast<int>(expr_->nodes.size() - 1);
    }
    void skipSpace() {
        while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    }
    bool eat(char c) {
        skipSpace();
        if (pos_ < text_.size() && text_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }
    void requireInteger(int node, const std::string& what) {
        if (expr_->nodes[static_cast<size_t>(node)].kind == ExprNode::Kind::Double)
            fail("a decimal number is allowed only as the parameter of random_exponential, random_gaussian "
                 "and random_zipfian, not as " + what, starts_[static_cast<size_t>(node)]);
    }
    int binary(ExprNode::Kind kind, int a, int b) {
        ExprNode n;
        n.kind = kind;
        n.args[0] = a;
        n.args[1] = b;
        return add(n);
    }
    int parseSum() {
        int left = parseProduct();
        for (;;) {
            if (eat('+')) left = binary(ExprNode::Kind::Add, checkedInt(left), checkedInt(parseProduct()));
            else if (eat('-')) left = binary(ExprNode::Kind::Sub, checkedInt(left), checkedInt(parseProduct()));
            else return left;
        }
    }
    int parseProduct() {
        int left = parseUnary();
        for (;;) {
            if (eat('*')) left = binary(ExprNode::Kind::Mul, checkedInt(left), checkedInt(parseUnary()));
            else if (eat('/')) left = binary(ExprNode::Kind::Div, checkedInt(left), checkedInt(parseUnary()));
            else if (eat('%')) left = binary(ExprNode::Kind::Mod, checkedInt(left), checkedInt(parseUnary()));
            else return left;
        }
    }
    int checkedInt(int node) {
        requireInteger(node, "an operand of arithmetic");
        return node;
    }
    int parseUnary() {
        skipSpace();
        size_t minusAt = pos_;
        if (eat('-')) {
            ExprNode n;
            n.kind = ExprNode::Kind::Neg;
            n.args[0] = checkedInt(parseUnary());
            nodeStart_ = minusAt;
            int node = add(n);
            starts_[static_cast<size_t>(node)] = minusAt;
            return node;
        }
        if (eat('+')) return parseUnary();
        return parsePrimary();
    }
    int parsePrimary() {
        skipSpace();
        nodeStart_ = pos_;
        if (pos_ >= text_.size()) fail("expression expected");
        char c = text_[pos_];
        if (c == '(') {
            ++pos_;
            int inner = parseSum();
            if (!eat(')')) fail("')' expected");
            return inner;
        }
        if (c == ':') {
            size_t start = pos_++;
            size_t nameStart = pos_;
            while (pos_ < text_.size() && isIdentChar(text_[pos_])) ++pos_;
            std::string name = text_.substr(nameStart, pos_ - nameStart);
            if (name.empty()) fail("variable name expected after ':'", start);
            int slot = vars_.find(name);
            if (slot < 0 || !defined_.count(slot))
                fail("variable :" + name + " is used before any \\set of it", start);
            if (slot == VariableTable::kScale) usesScale_ = true;
            ExprNode n;
            n.kind = ExprNode::Kind::Var;
            n.var = slot;
            return add(n);
        }
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return parseNumber();
        if (std::isalpha(static_cast<unsigned char>(c))) return parseCall();
        fail("unexpected '" + std::string(1, c) + "'");
    }
    int parseNumber() {
        size_t start = pos_;
        while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
        bool isDouble = false;
        if (pos_ < text_.size() && text_[pos_] == '.') {
            isDouble = true;
            ++pos_;
            while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
        }
        if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
            isDouble = true;
            ++pos_;
            if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
            while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
        }
        std::string lit = text_.substr(start, pos_ - start);
        ExprNode n;
        try {
            if (isDouble) {
                n.kind = ExprNode::Kind::Double;
                n.doubleValue = std::stod(lit);
            } else {
                n.intValue = std::stoll(lit);
            }
        } catch (const std::exception&) {
            fail("number '" + lit + "' is not valid or out of range", start);
        }
        return add(n);
    }
    int parseCall() {
        size_t start = pos_;
        while (pos_ < text_.size() && isIdentChar(text_[pos_])) ++pos_;
        std::string fn = text_.substr(start, pos_ - start);
        struct Fn {
            const char* name;
            ExprNode::Kind kind;
            int arity;
        };
        static const Fn fns[] = {{"random", ExprNode::Kind::Random, 2},
                                 {"random_exponential", ExprNode::Kind::RandomExponential, 3},
                                 {"random_gaussian", ExprNode::Kind::RandomGaussian, 3},
                                 {"random_zipfian", ExprNode::Kind::RandomZipfian, 3}};
        const Fn* found = nullptr;
        for (const auto& f : fns)
            if (fn == f.name) found = &f;
        if (!found)
            fail("unknown function '" + fn + "' (supported: random, random_exponential, random_gaussian, random_zipfian)", start);
        if (!eat('(')) fail("'(' expected after " + fn);
        ExprNode n;
        n.kind = found->kind;
        for (int i = 0; i < found->arity; ++i) {
            if (i > 0 && !eat(',')) fail(fn + " takes " + std::to_string(found->arity) + " arguments: ',' expected");
            n.args[i] = parseSum();
            if (i < 2) requireInteger(n.args[i], "a bound of " + fn);
            if (i == 2) checkParameter(fn, n.args[i], starts_[static_cast<size_t>(n.args[i])]);
        }
        if (!eat(')')) fail(fn + " takes " + std::to_string(found->arity) + " arguments: ')' expected");
        return add(n);
    }
    // A constant parameter outside pgbench's accepted range is a mistake we can name now.
    void checkParameter(const std::string& fn, int node, size_t at) {
        const ExprNode& p = expr_->nodes[static_cast<size_t>(node)];
        if (p.kind != ExprNode::Kind::Int && p.kind != ExprNode::Kind::Double) return;
        double v = p.kind == ExprNode::Kind::Int ? static_cast<double>(p.intValue) : p.doubleValue;
        if (fn == "random_exponential" && !(v > 0)) fail("random_exponential parameter must be greater than 0", at);
        if (fn == "random_gaussian" && !(v >= 2)) fail("random_gaussian parameter must be at least 2.0", at);
        if (fn == "random_zipfian" && !(v >= 1.001 && v <= 1000))
            fail("random_zipfian parameter must be between 1.001 and 1000", at);
    }

    const std::string& text_;
    size_t pos_;
    size_t nodeStart_ = 0;
    std::vector<size_t> starts_;  // where each node's text begins, for messages
    std::string where_;
    int line_;
    VariableTable& vars_;
    const std::unordered_set<int>& defined_;
    bool& usesScale_;
    Expression* expr_ = nullptr;
};

// Splits SQL at :name references to variables defined so far. "::" is a cast.
SqlCommand compileSql(const std::string& text, const VariableTable& vars, const std::unordered_set<int>& defined,
                      bool& usesScale) {
    SqlCommand sql;
    sql.text = text;
    std::string piece;
    for (size_t i = 0; i < text.size();) {
        if (text[i] == ':' && i + 1 < text.size() && text[i + 1] == ':') {
            piece += "::";
            i += 2;
            continue;
        }
        if (text[i] == ':' && i + 1 < text.size() && isIdentChar(text[i + 1])) {
            size_t end = i + 1;
            while (end < text.size() && isIdentChar(text[end])) ++end;
            int slot = vars.find(text.substr(i + 1, end - i - 1));
            if (slot >= 0 && defined.count(slot)) {
                if (slot == VariableTable::kScale) usesScale = true;
                sql.pieces.push_back(piece);
                sql.vars.push_back(slot);
                piece.clear();
                i = end;
                continue;
            }
        }
        piece += text[i++];
    }
    sql.pieces.push_back(piece);
    sql.parameterized = sql.pieces[0];
    for (size_t k = 0; k < sql.vars.size(); ++k)
        sql.parameterized += "$" + std::to_string(k + 1) + sql.pieces[k + 1];
    return sql;
}

std::string trimRight(std::string s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
    return s;
}

// The line without a trailing "-- comment" that is outside quotes.
std::string stripComment(const std::string& line) {
    bool inSingle = false, inDouble = false;
    for (size_t i = 0; i < line.size(); ++i) {
        char c = line[i];
        if (c == '\'' && !inDouble) inSingle = !inSingle;
        else if (c == '"' && !inSingle) inDouble = !inDouble;
        else if (c == '-' && !inSingle && !inDouble && i + 1 < line.size() && line[i + 1] == '-')
            return line.substr(0, i);
    }
    return line;
}

} // namespace

VariableTable::VariableTable() : names_{"scale", "client_id", "random_seed"} {}

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

Script parseScript(const std::string& text, const std::string& source, VariableTable& vars) {
    Script script;
    script.name = source;
    std::unordered_set<int> defined = {VariableTable::kScale, VariableTable::kClientId, VariableTable::kRandomSeed};
    std::istringstream in(text);
    std::string line;
    std::string pendingSql;
    int pendingLine = 0;
    int lineNo = 0;

    auto flushSql = [&] {
        std::string sqlText = trimRight(pendingSql);
        while (!sqlText.empty() && sqlText.back() == ';') sqlText = trimRight(sqlText.substr(0, sqlText.size() - 1));
        if (!sqlText.empty()) {
            Command cmd;
            cmd.kind = Command::Kind::Sql;
            cmd.line = pendingLine;
            cmd.sql = compileSql(sqlText, vars, defined, script.usesScale);
            script.commands.push_back(std::move(cmd));
        }
        pendingSql.clear();
    };
    auto error = [&](size_t col, const std::string& msg) {
        return ScriptError(source + ":" + std::to_string(lineNo) + ":" + std::to_string(col + 1) + ": " + msg);
    };

    while (std::getline(in, line)) {
        ++lineNo;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        size_t first = line.find_first_not_of(" \t");
        if (first == std::string::npos) continue;
        if (line.compare(first, 2, "--") == 0) continue;
        if (line[first] == '\\') {
            flushSql();
            size_t nameEnd = first + 1;
            while (nameEnd < line.size() && isIdentChar(line[nameEnd])) ++nameEnd;
            std::string meta = line.substr(first + 1, nameEnd - first - 1);
            std::string args = stripComment(line);
            if (meta == "set") {
                size_t p = args.find_first_not_of(" \t", nameEnd);
                if (p == std::string::npos) throw error(nameEnd, "\\set needs a variable name and an expression");
                size_t varEnd = p;
                while (varEnd < args.size() && isIdentChar(args[varEnd])) ++varEnd;
                if (varEnd == p) throw error(p, "variable name expected after \\set");
                std::string name = args.substr(p, varEnd - p);
                if (args.find_first_not_of(" \t", varEnd) == std::string::npos)
                    throw error(varEnd, "\\set " + name + " needs an expression");
                Command cmd;
                cmd.kind = Command::Kind::Set;
                cmd.line = lineNo;
                ExprParser parser(args, varEnd, source, lineNo, vars, defined, script.usesScale);
                cmd.expr = parser.parseAll();
                cmd.setVar = vars.slot(name);
                defined.insert(cmd.setVar);
                script.commands.push_back(std::move(cmd));
            } else if (meta == "sleep") {
                std::string rest = trimRight(args.substr(nameEnd));
                // An optional unit as the last word.
                int64_t unit = 1000000;
                size_t lastSpace = rest.find_last_of(" \t");
                std::string lastWord = lastSpace == std::string::npos ? rest : rest.substr(lastSpace + 1);
                if (lastWord == "us" || lastWord == "ms" || lastWord == "s") {
                    unit = lastWord == "us" ? 1 : lastWord == "ms" ? 1000 : 1000000;
                    rest = rest.substr(0, lastSpace == std::string::npos ? 0 : lastSpace);
                }
                if (rest.find_first_not_of(" \t") == std::string::npos)
                    throw error(nameEnd, "\\sleep needs a duration: \\sleep N [us|ms|s]");
                Command cmd;
                cmd.kind = Command::Kind::Sleep;
                cmd.line = lineNo;
                cmd.sleepUnitUs = unit;
                std::string padded = std::string(nameEnd, ' ') + rest;
                ExprParser parser(padded, nameEnd, source, lineNo, vars, defined, script.usesScale);
                cmd.expr = parser.parseAll();
                script.commands.push_back(std::move(cmd));
            } else {
                throw error(first, "unknown meta command \\" + meta + " (supported: \\set, \\sleep)");
            }
            continue;
        }
        if (pendingSql.empty()) pendingLine = lineNo;
        pendingSql += line + "\n";
        if (!trimRight(stripComment(line)).empty() && trimRight(stripComment(line)).back() == ';') flushSql();
    }
    flushSql();
    if (script.commands.empty()) throw ScriptError(source + ":1:1: the script has no command");
    return script;
}

int64_t evaluate(const Expression& e, const int64_t* vars, Random& rng, EvalError& err) {
    struct Eval {
        const Expression& e;
        const int64_t* vars;
        Random& rng;
        EvalError& err;
        double param(int i) {
            const ExprNode& n = e.nodes[static_cast<size_t>(i)];
            return n.kind == ExprNode::Kind::Double ? n.doubleValue : static_cast<double>(at(i));
        }
        int64_t at(int i) {
            const ExprNode& n = e.nodes[static_cast<size_t>(i)];
            using K = ExprNode::Kind;
            switch (n.kind) {
            case K::Int: return n.intValue;
            case K::Double: return static_cast<int64_t>(n.doubleValue);
            case K::Var: return vars[n.var];
            case K::Neg: return -at(n.args[0]);
            case K::Add: return at(n.args[0]) + at(n.args[1]);
            case K::Sub: return at(n.args[0]) - at(n.args[1]);
            case K::Mul: return at(n.args[0]) * at(n.args[1]);
            case K::Div:
            case K::Mod: {
                int64_t a = at(n.args[0]), b = at(n.args[1]);
                if (b == 0) {
                    err.what = "division by zero";
                    return 0;
                }
                if (b == -1) return n.kind == K::Div ? -a : 0;  // INT64_MIN / -1 overflows
                return n.kind == K::Div ? a / b : a % b;
            }
            default: break;
            }
            int64_t lo = at(n.args[0]), hi = at(n.args[1]);
            if (lo > hi) {
                err.what = "random range is empty: the lower bound is above the upper bound";
                return 0;
            }
            if (n.kind == K::Random) return rng.between(lo, hi);
            double p = param(n.args[2]);
            auto failWith = [&](const char* why) {
                err.what = why;
                return int64_t{0};
            };
            if (n.kind == K::RandomExponential)
                return p > 0 ? rng.exponential(lo, hi, p) : failWith("random_exponential parameter must be greater than 0");
            if (n.kind == K::RandomGaussian)
                return p >= 2 ? rng.gaussian(lo, hi, p) : failWith("random_gaussian parameter must be at least 2.0");
            return p >= 1.001 && p <= 1000 ? rng.zipfian(lo, hi, p)
                                           : failWith("random_zipfian parameter must be between 1.001 and 1000");
        }
    } ev{e, vars, rng, err};
    return ev.at(e.root);
}

namespace {
struct Builtin {
    const char* name;
    const char* description;
    const char* text;
};
// The statements and key choices of pgbench's built-in scripts (pgbench documentation,
// "Built-in Scripts").
const Builtin kBuiltins[] = {
    {"tpcb-like", "TPC-B (sort of)",
     "\\set aid random(1, 100000 * :scale)\n"
     "\\set bid random(1, 1 * :scale)\n"
     "\\set tid random(1, 10 * :scale)\n"
     "\\set delta random(-5000, 5000)\n"
     "BEGIN;\n"
     "UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;\n"
     "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n"
     "UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;\n"
     "UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;\n"
     "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);\n"
     "END;\n"},
    {"simple-update", "simple update",
     "\\set aid random(1, 100000 * :scale)\n"
     "\\set bid random(1, 1 * :scale)\n"
     "\\set tid random(1, 10 * :scale)\n"
     "\\set delta random(-5000, 5000)\n"
     "BEGIN;\n"
     "UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;\n"
     "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n"
     "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);\n"
     "END;\n"},
    {"select-only", "select only",
     "\\set aid random(1, 100000 * :scale)\n"
     "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n"},
};
} // namespace

std::vector<std::string> builtinScriptNames() {
    std::vector<std::string> names;
    for (const auto& b : kBuiltins) names.emplace_back(b.name);
    return names;
}

Script builtinScript(const std::string& name, VariableTable& vars) {
    const Builtin* match = nullptr;
    int matches = 0;
    for (const auto& b : kBuiltins) {
        if (name == b.name) {
            match = &b;
            matches = 1;
            break;
        }
        if (!name.empty() && std::string(b.name).rfind(name, 0) == 0) {
            match = &b;
            ++matches;
        }
    }
    if (matches != 1)
        throw Error("no built-in script '" + name + "' (built-in scripts: tpcb-like, simple-update, select-only)");
    Script s = parseScript(match->text, std::string("builtin:") + match->name, vars);
    s.name = std::string("<builtin: ") + match->description + ">";
    return s;
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
