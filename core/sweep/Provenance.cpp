#include "sweep/Provenance.h"

#include "topo/Topology.h"
#include "util/Error.h"
#include "util/Versions.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <fstream>
#include <pqxx/pqxx>

namespace scalelab {
namespace {

std::string firstLineOfFile(const std::string& path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

} // namespace

nlohmann::json machineProvenance() {
    nlohmann::json j;
    Topology topo = Topology::live();
    const TopologyInfo& t = topo.info();
    j["topology"] = t.summary();
    j["cpu_model"] = t.cpuModel;
    j["packages"] = t.packages;
    j["cores"] = t.cores.size();
    j["pus"] = t.puCount();
    // Each core's package and PUs: a metrics host's Live page draws its PUs with their siblings.
    j["core_pus"] = nlohmann::json::array();
    for (const auto& c : t.cores) j["core_pus"].push_back({c.package, c.pus});
    j["numa_nodes"] = t.numaNodes;
    j["smt_available"] = t.smtAvailable();  // siblings online
    j["smt_present"] = t.smtPresent();      // online, or switched off in the kernel
    j["smt_control"] = t.smtControl;  // the live topology read it
    std::string smtActive = firstLineOfFile("/sys/devices/system/cpu/smt/active");
    j["smt_active"] = smtActive.empty() ? nlohmann::json() : nlohmann::json(smtActive == "1");
    utsname u{};
    if (uname(&u) == 0) {
        j["kernel"] = std::string(u.sysname) + " " + u.release + " " + u.version;
        j["hostname"] = u.nodename;
        j["arch"] = u.machine;
    }
    j["memory_bytes"] = static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
    std::string governor = firstLineOfFile("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
    j["cpufreq_governor"] = governor.empty() ? "unknown (no cpufreq)" : governor;
    j["scalelab"] = scalelabVersion();
    for (const auto& [name, version] : libraryVersions()) j["libraries"][name] = version;
    return j;
}

nlohmann::json serverProvenance(const std::string& conninfo) {
    try {
        pqxx::connection c(conninfo);
        pqxx::nontransaction tx(c);
        nlohmann::json j;
        j["version"] = tx.exec("SELECT version()")[0][0].c_str();
        j["server_version_num"] = tx.exec("SHOW server_version_num")[0][0].as<int>();
        nlohmann::json settings = nlohmann::json::object();
        for (const auto& row : tx.exec("SELECT name, setting, coalesce(unit, ''), source FROM pg_settings "
                                       "WHERE source NOT IN ('default', 'override', 'client', 'session') ORDER BY name"))
            settings[row[0].c_str()] = {{"value", row[1].c_str()}, {"unit", row[2].c_str()}, {"source", row[3].c_str()}};
        j["non_default_settings"] = settings;
        return j;
    } catch (const pqxx::failure& e) {
        throw Error(std::string("cannot read the server's provenance: ") + e.what());
    }
}

} // namespace scalelab

namespace scalelab {

nlohmann::json scriptProvenance(const Workload& workload) {
    nlohmann::json scripts = nlohmann::json::array();
    if (workload.replay)
        scripts.push_back({{"name", workload.replaySource}, {"replay", true}, {"text", workload.replayFileText}});
    else
        for (const auto& s : workload.scripts)
        scripts.push_back({{"name", s.name}, {"weight", s.weight}, {"text", s.text}});
    nlohmann::json defines = nlohmann::json::object();
    for (const auto& d : workload.defines()) defines[workload.vars.name(d.slot)] = d.value;
    return {{"scripts", scripts}, {"define", defines}};
}

} // namespace scalelab
