#include "models/Timeline.h"

#include "models/Decimate.h"

#include <algorithm>

namespace scalelab::ui {

void Timeline::clear() {
    x_.clear();
    series_.clear();
    perPu_.clear();
    boundaries_.clear();
}

void Timeline::put(const QString& name, double value) {
    auto& v = series_[name];
    v.resize(x_.size() - 1, 0.0);  // a series that starts late is 0 before
    v.push_back(value);
}

void Timeline::add(const LoadSample& s) { add(s, s.endS); }

void Timeline::add(const LoadSample& s, double x) {
    x_.push_back(x);
    put("tps", s.tps);
    put("p50", s.latency.p50Ms);
    put("p95", s.latency.p95Ms);
    put("p99", s.latency.p99Ms);
    if (!s.system) return;
    const SystemSample& m = *s.system;
    const CpuUsage& c = m.cpu.total;
    put("cpu.user", c.user + c.nice);
    put("cpu.system", c.system + c.irq + c.softirq);
    put("cpu.iowait", c.iowait);
    put("cpu.steal", c.steal);
    put("cpu.idle", c.idle);
    put("cpu.busy", c.busy());
    double read = 0, write = 0, reads = 0, writes = 0;
    for (const auto& d : m.disks) read += d.readMBps, write += d.writeMBps, reads += d.readsPerSec, writes += d.writesPerSec;
    put("disk.readMB", read);
    put("disk.writeMB", write);
    put("disk.reads", reads);
    put("disk.writes", writes);
    if (m.server) {
        put("server.commits", m.server->commits);
        put("server.logical_reads", m.server->logicalReads);
    }
    perPu_.clear();
    for (const auto& [pu, usage] : m.cpu.perPu) perPu_.emplace_back(pu, usage.busy());
}

QList<QPointF> Timeline::points(const QString& name, int columns) const {
    auto it = series_.find(name);
    if (it == series_.end() || x_.empty()) return {};
    std::vector<double> y = it->second;
    y.resize(x_.size(), 0.0);
    return decimateMinMax(x_, y, x_.front(), x_.back(), columns);
}

double Timeline::maxOf(const QString& name) const {
    auto it = series_.find(name);
    if (it == series_.end() || it->second.empty()) return 0;
    return *std::max_element(it->second.begin(), it->second.end());
}

} // namespace scalelab::ui
