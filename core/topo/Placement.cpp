#include "topo/Placement.h"

#include "util/Error.h"

#include <algorithm>
#include <cctype>

namespace scalelab {
namespace {

const char* const kForms = "smt-on, smt-off, cores:N, cores:N+smt, or pus:LIST[/LIST] (e.g. pus:0-3/4-7)";

int parseCount(const std::string& text, const std::string& digits) {
    if (digits.empty() || digits.size() > 5 || !std::all_of(digits.begin(), digits.end(), ::isdigit) || std::stoi(digits) == 0)
        throw Error("placement '" + text + "': the number of cores must be a positive integer");
    return std::stoi(digits);
}

} // namespace

PlacementSpec parsePlacement(const std::string& text, bool separate) {
    PlacementSpec s;
    s.separate = separate;
    s.text = text;
    if (text == "smt-on") {
        s.kind = PlacementSpec::Kind::SmtOn;
    } else if (text == "smt-off") {
        s.kind = PlacementSpec::Kind::SmtOff;
    } else if (text.rfind("cores:", 0) == 0) {
        std::string n = text.substr(6);
        bool smt = n.size() > 4 && n.compare(n.size() - 4, 4, "+smt") == 0;
        if (smt) n.resize(n.size() - 4);
        s.kind = smt ? PlacementSpec::Kind::CoresWithSmt : PlacementSpec::Kind::Cores;
        s.cores = parseCount(text, n);
    } else if (text.rfind("pus:", 0) == 0) {
        s.kind = PlacementSpec::Kind::Explicit;
        std::string lists = text.substr(4);
        auto slash = lists.find('/');
        s.serverPus = CpuSet::parse(lists.substr(0, slash));
        if (slash != std::string::npos) s.clientPus = CpuSet::parse(lists.substr(slash + 1));
        if (s.serverPus.empty()) throw Error("placement '" + text + "' gives the server no PU");
        if (slash != std::string::npos && s.clientPus.empty())
            throw Error("placement '" + text + "' gives the load generator no PU");
    } else {
        throw Error("unknown placement '" + text + "': expected " + kForms);
    }
    return s;
}

Placement place(const TopologyInfo& topo, const PlacementSpec& spec) {
    Placement p;
    p.scenario = spec.text + (spec.separate ? " separate" : "");
    CpuSet all = topo.allPus();
    int ncores = static_cast<int>(topo.cores.size());
    switch (spec.kind) {
    case PlacementSpec::Kind::SmtOn: p.server = all; break;
    case PlacementSpec::Kind::SmtOff:
        for (const auto& c : topo.cores) p.server.add(c.pus.front());
        break;
    case PlacementSpec::Kind::Cores:
    case PlacementSpec::Kind::CoresWithSmt:
        if (spec.cores > ncores)
            throw Error("placement " + spec.text + " asks for " + std::to_string(spec.cores) + " cores; " +
                        topo.source + " has " + std::to_string(ncores));
        for (int i = 0; i < spec.cores; ++i) {
            const auto& pus = topo.cores[static_cast<size_t>(i)].pus;
            if (spec.kind == PlacementSpec::Kind::Cores) p.server.add(pus.front());
            else
                for (int pu : pus) p.server.add(pu);
        }
        break;
    case PlacementSpec::Kind::Explicit:
        for (const CpuSet* set : {&spec.serverPus, &spec.clientPus})
            if (!set->isSubsetOf(all))
                throw Error("placement " + spec.text + ": PUs " + (*set - all).toList() + " are not on " + topo.source +
                            " (its PUs: " + all.toList() + ")");
        p.server = spec.serverPus;
        if (!spec.clientPus.empty()) {
            p.client = spec.clientPus;
            return p;
        }
        break;
    }
    if (!spec.separate) {
        p.client = p.server;
        return p;
    }
    p.client = all - topo.withSiblings(p.server);
    if (p.client.empty())
        throw Error("placement " + p.scenario + ": the server's cores (PUs " + topo.withSiblings(p.server).toList() +
                    ") are all of " + topo.source + "'s, so no PU is left for a separate load generator; "
                    "give the server fewer cores (cores:N) or drop 'separate'");
    return p;
}

std::string smtComparisonWarning(const TopologyInfo& topo, bool realSmt) {
    if (topo.smtAvailable()) return "";
    if (topo.smtSwitchedOff()) {
        if (realSmt && topo.smtControl == "off") return "";  // smt-on switches it back on for its runs
        std::string s = "SMT is switched off in the kernel here (smt/control: " + topo.smtControl +
                        "): emulated smt-on and smt-off would run on the same PUs and measure the same thing. ";
        return s + (topo.smtControl == "off"
                        ? "Switch SMT for real (--real-smt, real_smt in a plan), or switch it on first "
                          "(echo on > /sys/devices/system/cpu/smt/control)."
                        : "It is forced off (nosmt=force on the kernel command line): only a boot without it brings "
                          "SMT back.");
    }
    int n = static_cast<int>(topo.cores.size());
    std::string half = std::to_string(std::max(1, n / 2));
    return topo.source + " has no SMT (" + std::to_string(n) + " cores, " + std::to_string(topo.puCount()) +
           " PUs): SMT on and SMT off would run on the same PUs and measure the same thing. "
           "Compare core counts instead, e.g. cores:" + std::to_string(n) + " against cores:" + half + ".";
}

} // namespace scalelab
