#pragma once
// The live run's time series (tps, latency percentiles, CPU, disk, server counters), filled
// from samples on the GUI thread, read by the charts. Qt Core only: no chart code here.
#include "load/LoadSpec.h"

#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>

#include <map>
#include <string>
#include <vector>

namespace scalelab::ui {

class Timeline {
public:
    void clear();  // every sample and boundary; the script set stays
    // The runs' script set (SweepProgress::scriptSet): "tprocc" adds the "nopm" series.
    void setScriptSet(std::string scriptSet) { scriptSet_ = std::move(scriptSet); }
    void add(const LoadSample& sample);  // x = the sample's end time in seconds
    void add(const LoadSample& sample, double x);  // x given: a whole sweep's time axis
    // Where a run starts on a whole sweep's axis (the chart marks it).
    void markBoundary(double x) { boundaries_.push_back(x); }
    const std::vector<double>& boundaries() const { return boundaries_; }

    // Names: "tps", "p50", "p95", "p99", "cpu.user", "cpu.system", "cpu.iowait", "cpu.steal",
    // "cpu.idle", "cpu.busy" (100 - idle - iowait - steal), "disk.readMB", "disk.writeMB", "disk.reads", "disk.writes" (per second, all
    // reported disks), "server.commits", "server.logical_reads", and for TPROC-C "nopm" (New-Order
    // commits per minute of each interval).
    QList<QPointF> points(const QString& name, int columns) const;
    bool has(const QString& name) const { return series_.count(name) > 0; }
    double lastX() const { return x_.empty() ? 0 : x_.back(); }
    double maxOf(const QString& name) const;  // the largest value the series has; 0 when none
    // Busy percent of each PU in the last sample, by PU number.
    const std::vector<std::pair<int, double>>& lastPerPu() const { return perPu_; }
    size_t size() const { return x_.size(); }

private:
    void put(const char* name, double value);
    std::vector<double> x_;
    std::map<QString, std::vector<double>> series_;
    std::vector<std::pair<int, double>> perPu_;
    std::vector<double> boundaries_;
    std::string scriptSet_;
};

} // namespace scalelab::ui
