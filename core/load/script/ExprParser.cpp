// pgbench's expression grammar (exprparse.y) as a precedence-climbing parser, with the
// tokens of exprscan.l. Precedence, lowest first: OR; AND; NOT; IS ISNULL NOTNULL
// (non-associative); < > = <= >= <> != (non-associative); | # & << >> ~; + -; * / %; unary.
// Messages and columns are pgbench's: the column is the last character of the token where
// the error was found.
#include "load/script/Expr.h"
#include "load/script/Script.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <strings.h>

namespace scalelab {
namespace {

enum class Tok {
    End, Plus, Minus, Star, Slash, Percent, LParen, RParen, Comma, Tilde, Amp, Pipe, Hash,
    Lt, Gt, Eq, Ne, Le, Ge, Shl, Shr, And, Or, Not, Is, IsNull, NotNull, Null, True, False,
    Case, When, Then, Else, EndKw, Int, MaxIntPlusOne, Double, Variable, Function
};

struct Token {
    Tok kind = Tok::End;
    size_t start = 0, end = 0;  // [start, end) in the text
    std::string text;
    int64_t i = 0;
    double d = 0;
};

bool isAlpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || static_cast<unsigned char>(c) >= 0x80; }
bool isAlnum(char c) { return isAlpha(c) || std::isdigit(static_cast<unsigned char>(c)); }
bool isDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

class Parser {
public:
    Parser(const std::string& line, size_t start, const ExprSource& where, VariableTable& vars)
        : text_(line), where_(where), vars_(vars), pos_(start) {}

    Expression parse() {
        advance();
        e_.root = parseExpr(1);
        if (tok_.kind != Tok::End) syntaxError();
        return std::move(e_);
    }

private:
    // --- errors ---
    [[noreturn]] void fail(const std::string& msg, const std::string& more, size_t tokenEnd) const {
        std::string text = where_.file + ":" + std::to_string(where_.line) + ":" +
                           std::to_string(where_.columnBase + static_cast<int>(tokenEnd)) + ": " + msg;
        if (!more.empty()) text += " (" + more + ")";
        text += " in command \"" + where_.command + "\"";
        text += "\n" + shownLine(text_, static_cast<long>(tokenEnd) - 1);  // as pgbench: the line, then a caret
        throw ScriptError(text);
    }
    [[noreturn]] void syntaxError() const { fail("syntax error", "", tok_.end); }
    // pgbench's \set, \if and \elif stop at the end of the line: nothing may follow.

    // --- lexer ---
    void skipSpace() {
        while (pos_ < text_.size()) {
            char c = text_[pos_];
            if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') ++pos_;
            else if (c == '\\' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '\n') pos_ += 2;
            else break;
        }
    }
    void advance() {
        skipSpace();
        tok_ = Token{};
        tok_.start = pos_;
        if (pos_ >= text_.size() || text_[pos_] == '\n') {
            tok_.kind = Tok::End;
            tok_.end = pos_ + 1;  // pgbench points past the line's end
            return;
        }
        char c = text_[pos_];
        auto two = [&](char a, char b) { return c == a && pos_ + 1 < text_.size() && text_[pos_ + 1] == b; };
        auto op = [&](Tok k, size_t len) {
            tok_.kind = k;
            pos_ += len;
            tok_.end = pos_;
        };
        if (two('<', '>') || two('!', '=')) return op(Tok::Ne, 2);
        if (two('<', '=')) return op(Tok::Le, 2);
        if (two('>', '=')) return op(Tok::Ge, 2);
        if (two('<', '<')) return op(Tok::Shl, 2);
        if (two('>', '>')) return op(Tok::Shr, 2);
        switch (c) {
        case '+': return op(Tok::Plus, 1);
        case '-': return op(Tok::Minus, 1);
        case '*': return op(Tok::Star, 1);
        case '/': return op(Tok::Slash, 1);
        case '%': return op(Tok::Percent, 1);
        case '(': return op(Tok::LParen, 1);
        case ')': return op(Tok::RParen, 1);
        case ',': return op(Tok::Comma, 1);
        case '~': return op(Tok::Tilde, 1);
        case '&': return op(Tok::Amp, 1);
        case '|': return op(Tok::Pipe, 1);
        case '#': return op(Tok::Hash, 1);
        case '<': return op(Tok::Lt, 1);
        case '>': return op(Tok::Gt, 1);
        case '=': return op(Tok::Eq, 1);
        default: break;
        }
        if (c == ':' && pos_ + 1 < text_.size() && isAlnum(text_[pos_ + 1])) {
            size_t end = pos_ + 1;
            while (end < text_.size() && isAlnum(text_[end])) ++end;
            tok_.kind = Tok::Variable;
            tok_.text = text_.substr(pos_ + 1, end - pos_ - 1);
            pos_ = end;
            tok_.end = end;
            return;
        }
        if (isDigit(c) || (c == '.' && pos_ + 1 < text_.size() && isDigit(text_[pos_ + 1]))) return lexNumber();
        if (isAlpha(c)) return lexWord();
        pos_ += 1;
        fail("unexpected character", std::string(1, c), pos_);
    }
    void lexNumber() {
        size_t p = pos_;
        while (p < text_.size() && isDigit(text_[p])) ++p;
        size_t intEnd = p;
        bool isDouble = false;
        if (p < text_.size() && text_[p] == '.') {
            isDouble = true;
            ++p;
            while (p < text_.size() && isDigit(text_[p])) ++p;
        }
        if (p < text_.size() && (text_[p] == 'e' || text_[p] == 'E')) {
            size_t q = p + 1;
            if (q < text_.size() && (text_[q] == '+' || text_[q] == '-')) ++q;
            if (q < text_.size() && isDigit(text_[q])) {
                while (q < text_.size() && isDigit(text_[q])) ++q;
                isDouble = true;
                p = q;
            }
        }
        if (!isDouble) p = intEnd;
        std::string lit = text_.substr(pos_, p - pos_);
        pos_ = p;
        tok_.end = p;
        tok_.text = lit;
        errno = 0;
        if (!isDouble) {
            if (lit == "9223372036854775808") {  // only valid after a unary minus
                tok_.kind = Tok::MaxIntPlusOne;
                return;
            }
            char* end = nullptr;
            tok_.i = std::strtoll(lit.c_str(), &end, 10);
            if (errno == ERANGE) fail("bigint constant overflow", lit, p);
            tok_.kind = Tok::Int;
        } else {
            char* end = nullptr;
            tok_.d = std::strtod(lit.c_str(), &end);
            if (errno == ERANGE) fail("double constant overflow", lit, p);
            tok_.kind = Tok::Double;
        }
    }
    void lexWord() {
        size_t p = pos_;
        while (p < text_.size() && isAlnum(text_[p])) ++p;
        tok_.text = text_.substr(pos_, p - pos_);
        pos_ = p;
        tok_.end = p;
        static const struct {
            const char* word;
            Tok kind;
        } keywords[] = {{"and", Tok::And},       {"or", Tok::Or},     {"not", Tok::Not},   {"is", Tok::Is},
                        {"isnull", Tok::IsNull}, {"notnull", Tok::NotNull}, {"null", Tok::Null},
                        {"true", Tok::True},     {"false", Tok::False},     {"case", Tok::Case},
                        {"when", Tok::When},     {"then", Tok::Then}, {"else", Tok::Else}, {"end", Tok::EndKw}};
        for (const auto& k : keywords)
            if (strcasecmp(tok_.text.c_str(), k.word) == 0) {
                tok_.kind = k.kind;
                return;
            }
        tok_.kind = Tok::Function;
    }

    // --- tree ---
    int constant(const ScriptValue& v) {
        ExprNode n;
        n.kind = ExprNode::Kind::Const;
        n.constant = v;
        e_.nodes.push_back(n);
        treeDepth_.push_back(1);
        return static_cast<int>(e_.nodes.size() - 1);
    }
    int call(ExprFn fn, const std::vector<int>& args) {
        // The evaluator recurses over the tree: a long chain (1+1+...+1) is as deep as nesting.
        int depth = 1;
        for (int a : args) depth = std::max(depth, treeDepth_[static_cast<size_t>(a)] + 1);
        if (depth > kMaxTreeDepth) fail("expression nested too deeply (more than 1000 operations in a chain)", "", tok_.end);
        ExprNode n;
        n.kind = ExprNode::Kind::Call;
        n.fn = fn;
        n.firstArg = static_cast<int>(e_.args.size());
        n.argCount = static_cast<int>(args.size());
        e_.args.insert(e_.args.end(), args.begin(), args.end());
        e_.nodes.push_back(n);
        treeDepth_.push_back(depth);
        return static_cast<int>(e_.nodes.size() - 1);
    }

    // Binding power of a binary operator token; 0 when the token is not one.
    static int precedence(Tok t) {
        switch (t) {
        case Tok::Or: return 1;
        case Tok::And: return 2;
        case Tok::Is: case Tok::IsNull: case Tok::NotNull: return 4;
        case Tok::Lt: case Tok::Gt: case Tok::Eq: case Tok::Le: case Tok::Ge: case Tok::Ne: return 5;
        case Tok::Pipe: case Tok::Hash: case Tok::Amp: case Tok::Shl: case Tok::Shr: case Tok::Tilde: return 6;
        case Tok::Plus: case Tok::Minus: return 7;
        case Tok::Star: case Tok::Slash: case Tok::Percent: return 8;
        default: return 0;
        }
    }
    static constexpr int kUnary = 9;

    // Nesting is bounded (found by fuzz_script: a thousand open parentheses overflowed the
    // stack). pgbench's bison parser stops at its own stack limit with "memory exhausted".
    static constexpr int kMaxDepth = 256, kMaxTreeDepth = 1000;
    struct Depth {
        int& d;
        explicit Depth(int& depth) : d(depth) { ++d; }
        ~Depth() { --d; }
    };

    int parseExpr(int minPrec) {
        Depth depth(depth_);
        if (depth_ > kMaxDepth) fail("expression nested too deeply (more than 256 levels)", "", tok_.end);
        int left = parsePrefix();
        for (;;) {
            Tok t = tok_.kind;
            int p = precedence(t);
            if (p == 0 || p < minPrec) return left;
            if (t == Tok::Tilde) syntaxError();  // '~' is only a prefix
            advance();
            if (p == 4) {
                left = parseIs(t, left);
                if (precedence(tok_.kind) == 4) syntaxError();  // non-associative
                continue;
            }
            int right = parseExpr(p + 1);
            switch (t) {
            case Tok::Or: left = call(ExprFn::Or, {left, right}); break;
            case Tok::And: left = call(ExprFn::And, {left, right}); break;
            case Tok::Lt: left = call(ExprFn::Lt, {left, right}); break;
            case Tok::Gt: left = call(ExprFn::Lt, {right, left}); break;
            case Tok::Le: left = call(ExprFn::Le, {left, right}); break;
            case Tok::Ge: left = call(ExprFn::Le, {right, left}); break;
            case Tok::Eq: left = call(ExprFn::Eq, {left, right}); break;
            case Tok::Ne: left = call(ExprFn::Ne, {left, right}); break;
            case Tok::Pipe: left = call(ExprFn::BitOr, {left, right}); break;
            case Tok::Hash: left = call(ExprFn::BitXor, {left, right}); break;
            case Tok::Amp: left = call(ExprFn::BitAnd, {left, right}); break;
            case Tok::Shl: left = call(ExprFn::LShift, {left, right}); break;
            case Tok::Shr: left = call(ExprFn::RShift, {left, right}); break;
            case Tok::Plus: left = call(ExprFn::Add, {left, right}); break;
            case Tok::Minus: left = call(ExprFn::Sub, {left, right}); break;
            case Tok::Star: left = call(ExprFn::Mul, {left, right}); break;
            case Tok::Slash: left = call(ExprFn::Div, {left, right}); break;
            case Tok::Percent: left = call(ExprFn::Mod, {left, right}); break;
            default: syntaxError();
            }
            if (p == 5 && precedence(tok_.kind) == 5) syntaxError();  // non-associative
        }
    }

    // After IS / ISNULL / NOTNULL.
    int parseIs(Tok op, int left) {
        if (op == Tok::IsNull) return call(ExprFn::Is, {left, constant(ScriptValue::null())});
        if (op == Tok::NotNull) return call(ExprFn::Not, {call(ExprFn::Is, {left, constant(ScriptValue::null())})});
        bool negate = false;
        if (tok_.kind == Tok::Not) {
            negate = true;
            advance();
        }
        ScriptValue what;
        if (tok_.kind == Tok::Null) what = ScriptValue::null();
        else if (tok_.kind == Tok::True) what = ScriptValue::boolean(true);
        else if (tok_.kind == Tok::False) what = ScriptValue::boolean(false);
        else syntaxError();
        advance();
        int is = call(ExprFn::Is, {left, constant(what)});
        return negate ? call(ExprFn::Not, {is}) : is;
    }

    int parsePrefix() {
        Token t = tok_;
        switch (t.kind) {
        case Tok::LParen: {
            advance();
            int inner = parseExpr(1);
            if (tok_.kind != Tok::RParen) syntaxError();
            advance();
            return inner;
        }
        case Tok::Plus: advance(); return parseExpr(kUnary);
        case Tok::Minus:
            advance();
            if (tok_.kind == Tok::MaxIntPlusOne) {
                advance();
                return constant(ScriptValue::integer(INT64_MIN));
            }
            return call(ExprFn::Sub, {constant(ScriptValue::integer(0)), parseExpr(kUnary)});
        case Tok::Tilde: advance(); return call(ExprFn::BitXor, {constant(ScriptValue::integer(~int64_t{0})), parseExpr(7)});
        case Tok::Not: advance(); return call(ExprFn::Not, {parseExpr(4)});
        case Tok::Null: advance(); return constant(ScriptValue::null());
        case Tok::True: advance(); return constant(ScriptValue::boolean(true));
        case Tok::False: advance(); return constant(ScriptValue::boolean(false));
        case Tok::Int: advance(); return constant(ScriptValue::integer(t.i));
        case Tok::Double: advance(); return constant(ScriptValue::real(t.d));
        case Tok::Variable: {
            advance();
            ExprNode n;
            n.kind = ExprNode::Kind::Var;
            n.var = vars_.slot(t.text);
            e_.nodes.push_back(n);
            treeDepth_.push_back(1);
            return static_cast<int>(e_.nodes.size() - 1);
        }
        case Tok::Function: return parseCall();
        case Tok::Case: return parseCase();
        default: syntaxError();
        }
    }

    int parseCall() {
        Token name = tok_;
        struct Fn {
            const char* name;
            ExprFn fn;
            int nargs;  // -1: one or more; -3: hash (1 or 2); -4: permute (2 or 3)
        };
        static const Fn fns[] = {
            {"abs", ExprFn::Abs, 1},          {"least", ExprFn::Least, -1},    {"greatest", ExprFn::Greatest, -1},
            {"debug", ExprFn::Debug, 1},      {"pi", ExprFn::Pi, 0},           {"sqrt", ExprFn::Sqrt, 1},
            {"ln", ExprFn::Ln, 1},            {"exp", ExprFn::Exp, 1},         {"int", ExprFn::Int, 1},
            {"double", ExprFn::Double, 1},    {"random", ExprFn::Random, 2},   {"random_gaussian", ExprFn::RandomGaussian, 3},
            {"random_exponential", ExprFn::RandomExponential, 3},              {"random_zipfian", ExprFn::RandomZipfian, 3},
            {"pow", ExprFn::Pow, 2},          {"power", ExprFn::Pow, 2},       {"mod", ExprFn::Mod, 2},
            {"hash", ExprFn::HashMurmur2, -3}, {"hash_murmur2", ExprFn::HashMurmur2, -3},
            {"hash_fnv1a", ExprFn::HashFnv1a, -3}, {"permute", ExprFn::Permute, -4}};
        const Fn* found = nullptr;
        for (const auto& f : fns)
            if (strcasecmp(name.text.c_str(), f.name) == 0) found = &f;
        // pgbench reduces the function name before it reads what follows it.
        if (!found) fail("unexpected function name", name.text, name.end);
        advance();
        if (tok_.kind != Tok::LParen) syntaxError();
        advance();
        std::vector<int> args;
        if (tok_.kind != Tok::RParen) {
            args.push_back(parseExpr(1));
            while (tok_.kind == Tok::Comma) {
                advance();
                args.push_back(parseExpr(1));
            }
        }
        if (tok_.kind != Tok::RParen) syntaxError();
        size_t closeEnd = tok_.end;
        int n = static_cast<int>(args.size());
        if (found->nargs == -1 && n == 0) fail("at least one argument expected", found->name, closeEnd);
        // hash() takes one or two: pgbench refuses hash() when it reads the script (TAP bad-hash-1).
        if (found->nargs == -3 && (n < 1 || n > 2)) fail("unexpected number of arguments", found->name, closeEnd);
        if (found->nargs == -4 && (n < 2 || n > 3)) fail("unexpected number of arguments", found->name, closeEnd);
        if (found->nargs >= 0 && n != found->nargs) fail("unexpected number of arguments", found->name, closeEnd);
        if ((found->nargs == -3 && n == 1) || (found->nargs == -4 && n == 2)) {
            // The seed defaults to :default_seed.
            ExprNode v;
            v.kind = ExprNode::Kind::Var;
            v.var = VariableTable::kDefaultSeed;
            e_.nodes.push_back(v);
            treeDepth_.push_back(1);
            args.push_back(static_cast<int>(e_.nodes.size() - 1));
        }
        advance();
        return call(found->fn, args);
    }

    int parseCase() {
        advance();
        std::vector<int> args;
        if (tok_.kind != Tok::When) syntaxError();
        while (tok_.kind == Tok::When) {
            advance();
            args.push_back(parseExpr(1));
            if (tok_.kind != Tok::Then) syntaxError();
            advance();
            args.push_back(parseExpr(1));
        }
        if (tok_.kind == Tok::Else) {
            advance();
            args.push_back(parseExpr(1));
        } else {
            args.push_back(constant(ScriptValue::null()));
        }
        if (tok_.kind != Tok::EndKw) syntaxError();
        advance();
        return call(ExprFn::Case, args);
    }

    const std::string& text_;
    const ExprSource& where_;
    VariableTable& vars_;
    size_t pos_;
    int depth_ = 0;
    std::vector<int> treeDepth_;  // per node: the longest path below it
    Token tok_;
    Expression e_;
};

} // namespace

Expression parseExpression(const std::string& line, size_t start, const ExprSource& where, VariableTable& vars) {
    return Parser(line, start, where, vars).parse();
}

bool Expression::usesVar(int slot) const {
    for (const auto& n : nodes)
        if (n.kind == ExprNode::Kind::Var && n.var == slot) return true;
    return false;
}

} // namespace scalelab
