#include "topo/SmtControl.h"

#include "util/Error.h"

#include <unistd.h>

#include <fstream>

namespace scalelab {

SmtControl::SmtControl(std::filesystem::path controlFile) : path_(std::move(controlFile)) {}

std::optional<std::string> SmtControl::state() const {
    std::ifstream in(path_);
    std::string s;
    if (!(in >> s)) return std::nullopt;
    return s;
}

std::string SmtControl::whyNotSwitchable() const {
    auto s = state();
    if (!s) return "the kernel offers no SMT control (" + path_.string() + " is missing)";
    if (*s != "on" && *s != "off") return "SMT is '" + *s + "' here and cannot be switched";
    if (access(path_.c_str(), W_OK) != 0) return "switching SMT needs root (" + path_.string() + " is not writable)";
    return "";
}

void SmtControl::set(bool on) const {
    const char* want = on ? "on" : "off";
    {
        std::ofstream out(path_);
        out << want;
        out.flush();
        if (!out) throw Error("cannot write '" + std::string(want) + "' to " + path_.string());
    }
    auto now = state();
    if (!now || *now != want)
        throw Error("asked the kernel to switch SMT " + std::string(want) + ", but " + path_.string() + " says '" +
                    now.value_or("nothing") + "'");
}

} // namespace scalelab
