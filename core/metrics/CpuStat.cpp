#include "metrics/CpuStat.h"

#include <sstream>

namespace scalelab {

CpuStatSnapshot parseCpuStat(const std::string& text) {
    CpuStatSnapshot snap;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (line.compare(0, 3, "cpu") != 0) continue;
        std::istringstream fields(line);
        std::string name;
        CpuTimes t;
        fields >> name >> t.user >> t.nice >> t.system >> t.idle;
        // Columns added by later kernels: iowait, irq, softirq (2.6), steal (2.6.11), guest...
        if (!(fields >> t.iowait)) t.iowait = 0;
        if (!(fields >> t.irq)) t.irq = 0;
        if (!(fields >> t.softirq)) t.softirq = 0;
        if (!(fields >> t.steal)) t.steal = 0;
        if (name == "cpu") {
            snap.total = t;
            continue;
        }
        // "cpuN": anything else starting with "cpu" is not a PU line (found by the fuzzer: a
        // stray line made std::stoi throw out of the metrics thread).
        std::string digits = name.substr(3);
        if (digits.empty() || digits.size() > 6 || digits.find_first_not_of("0123456789") != std::string::npos) continue;
        snap.perPu.emplace_back(std::stoi(digits), t);
    }
    return snap;
}

CpuUsage cpuUsageBetween(const CpuTimes& a, const CpuTimes& b) {
    auto d = [](uint64_t before, uint64_t after) { return after > before ? static_cast<double>(after - before) : 0.0; };
    double user = d(a.user, b.user), nice = d(a.nice, b.nice), system = d(a.system, b.system), idle = d(a.idle, b.idle),
           iowait = d(a.iowait, b.iowait), irq = d(a.irq, b.irq), softirq = d(a.softirq, b.softirq),
           steal = d(a.steal, b.steal);
    double total = user + nice + system + idle + iowait + irq + softirq + steal;
    CpuUsage u;
    if (total <= 0) return u;
    auto pct = [&](double x) { return 100.0 * x / total; };
    u.user = pct(user);
    u.nice = pct(nice);
    u.system = pct(system);
    u.idle = pct(idle);
    u.iowait = pct(iowait);
    u.irq = pct(irq);
    u.softirq = pct(softirq);
    u.steal = pct(steal);
    return u;
}

CpuSample cpuBetween(const CpuStatSnapshot& before, const CpuStatSnapshot& after) {
    CpuSample s;
    s.total = cpuUsageBetween(before.total, after.total);
    for (const auto& [pu, times] : after.perPu)
        for (const auto& [oldPu, oldTimes] : before.perPu)
            if (oldPu == pu) s.perPu.emplace_back(pu, cpuUsageBetween(oldTimes, times));
    return s;
}

} // namespace scalelab
