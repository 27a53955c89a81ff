#include "models/Timeline.h"

#include "models/Decimate.h"

#include "load/data/TpccResults.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace scalelab::ui {
namespace {
constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();
}

void Timeline::clear() {
    x_.clear();
    series_.clear();
    perPu_.clear();
    boundaries_.clear();
}

// A series without a value at some sample (it starts late: no system sample yet; the sampler
// missed one) has none there, NaN, never 0: points() leaves those samples out.
void Timeline::put(const char* name, double value) {
    auto& v = series_[QString::fromLatin1(name)];
    v.resize(x_.size() - 1, kNoValue);
    v.push_back(value);
}

void Timeline::add(const LoadSample& s) { add(s, s.endS); }

void Timeline::add(const LoadSample& s, double x) {
    x_.push_back(x);
    put("tps", s.tps);
    put("p50", s.latency.p50Ms);
    put("p95", s.latency.p95Ms);
    put("p99", s.latency.p99Ms);
    if (auto nopm = tpcc::sampleNewOrdersPerMinute(scriptSet_, s)) put("nopm", *nopm);
    if (!s.system) return;
    const SystemSample& m = *s.system;
    const CpuUsage& c = m.cpu.total;
    // A figure the sampler could not read is no point at all, never a 0 (issue 60.5).
    if (m.cpuMeasured()) {
        put("cpu.user", c.user + c.nice);
        put("cpu.system", c.system + c.irq + c.softirq);
        put("cpu.iowait", c.iowait);
        put("cpu.steal", c.steal);
        put("cpu.idle", c.idle);
        put("cpu.busy", c.busy());
    }
    double read = 0, write = 0, reads = 0, writes = 0;
    for (const auto& d : m.disks) read += d.readMBps, write += d.writeMBps, reads += d.readsPerSec, writes += d.writesPerSec;
    if (!m.missing.count("disks")) {
        put("disk.readMB", read);
        put("disk.writeMB", write);
        put("disk.reads", reads);
        put("disk.writes", writes);
    }
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
    std::vector<double> x, y;
    for (size_t i = 0; i < it->second.size(); ++i)
        if (!std::isnan(it->second[i])) x.push_back(x_[i]), y.push_back(it->second[i]);
    if (x.empty()) return {};
    return decimateMinMax(x, y, x.front(), x.back(), columns);
}

double Timeline::maxOf(const QString& name) const {
    auto it = series_.find(name);
    double most = 0;
    if (it != series_.end())
        for (double v : it->second)
            if (!std::isnan(v)) most = std::max(most, v);
    return most;
}

} // namespace scalelab::ui
