#include "ManPages.h"

#include "util/AtomicFile.h"
#include "util/Error.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace scalelab::app {
namespace {

// Text as roff reads it: a backslash is \e, a hyphen is \- (a real minus, so that `man -k` and
// copy-paste keep option names), a line that would begin with . or ' starts with \&.
std::string roff(const std::string& text) {
    std::string out;
    bool lineStart = true;
    for (char c : text) {
        if (lineStart && (c == '.' || c == '\'')) out += "\\&";
        if (c == '\\') out += "\\e";
        else if (c == '-') out += "\\-";
        else out += c;
        lineStart = c == '\n';
    }
    return out;
}

std::string upper(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return s;
}

bool visible(const CLI::App* a) { return !a->get_group().empty(); }

std::vector<const CLI::App*> subcommandsOf(const CLI::App& app) {
    return app.get_subcommands([](const CLI::App* a) { return visible(a); });
}

// "-c, --clients INT": every name of the option, its value's type when it takes one.
std::string optionHead(const CLI::Option* o) {
    std::string head;
    for (const auto& s : o->get_snames()) head += (head.empty() ? "" : ", ") + std::string("\\fB\\-") + roff(s) + "\\fR";
    for (const auto& l : o->get_lnames()) head += (head.empty() ? "" : ", ") + std::string("\\fB\\-\\-") + roff(l) + "\\fR";
    if (o->get_items_expected_max() > 0 && !o->get_type_name().empty()) head += " \\fI" + roff(o->get_type_name()) + "\\fR";
    return head;
}

std::string page(const CLI::App& app, const std::vector<std::string>& path, const std::string& version,
                 const std::vector<std::string>& seeAlso) {
    std::string name = "scalelab";
    std::string words = "scalelab";
    for (size_t i = 1; i < path.size(); ++i) name += "-" + path[i], words += " " + path[i];
    std::string out = ".TH " + upper(roff(name)) + " 1 \"\" \"ScaleLab " + roff(version) + "\" \"ScaleLab Manual\"\n";
    out += ".SH NAME\n" + roff(name) + " \\- " + roff(app.get_description()) + "\n";
    out += ".SH SYNOPSIS\n.B " + roff(words) + "\n";
    auto positionals = app.get_options([](const CLI::Option* o) { return o->get_positional() && !o->get_group().empty(); });
    auto options = app.get_options([](const CLI::Option* o) { return o->nonpositional() && !o->get_group().empty(); });
    if (!options.empty()) out += "[\\fIOPTIONS\\fR]\n";
    for (const auto* p : positionals) {
        std::string n = "\\fI" + roff(upper(p->get_name(true))) + "\\fR";
        out += (p->get_required() ? n : "[" + n + "]") + (p->get_items_expected_max() > 1 ? "..." : "") + "\n";
    }
    auto subs = subcommandsOf(app);
    if (!subs.empty()) out += "\\fICOMMAND\\fR ...\n";
    out += ".SH DESCRIPTION\n" + roff(app.get_description()) + ".\n";
    if (!positionals.empty()) {
        out += ".SH ARGUMENTS\n";
        for (const auto* p : positionals) out += ".TP\n\\fI" + roff(upper(p->get_name(true))) + "\\fR\n" + roff(p->get_description()) + "\n";
    }
    if (!options.empty()) {
        out += ".SH OPTIONS\n";
        for (const auto* o : options) out += ".TP\n" + optionHead(o) + "\n" + roff(o->get_description()) + "\n";
    }
    if (!subs.empty()) {
        out += ".SH COMMANDS\n";
        for (const auto* s : subs)
            out += ".TP\n\\fB" + roff(s->get_name()) + "\\fR\n" + roff(s->get_description()) + " (\\fB" + roff(name) + "\\-" +
                   roff(s->get_name()) + "\\fR(1)).\n";
    }
    out += ".SH SEE ALSO\n";
    for (size_t i = 0; i < seeAlso.size(); ++i) out += "\\fB" + roff(seeAlso[i]) + "\\fR(1)" + (i + 1 < seeAlso.size() ? ",\n" : "\n");
    out += ".PP\nThe documentation in /usr/share/doc/scalelab (README.md and docs/), or docs/ of the source.\n";
    return out;
}

void writeTree(const CLI::App& app, std::vector<std::string> path, const std::string& dir, const std::string& version,
               std::vector<std::string>& written) {
    std::string name = "scalelab";
    for (size_t i = 1; i < path.size(); ++i) name += "-" + path[i];
    std::vector<std::string> seeAlso;
    if (path.size() > 1) {
        std::string parent = "scalelab";
        for (size_t i = 1; i + 1 < path.size(); ++i) parent += "-" + path[i];
        seeAlso.push_back(parent);
    }
    for (const auto* s : subcommandsOf(app)) seeAlso.push_back(name + "-" + s->get_name());
    std::string file = dir + "/" + name + ".1";
    writeFileAtomically(file, page(app, path, version, seeAlso));
    written.push_back(file);
    for (const auto* s : subcommandsOf(app)) {
        auto next = path;
        next.push_back(s->get_name());
        writeTree(*s, next, dir, version, written);
    }
}

} // namespace

std::vector<std::string> writeManPages(const CLI::App& app, const std::string& dir, const std::string& version) {
    std::vector<std::string> written;
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw Error("cannot create " + dir + ": " + ec.message());
    writeTree(app, {"scalelab"}, dir, version, written);
    return written;
}

} // namespace scalelab::app
