#pragma once
// A cursor over one line of text, for the parsers of untrusted input (imported pgbench logs,
// plan strings). Why not std::regex: libstdc++'s matcher recurses once per character, so a
// long line overflows the stack (exit 139, issue 31.9). Every step here is a
// loop: linear in the line's length, with constant stack. (Checked: lines of 40,000 and 80,000
// characters crashed it.)
#include <cctype>
#include <string_view>

namespace scalelab {

struct Scan {
    std::string_view rest;

    explicit Scan(std::string_view text) : rest(text) {}

    bool done() const { return rest.empty(); }
    // Takes `word` if the text goes on with it.
    bool literal(std::string_view word) {
        if (rest.substr(0, word.size()) != word) return false;
        rest.remove_prefix(word.size());
        return true;
    }
    // Takes the longest run of characters for which `pred` holds (possibly none).
    template <class Pred>
    std::string_view span(Pred pred) {
        size_t n = 0;
        while (n < rest.size() && pred(static_cast<unsigned char>(rest[n]))) ++n;
        std::string_view taken = rest.substr(0, n);
        rest.remove_prefix(n);
        return taken;
    }
    std::string_view spaces() { return span([](unsigned char c) { return std::isspace(c) != 0; }); }
    std::string_view digits() { return span([](unsigned char c) { return std::isdigit(c) != 0; }); }
    // Takes one of `chars`, returning it, or 0 where the text does not go on with one.
    char oneOf(std::string_view chars) {
        if (rest.empty() || chars.find(rest.front()) == std::string_view::npos) return 0;
        char c = rest.front();
        rest.remove_prefix(1);
        return c;
    }
    // True when only white space is left.
    bool atEndButSpaces() const {
        for (char c : rest)
            if (!std::isspace(static_cast<unsigned char>(c))) return false;
        return true;
    }
};

} // namespace scalelab
