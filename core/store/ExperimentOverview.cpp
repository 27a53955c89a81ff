#include "store/ExperimentOverview.h"

#include "metrics/MetricsMachine.h"
#include "util/Format.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <map>
#include <set>

namespace scalelab {
namespace {

std::string text(const nlohmann::json& j, const char* key) {
    if (!j.is_object() || !j.contains(key) || j[key].is_null()) return {};
    const auto& v = j[key];
    return v.is_string() ? v.get<std::string>() : v.dump();
}

std::string yesNo(const nlohmann::json& j, const char* key) {
    if (!j.is_object() || !j.contains(key) || !j[key].is_boolean()) return "unknown";
    return j[key].get<bool>() ? "yes" : "no";
}

void add(std::vector<OverviewItem>& out, const std::string& section, const std::string& name, const std::string& value) {
    if (!value.empty()) out.push_back({section, name, value});
}

void describeMachine(std::vector<OverviewItem>& out, const std::string& section, const nlohmann::json& m) {
    add(out, section, "Host", text(m, "hostname"));
    add(out, section, "CPU", text(m, "cpu_model"));
    add(out, section, "Topology", text(m, "topology"));
    // "present" (online or switched off in the kernel) came in with the real switches; older
    // files have only "available" (siblings online).
    std::string smt = m.contains("smt_present") ? "present: " + yesNo(m, "smt_present") + ", " : "";
    smt += "available: " + yesNo(m, "smt_available") + ", active: " + yesNo(m, "smt_active");
    if (auto c = text(m, "smt_control"); !c.empty()) smt += ", kernel control: " + c;
    add(out, section, "SMT", smt);
    add(out, section, "NUMA nodes", text(m, "numa_nodes"));
    add(out, section, "Kernel", text(m, "kernel"));
    add(out, section, "Architecture", text(m, "arch"));
    if (m.contains("memory_bytes") && m["memory_bytes"].is_number()) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.1f GiB", m["memory_bytes"].get<double>() / (1024.0 * 1024 * 1024));
        add(out, section, "Memory", buf);
    }
    add(out, section, "Frequency governor", text(m, "cpufreq_governor"));
}

// A setting's value in its unit as a reader thinks of it (issue 32.11): shared_buffers 16384 in
// units of 8kB is "128 MB (16384 x 8kB)", as PostgreSQL's SHOW would say 128MB; a time keeps its
// unit ("200 ms"). A value that is not a whole number keeps the old form.
std::string withUnit(const std::string& value, const std::string& unit) {
    char* end = nullptr;
    long long n = std::strtoll(value.c_str(), &end, 10);
    if (value.empty() || *end != '\0') return value + " (unit " + unit + ")";
    size_t digits = unit.find_first_not_of("0123456789");
    double scale = digits == 0 ? 1 : std::stod(unit.substr(0, digits));
    std::string base = digits == std::string::npos ? std::string() : unit.substr(digits);
    static const std::pair<const char*, double> kBytes[] = {
        {"B", 1.0}, {"kB", 1024.0}, {"MB", 1048576.0}, {"GB", 1073741824.0}, {"TB", 1099511627776.0}};
    for (const auto& [name, size] : kBytes) {
        if (base != name) continue;
        double bytes = static_cast<double>(n) * scale * size;
        std::string shown = std::to_string(n) + " B";
        for (const auto& [bigger, each] : kBytes)  // the largest unit that divides it evenly, as SHOW
            if (bytes >= each && std::fmod(bytes, each) == 0) shown = formatNumber("%.0f", bytes / each) + " " + bigger;
        return digits > 0 ? shown + " (" + value + " x " + unit + ")" : shown;  // "8kB": say the pages too
    }
    return value + " " + unit;  // ms, s, min: as written
}

void describeServer(std::vector<OverviewItem>& out, const std::string& section, const nlohmann::json& s) {
    add(out, section, "Version", text(s, "version"));
    if (!s.is_object() || !s.contains("non_default_settings")) return;
    for (const auto& [name, v] : s["non_default_settings"].items()) {
        std::string value = text(v, "value");
        if (value.empty()) value = "'' (empty)";
        if (auto unit = text(v, "unit"); !unit.empty() && value != "'' (empty)") value = withUnit(value, unit);
        if (auto source = text(v, "source"); !source.empty()) value += ", from " + source;
        add(out, section, name, value);
    }
}

void describeScripts(std::vector<OverviewItem>& out, const std::string& section, const nlohmann::json& s) {
    if (!s.is_object()) return;
    if (s.contains("scripts"))
        for (const auto& script : s["scripts"]) {
            std::string name = text(script, "name");
            if (auto w = text(script, "weight"); !w.empty()) name += " (weight " + w + ")";
            add(out, section, name, text(script, "text"));
        }
    if (s.contains("define"))
        for (const auto& [name, v] : s["define"].items()) add(out, section, "-D " + name, v.is_string() ? v.get<std::string>() : v.dump());
}

} // namespace

std::string metricsMachinesOf(const std::vector<RunRecord>& runs) {
    std::vector<std::string> seen;
    for (const auto& r : runs)
        if (auto m = metricsMachineFromJson(r.detail)) {
            std::string d = m->describe();
            if (std::find(seen.begin(), seen.end(), d) == seen.end()) seen.push_back(d);
        }
    std::string out;
    for (const auto& d : seen) out += (out.empty() ? "" : "; ") + d;
    return out;
}

std::vector<std::string> experimentSummary(const std::vector<nlohmann::json>& provenance, const std::vector<RunRecord>& runs) {
    std::vector<std::string> lines;
    auto once = [&](const std::string& line) {
        if (std::find(lines.begin(), lines.end(), line) == lines.end()) lines.push_back(line);
    };
    auto joined = [](const std::vector<std::string>& parts) {
        std::string out;
        for (const auto& p : parts)
            if (!p.empty()) out += (out.empty() ? "" : ", ") + p;
        return out;
    };
    auto machine = [&](const char* name, const nlohmann::json& m) {
        if (!m.is_object()) return;
        std::string memory;
        if (m.contains("memory_bytes") && m["memory_bytes"].is_number())
            memory = formatNumber("%.1f GiB", m["memory_bytes"].get<double>() / (1024.0 * 1024 * 1024)) + " memory";
        // On or off where the machine has SMT at all (a topology "(no SMT)" says the rest).
        bool hasSmt = (m.contains("smt_present") && m["smt_present"] == true) || (m.contains("smt_available") && m["smt_available"] == true);
        std::string smt = hasSmt && m.contains("smt_active") && m["smt_active"].is_boolean()
                              ? std::string("SMT ") + (m["smt_active"].get<bool>() ? "on" : "off")
                              : "";
        std::string line = joined({text(m, "hostname"), text(m, "cpu_model"), text(m, "topology"), smt, text(m, "kernel"), memory});
        if (!line.empty()) once(std::string(name) + ": " + line);
    };
    for (const auto& p : provenance) {
        if (!p.is_object()) continue;
        machine("Machine", p.contains("machine") ? p["machine"] : nlohmann::json());
        if (p.contains("server_machine")) machine("Server machine", p["server_machine"]);
        if (p.contains("server") && p["server"].is_object()) {
            const auto& srv = p["server"];
            std::vector<std::string> settings;
            // Settings about where it listens, locale and time zone are left out: they do not
            // bear on a result (the Overview and the report's provenance have them all).
            static const std::set<std::string> kNotAboutPerformance = {
                "DateStyle", "TimeZone", "log_timezone", "lc_messages", "lc_monetary", "lc_numeric", "lc_time",
                "default_text_search_config", "dynamic_shared_memory_type", "port", "unix_socket_directories", "listen_addresses", "client_encoding",
                "application_name", "log_line_prefix", "logging_collector", "log_destination", "log_directory", "log_filename"};
            if (srv.contains("non_default_settings") && srv["non_default_settings"].is_object())
                for (const auto& [name, v] : srv["non_default_settings"].items()) {
                    if (kNotAboutPerformance.count(name)) continue;
                    std::string value = text(v, "value");
                    if (auto unit = text(v, "unit"); !unit.empty() && !value.empty()) value = withUnit(value, unit);
                    settings.push_back(name + " " + (value.empty() ? "''" : value));
                }
            std::string version = text(srv, "version");  // "PostgreSQL 15.18 (Debian ...) on x86_64-...": up to " on "
            if (size_t on = version.find(" on "); on != std::string::npos) version.resize(on);
            if (!version.empty() || !settings.empty())
                once("PostgreSQL: " + version + (settings.empty() ? "" : (version.empty() ? "" : "; ") + std::string("non-default: ") + joined(settings)));
        }
        if (p.contains("scripts") && p["scripts"].is_object() && p["scripts"].contains("scripts")) {
            std::vector<std::string> names;
            for (const auto& script : p["scripts"]["scripts"]) {
                std::string name = text(script, "name");
                if (auto w = text(script, "weight"); !w.empty() && w != "1") name += " @" + w;
                names.push_back(name);
            }
            if (!names.empty()) once("Workload: " + joined(names));
        }
    }
    // The runs the figures stand on.
    std::vector<double> lengths;
    std::map<std::pair<std::string, int>, int> rounds;
    std::set<int> clients;
    int counted = 0;
    for (const auto& r : runs) {
        if (!countsInStatistics(r)) continue;
        ++counted;
        lengths.push_back(r.measuredSeconds);
        ++rounds[{r.series, r.clients}];
        clients.insert(r.clients);
    }
    if (counted > 0) {
        std::sort(lengths.begin(), lengths.end());
        int fewest = counted, most = 0;
        for (const auto& [point, n] : rounds) fewest = std::min(fewest, n), most = std::max(most, n);
        std::string clientList;
        for (int c : clients) clientList += (clientList.empty() ? "" : ", ") + std::to_string(c);
        double median = lengths[lengths.size() / 2];  // 0: not known (an import without it)
        once("Runs: " + std::to_string(counted) + " counted of " + std::to_string(runs.size()) + "; " +
             (median > 0 ? formatNumber("%.3g", median) + " s measured each (median, warm-up not counted); " : std::string()) +
             (fewest == most ? std::to_string(most) : std::to_string(fewest) + "-" + std::to_string(most)) +
             (most == 1 ? " round" : " rounds") + " per point; clients " + clientList);
    }
    if (std::string m = metricsMachinesOf(runs); !m.empty()) once("CPU and disk figures of: " + m);
    return lines;
}

std::vector<OverviewItem> experimentOverview(ExperimentStore& store) {
    std::vector<OverviewItem> out;
    const std::string ex = "Experiment";
    add(out, ex, "File", store.path());
    add(out, ex, "Created", store.meta("created_at") + (store.meta("created_by").empty() ? "" : " by " + store.meta("created_by")));
    std::string series;
    for (const auto& s : store.series()) series += (series.empty() ? "" : ", ") + s.label;
    add(out, ex, "Series", series.empty() ? "none yet" : series);
    std::map<std::string, int> byStatus;
    int excluded = 0, counted = 0, notes = 0;
    auto runs = store.runs();
    for (const auto& r : runs) {
        ++byStatus[runStatusName(r.status)];
        excluded += r.excluded;
        counted += countsInStatistics(r);
        notes += !r.note.empty();
    }
    std::string runText = std::to_string(runs.size()) + (runs.size() == 1 ? " run" : " runs");
    for (const auto& [status, n] : byStatus) runText += ", " + std::to_string(n) + " " + status;
    runText += "; " + std::to_string(counted) + " counted, " + std::to_string(excluded) + " excluded";
    add(out, ex, "Runs", runText);
    add(out, ex, "CPU and disk figures of", metricsMachinesOf(runs));
    if (notes) add(out, ex, "Run notes", std::to_string(notes) + (notes == 1 ? " run has a note" : " runs have a note"));
    add(out, ex, "Note", store.note());

    auto records = store.provenanceRecords();
    if (records.empty()) add(out, "Machine", "Provenance", "none recorded (imported runs, or a sweep that measured nothing)");
    nlohmann::json previous;
    for (size_t i = 0; i < records.size(); ++i) {
        const nlohmann::json& j = records[i].json;
        std::string suffix = i == 0 ? "" : " (session " + std::to_string(i + 1) + ", " + records[i].takenAt + ")";
        auto part = [&](const char* key) { return j.contains(key) ? j[key] : nlohmann::json(); };
        auto changed = [&](const char* key) { return i == 0 || !previous.contains(key) || previous[key] != part(key); };
        if (i == 0) add(out, ex, "Measured from", records[i].takenAt);
        if (changed("machine")) describeMachine(out, "Machine" + suffix, part("machine"));
        if (changed("server_machine") && j.contains("server_machine"))  // a metrics host's own description
            describeMachine(out, "Server machine " + text(part("server_machine"), "metrics_host") + suffix, part("server_machine"));
        if (changed("server")) describeServer(out, "PostgreSQL" + suffix, part("server"));
        if (changed("statements") && part("statements").is_string())
            add(out, "PostgreSQL" + suffix, "Statements", part("statements").get<std::string>());
        if (changed("scripts")) describeScripts(out, "Scripts" + suffix, part("scripts"));
        if (changed("machine")) {
            const auto m = part("machine");
            add(out, "ScaleLab" + suffix, "Version", text(m, "scalelab"));
            if (m.is_object() && m.contains("libraries"))
                for (const auto& [name, v] : m["libraries"].items()) add(out, "ScaleLab" + suffix, name, v.get<std::string>());
        }
        previous = j;
    }
    if (auto plan = store.plan()) {
        add(out, "Plan", "Seed", std::to_string(plan->second));
        add(out, "Plan", "JSON", plan->first.dump(2));
    }
    return out;
}

} // namespace scalelab
