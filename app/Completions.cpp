#include "Completions.h"

#include "util/Error.h"

#include <CLI/CLI.hpp>

#include <map>

namespace scalelab::app {
namespace {

// Values of free-text options that are still a small set (their validators accept patterns).
const std::map<std::string, std::string> kKnownValues = {
    {"placement", "smt-on smt-off cores: pus:"},
    {"metric", "tps latency_mean latency_p95 latency_p99 logical_reads cpu_busy server_cpu nopm tpm"},
    {"error-bars", "ci sd minmax"},
    {"builtin", "tpcb-like simple-update select-only list"},
    {"show-script", "tpcb-like simple-update select-only"},
    {"partition-method", "range hash"},
};

bool visible(const CLI::App* a) { return !a->get_group().empty(); }

// What an option's value is: "files:json", "files:slab", "files:", "dirs", "words:a b c", or
// "" (anything). From its validators as the type name shows them ("TEXT:{a,b}", "TEXT:FILE",
// "TEXT:EXPERIMENT"), then the names above, then its words.
std::string valueKind(const CLI::Option* o) {
    std::string type = o->get_type_name();
    if (size_t open = type.find('{'); open != std::string::npos) {
        std::string words = type.substr(open + 1, type.find('}', open) - open - 1);
        for (char& c : words)
            if (c == ',') c = ' ';
        return "words:" + words;
    }
    for (const auto& l : o->get_lnames())
        if (auto k = kKnownValues.find(l); k != kKnownValues.end()) return "words:" + k->second;
    std::string d = o->get_description();
    if (type.find("EXPERIMENT") != std::string::npos || d.find(".slab") != std::string::npos) return "files:slab";
    if (d.find("plan") != std::string::npos && (type.find("FILE") != std::string::npos || d.find("JSON") != std::string::npos))
        return "files:json";
    if (d.find("irectory") != std::string::npos || d.find("Directory") != std::string::npos) return "dirs";
    if (type.find("FILE") != std::string::npos || d.find(" file") != std::string::npos) return "files:";
    return "";
}

std::string shellQuoted(const std::string& s) {
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

void describe(const CLI::App& app, const std::string& path, std::string& subs, std::string& opts, std::string& values,
              std::string& positionals) {
    std::string mySubs, myOpts;
    for (const auto* s : app.get_subcommands([](const CLI::App* a) { return visible(a); })) mySubs += (mySubs.empty() ? "" : " ") + s->get_name();
    for (const auto* o : app.get_options([](const CLI::Option* o) { return !o->get_group().empty(); })) {
        if (o->get_positional()) {
            std::string kind = valueKind(o);
            if (!kind.empty()) positionals += "    " + shellQuoted(path) + ") echo " + shellQuoted(kind) + " ;;\n";
            continue;
        }
        std::vector<std::string> names;
        for (const auto& s : o->get_snames()) names.push_back("-" + s);
        for (const auto& l : o->get_lnames()) names.push_back("--" + l);
        for (const auto& n : names) myOpts += (myOpts.empty() ? "" : " ") + n;
        if (o->get_items_expected_max() <= 0) continue;
        std::string kind = valueKind(o);
        for (const auto& n : names) values += "    " + shellQuoted(path + "|" + n) + ") echo " + shellQuoted(kind.empty() ? "any" : kind) + " ;;\n";
    }
    subs += "    " + shellQuoted(path) + ") echo " + shellQuoted(mySubs) + " ;;\n";
    opts += "    " + shellQuoted(path) + ") echo " + shellQuoted(myOpts) + " ;;\n";
    for (const auto* s : app.get_subcommands([](const CLI::App* a) { return visible(a); }))
        describe(*s, path.empty() ? s->get_name() : path + " " + s->get_name(), subs, opts, values, positionals);
}

} // namespace

std::string completionScript(const CLI::App& app, const std::string& shell) {
    if (shell != "bash" && shell != "zsh") throw Error("--completion: bash or zsh, not '" + shell + "'");
    std::string subs, opts, values, positionals;
    describe(app, "", subs, opts, values, positionals);
    std::string out;
    if (shell == "zsh") out += "#compdef scalelab\n# zsh runs the bash completion below through bashcompinit.\nautoload -U +X bashcompinit && bashcompinit\n";
    out += "# Completion for scalelab, written by `scalelab --completion " + shell + "` from its option definitions.\n";
    out += "_scalelab_subs() {\n  case \"$1\" in\n" + subs + "  esac\n}\n";
    out += "_scalelab_opts() {\n  case \"$1\" in\n" + opts + "  esac\n}\n";
    out += "_scalelab_value() {\n  case \"$1\" in\n" + values + "    *) echo none ;;\n  esac\n}\n";
    out += "_scalelab_positional() {\n  case \"$1\" in\n" + positionals + "    *) echo files: ;;\n  esac\n}\n";
    out += R"sh(_scalelab_reply() {
  local kind=$1 cur=$2
  case "$kind" in
    words:*) COMPREPLY=($(compgen -W "${kind#words:}" -- "$cur")) ;;
    files:) COMPREPLY=($(compgen -f -- "$cur")) ;;
    files:*) COMPREPLY=($(compgen -d -- "$cur") $(compgen -f -X "!*.${kind#files:}" -- "$cur")) ;;
    dirs) COMPREPLY=($(compgen -d -- "$cur")) ;;
    *) COMPREPLY=() ;;
  esac
}
_scalelab() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=""
  ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
  local path="" i w
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=${COMP_WORDS[i]}
    case " $(_scalelab_subs "$path") " in
      *" $w "*) path=${path:+$path }$w ;;
    esac
  done
  local kind
  kind=$(_scalelab_value "$path|$prev")
  if [[ $kind != none ]]; then
    _scalelab_reply "$kind" "$cur"
    return 0
  fi
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(_scalelab_opts "$path")" -- "$cur"))
    return 0
  fi
  local subs
  subs=$(_scalelab_subs "$path")
  if [[ -n $subs ]]; then
    COMPREPLY=($(compgen -W "$subs" -- "$cur"))
    return 0
  fi
  _scalelab_reply "$(_scalelab_positional "$path")" "$cur"
}
complete -o filenames -F _scalelab scalelab
)sh";
    return out;
}

} // namespace scalelab::app
