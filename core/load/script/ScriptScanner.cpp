#include "load/script/ScriptScanner.h"

#include <cctype>
#include <strings.h>

namespace scalelab {
namespace {

bool identStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || static_cast<unsigned char>(c) >= 0x80; }
bool identCont(char c) { return identStart(c) || std::isdigit(static_cast<unsigned char>(c)) || c == '$'; }
bool dollarCont(char c) { return identStart(c) || std::isdigit(static_cast<unsigned char>(c)); }

class Scanner {
public:
    explicit Scanner(const std::string& t) : t_(t) {}

    std::vector<ScriptPiece> run() {
        while (i_ < t_.size()) step();
        flushSql();
        return std::move(out_);
    }

private:
    char at(size_t k) const { return k < t_.size() ? t_[k] : '\0'; }
    void move(size_t count) {  // consume without keeping
        for (size_t k = 0; k < count && i_ < t_.size(); ++k, ++i_) {
            if (t_[i_] == '\n') {
                ++line_;
                col_ = 1;
            } else {
                ++col_;
            }
        }
    }
    void keep(size_t count) {  // consume into the current command
        if (buf_.empty()) {
            bufLine_ = line_;
            bufCol_ = col_;
        }
        buf_.append(t_, i_, count);
        move(count);
    }

    void step() {
        char c = t_[i_];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            if (buf_.empty()) move(1);
            else keep(1);
            return;
        }
        if (c == '-' && at(i_ + 1) == '-') {
            size_t end = t_.find('\n', i_);
            size_t len = (end == std::string::npos ? t_.size() : end) - i_;
            if (buf_.empty()) move(len);
            else keep(len);
            return;
        }
        if (c == '/' && at(i_ + 1) == '*') return blockComment();
        if (c == '\'') return quoted('\'', false);
        if (c == '"') return quoted('"', false);
        if (c == '$' && dollarQuote()) return;
        if (c == '\\') {
            if (at(i_ + 1) == ';' || at(i_ + 1) == ':') {
                if (at(i_ + 1) == ';') identifiers_ = 0;
                move(1);
                keep(1);
                return;
            }
            return meta();
        }
        if (c == '(') ++parens_;
        if (c == ')' && parens_ > 0) --parens_;
        if (c == ';') {
            keep(1);
            if (parens_ == 0 && begins_ == 0) flushSql();
            return;
        }
        if (identStart(c)) return identifier();
        keep(1);
    }

    void blockComment() {  // nested, as PostgreSQL's
        size_t k = i_ + 2;
        int depth = 1;
        while (k < t_.size() && depth > 0) {
            if (t_[k] == '/' && at(k + 1) == '*') {
                ++depth;
                k += 2;
            } else if (t_[k] == '*' && at(k + 1) == '/') {
                --depth;
                k += 2;
            } else {
                ++k;
            }
        }
        keep(k - i_);
    }

    // '...' ('' inside), E'...' (backslash escapes too), "..." ("" inside). An unterminated
    // quote runs to the end of the script, as psql's lexer lets it.
    void quoted(char q, bool escapes) {
        size_t k = i_ + 1;
        while (k < t_.size()) {
            if (escapes && t_[k] == '\\') {
                k += 2;
                continue;
            }
            if (t_[k] == q) {
                if (at(k + 1) == q) {
                    k += 2;
                    continue;
                }
                ++k;
                break;
            }
            ++k;
        }
        keep(std::min(k, t_.size()) - i_);
    }

    bool dollarQuote() {
        if (i_ > 0 && identCont(t_[i_ - 1])) return false;  // part of an identifier
        size_t k = i_ + 1;
        if (identStart(at(k)) && at(k) != '$') {
            ++k;
            while (dollarCont(at(k))) ++k;
        }
        if (at(k) != '$') return false;
        std::string tag = t_.substr(i_, k + 1 - i_);
        size_t close = t_.find(tag, k + 1);
        size_t end = close == std::string::npos ? t_.size() : close + tag.size();
        keep(end - i_);
        return true;
    }

    // Words decide whether a ';' ends the command: inside CREATE [OR REPLACE]
    // FUNCTION|PROCEDURE, BEGIN ... END (and CASE ... END within it) nest, as psqlscan.l tracks.
    void identifier() {
        size_t k = i_ + 1;
        while (k < t_.size() && identCont(t_[k])) ++k;
        std::string word = t_.substr(i_, k - i_);
        if ((word == "e" || word == "E") && at(k) == '\'') {
            keep(1);
            return quoted('\'', true);
        }
        if (identifiers_ == 0) initials_[0] = initials_[1] = initials_[2] = initials_[3] = 0;
        for (const char* w : {"create", "function", "procedure", "or", "replace"})
            if (strcasecmp(word.c_str(), w) == 0 && identifiers_ < 4)
                initials_[identifiers_] = static_cast<char>(std::tolower(static_cast<unsigned char>(word[0])));
        ++identifiers_;
        bool routine = initials_[0] == 'c' &&
                       (initials_[1] == 'f' || initials_[1] == 'p' ||
                        (initials_[1] == 'o' && initials_[2] == 'r' && (initials_[3] == 'f' || initials_[3] == 'p')));
        if (routine && parens_ == 0) {
            if (strcasecmp(word.c_str(), "begin") == 0) ++begins_;
            else if (strcasecmp(word.c_str(), "case") == 0 && begins_ >= 1) ++begins_;
            else if (strcasecmp(word.c_str(), "end") == 0 && begins_ > 0) --begins_;
        }
        keep(k - i_);
    }

    void meta() {
        flushSql();
        ScriptPiece p;
        p.kind = ScriptPiece::Kind::Meta;
        p.line = line_;
        p.column = col_;
        size_t k = i_;
        while (k < t_.size() && t_[k] != '\n') {
            if (t_[k] == '\\' && at(k + 1) == '\n') {
                k += 2;
                continue;
            }
            if (t_[k] == '\\' && at(k + 1) == '\r' && at(k + 2) == '\n') {
                k += 3;
                continue;
            }
            ++k;
        }
        p.text = t_.substr(i_, k - i_);
        if (!p.text.empty() && p.text.back() == '\r') p.text.pop_back();
        move(k - i_);
        out_.push_back(std::move(p));
    }

    void flushSql() {
        if (!buf_.empty()) {
            ScriptPiece p;
            p.kind = ScriptPiece::Kind::Sql;
            p.text = std::move(buf_);
            p.line = bufLine_;
            p.column = bufCol_;
            out_.push_back(std::move(p));
        }
        buf_.clear();
        parens_ = begins_ = identifiers_ = 0;
    }

    const std::string& t_;
    size_t i_ = 0;
    int line_ = 1, col_ = 1;
    std::string buf_;
    int bufLine_ = 1, bufCol_ = 1;
    int parens_ = 0, begins_ = 0, identifiers_ = 0;
    char initials_[4] = {0, 0, 0, 0};
    std::vector<ScriptPiece> out_;
};

} // namespace

std::vector<ScriptPiece> scanScript(const std::string& text) { return Scanner(text).run(); }

} // namespace scalelab
