#include "live/MetricsExposition.h"

#include "load/data/TpccResults.h"
#include "util/Versions.h"

#include <charconv>
#include <cmath>
#include <utility>
#include <vector>

namespace scalelab {
namespace {

using Labels = std::vector<std::pair<std::string, std::string>>;

std::string number(double v) {
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v);  // the shortest text that reads back the same
    return std::string(buf, r.ptr);
}

// One metric family: its header only when it has a sample (a family with nothing measured is
// left out whole), the sample names each format wants.
class Writer {
public:
    explicit Writer(ExpositionFormat f) : om_(f == ExpositionFormat::OpenMetrics) {}

    void family(std::string name, std::string type, std::string help, std::string unit = {}) {
        flush();
        name_ = std::move(name);
        type_ = std::move(type);
        help_ = std::move(help);
        unit_ = std::move(unit);
    }
    void sample(const Labels& labels, double v) {
        if (!std::isfinite(v)) return;  // missing, never written as a number it is not
        line(labels, number(v));
    }
    void count(const Labels& labels, uint64_t v) { line(labels, std::to_string(v)); }
    std::string finish() {
        flush();
        if (om_) out_ += "# EOF\n";
        return std::move(out_);
    }

private:
    std::string sampleName() const {
        if (type_ == "counter") return name_ + "_total";
        if (type_ == "info") return name_ + "_info";
        return name_;
    }
    void line(const Labels& labels, const std::string& value) {
        samples_ += sampleName();
        bool any = false;
        for (const auto& [k, v] : labels) {
            if (v.empty()) continue;  // Prometheus reads an empty label as no label
            samples_ += any ? "," : "{";
            samples_ += k + "=\"" + escapeLabelValue(v) + "\"";
            any = true;
        }
        if (any) samples_ += "}";
        samples_ += " " + value + "\n";
    }
    void flush() {
        if (samples_.empty()) return;
        // The Prometheus text format names a family by its samples' name and knows no info type.
        std::string header = om_ ? name_ : sampleName();
        std::string type = !om_ && type_ == "info" ? "gauge" : type_;
        out_ += "# TYPE " + header + " " + type + "\n";
        if (om_ && !unit_.empty()) out_ += "# UNIT " + header + " " + unit_ + "\n";
        out_ += "# HELP " + header + " " + help_ + "\n";
        out_ += samples_;
        samples_.clear();
    }

    bool om_;
    std::string name_, type_, help_, unit_, samples_, out_;
};

Labels runLabels(const LiveRunIdentity& r) {
    return {{"experiment", r.experiment},
            {"series", r.series},
            {"clients", std::to_string(r.clients)},
            {"round", r.round > 0 ? std::to_string(r.round) : std::string()}};
}

Labels with(Labels l, const std::string& k, const std::string& v) {
    l.emplace_back(k, v);
    return l;
}

void writeCounters(Writer& w, const LiveMetrics& m) {
    Labels e{{"experiment", m.experiment}};
    w.family("scalelab_transactions", "counter",
             "Transactions the load generator committed, warm-up included, over every run of this process");
    w.count(e, m.transactions);
    w.family("scalelab_failures", "counter", "Transactions that failed (serialization, deadlock, other errors), over every run");
    w.count(e, m.failures);
    w.family("scalelab_retries", "counter", "Extra tries of transactions (--max-tries), over every run");
    w.count(e, m.retries);
    w.family("scalelab_runs_finished", "counter", "Runs ended, by how they ended");
    for (const auto& [status, n] : m.runsFinished) w.count(with(e, "status", runStatusName(status)), n);
}

void writeSweep(Writer& w, const LiveMetrics& m) {
    if (!m.sweep) return;
    const LiveSweep& s = *m.sweep;
    Labels e{{"experiment", m.experiment}};
    w.family("scalelab_sweep_runs", "gauge", "Runs the sweep's plan has");
    w.sample(e, s.total);
    w.family("scalelab_sweep_runs_done", "gauge", "Runs the sweep has finished, those of an earlier session (resume) included");
    w.sample(e, s.done);
    w.family("scalelab_sweep_elapsed_seconds", "gauge", "Time this sweep session has run", "seconds");
    w.sample(e, s.elapsedS);
    w.family("scalelab_sweep_eta_seconds", "gauge", "Estimated time to the end of the sweep", "seconds");
    w.sample(e, s.etaS);
    w.family("scalelab_sweep_state", "gauge", "1 for the sweep's state, 0 for the others");
    for (SweepState st : {SweepState::Preparing, SweepState::Settling, SweepState::Running, SweepState::Paused,
                          SweepState::Finished, SweepState::Stopped})
        w.sample(with(e, "state", sweepStateName(st)), st == s.state ? 1 : 0);
    if (!s.measuredMachine.empty()) {
        w.family("scalelab_measured_machine", "info", "The machine the CPU, disk and pressure figures are from, and its role");
        w.sample(with(e, "machine", s.measuredMachine), 1);
    }
}

void writeSystem(Writer& w, const Labels& l, const SystemSample& sys) {
    const CpuUsage& c = sys.cpu.total;
    w.family("scalelab_cpu_ratio", "gauge", "Share of the measured machine's CPU time in each state over the last interval");
    if (sys.cpuMeasured())  // unread: left out, never 0
        for (const auto& [state, v] : std::vector<std::pair<const char*, double>>{
                 {"user", c.user}, {"nice", c.nice}, {"system", c.system}, {"iowait", c.iowait},
                 {"irq", c.irq}, {"softirq", c.softirq}, {"steal", c.steal}, {"idle", c.idle}})
            w.sample(with(l, "state", state), v / 100.0);
    w.family("scalelab_cpu_busy_ratio", "gauge", "Share of the measured machine's CPU time busy (not idle, iowait or steal)");
    if (sys.cpuMeasured()) w.sample(l, c.busy() / 100.0);
    w.family("scalelab_process_cpu_pus", "gauge", "CPU used by a process and its children, in PUs (1 = one PU busy)");
    if (sys.loadGeneratorCpuPct) w.sample(with(l, "process", "load_generator"), *sys.loadGeneratorCpuPct / 100.0);
    if (sys.serverCpuPct) w.sample(with(l, "process", "server"), *sys.serverCpuPct / 100.0);
    w.family("scalelab_client_bound", "gauge", "1 when the load generator used more than 90% of the PUs it may run on");
    w.sample(l, sys.clientBound ? 1 : 0);
    w.family("scalelab_pressure_ratio", "gauge", "Pressure stall information: share of time tasks waited for a resource");
    for (const auto& [resource, p] : {std::pair{"cpu", sys.cpuPressure}, std::pair{"io", sys.ioPressure}}) {
        if (!p) continue;
        w.sample(with(with(l, "resource", resource), "kind", "some"), p->somePct / 100.0);
        w.sample(with(with(l, "resource", resource), "kind", "full"), p->fullPct / 100.0);
    }
    constexpr double mib = 1024.0 * 1024.0;
    struct DiskFamily {
        const char* name;
        const char* help;
        const char* unit;
        double (*value)(const DiskSample&);
    };
    const DiskFamily disks[] = {
        {"scalelab_disk_reads_per_second", "Reads completed per second", "", [](const DiskSample& d) { return d.readsPerSec; }},
        {"scalelab_disk_writes_per_second", "Writes completed per second", "", [](const DiskSample& d) { return d.writesPerSec; }},
        {"scalelab_disk_read_bytes_per_second", "Bytes read per second", "", [](const DiskSample& d) { return d.readMBps * mib; }},
        {"scalelab_disk_write_bytes_per_second", "Bytes written per second", "", [](const DiskSample& d) { return d.writeMBps * mib; }},
        {"scalelab_disk_await_seconds", "Average time per I/O, queue and service", "seconds",
         [](const DiskSample& d) { return d.awaitMs / 1000.0; }},
        {"scalelab_disk_util_ratio", "Share of time the device had I/O in progress", "", [](const DiskSample& d) { return d.utilPct / 100.0; }},
    };
    for (const auto& f : disks) {
        w.family(f.name, "gauge", f.help, f.unit);
        for (const auto& d : sys.disks) w.sample(with(l, "device", d.name), f.value(d));
    }
    if (!sys.server) return;
    const ServerCounterRates& s = *sys.server;
    const std::pair<const char*, double> rates[] = {
        {"commits", s.commits}, {"rollbacks", s.rollbacks}, {"logical_reads", s.logicalReads},
        {"blocks_read", s.blksRead}, {"blocks_hit", s.blksHit}, {"tuples_returned", s.tupReturned},
        {"tuples_fetched", s.tupFetched}, {"tuples_inserted", s.tupInserted}, {"tuples_updated", s.tupUpdated},
        {"tuples_deleted", s.tupDeleted}, {"deadlocks", s.deadlocks}, {"temp_bytes", s.tempBytes},
        {"checkpoints", s.checkpoints}, {"buffers_checkpoint", s.buffersCheckpoint}, {"buffers_clean", s.buffersClean},
        {"buffers_alloc", s.buffersAlloc}};
    for (const auto& [name, v] : rates) {
        w.family(std::string("scalelab_server_") + name + "_per_second", "gauge",
                 std::string("The database's ") + name + " per second over the last interval (pg_stat_database, pg_stat_bgwriter)");
        w.sample(l, v);
    }
    w.family("scalelab_server_wait_sessions", "gauge", "Load sessions waiting on each wait event at the end of the interval");
    for (const auto& [event, n] : s.waitEvents) w.sample(with(l, "event", event), n);
}

void writeRun(Writer& w, const LiveMetrics& m) {
    if (!m.run || !m.sample) return;
    const LoadSample& s = *m.sample;
    Labels l = runLabels(*m.run);
    w.family("scalelab_run_elapsed_seconds", "gauge", "Time since the run's clock started (every client connected)", "seconds");
    w.sample(l, s.endS);
    w.family("scalelab_run_warmup", "gauge", "1 while the run is in its warm-up (not counted in its result)");
    w.sample(l, s.warmup ? 1 : 0);
    w.family("scalelab_tps", "gauge", "Transactions per second over the last sample interval");
    w.sample(l, s.tps);
    if (auto nopm = tpcc::sampleNewOrdersPerMinute(m.scriptSet, s)) {
        w.family("scalelab_nopm", "gauge", "TPROC-C: New-Order transactions committed per minute over the last sample interval");
        w.sample(l, *nopm);
    }
    if (s.latency.count > 0) {
        w.family("scalelab_latency_seconds", "gauge", "Latency of the transactions that ended in the last interval", "seconds");
        for (const auto& [q, ms] : std::vector<std::pair<const char*, double>>{
                 {"0.5", s.latency.p50Ms}, {"0.9", s.latency.p90Ms}, {"0.95", s.latency.p95Ms},
                 {"0.99", s.latency.p99Ms}, {"0.999", s.latency.p999Ms}})
            w.sample(with(l, "quantile", q), ms / 1000.0);
        w.family("scalelab_latency_mean_seconds", "gauge", "Mean latency of the transactions that ended in the last interval", "seconds");
        w.sample(l, s.latency.meanMs / 1000.0);
    }
    if (s.system) writeSystem(w, l, *s.system);
}

void writeLastRun(Writer& w, const LiveMetrics& m) {
    if (!m.lastRun) return;
    Labels l = with(runLabels(m.lastRun->run), "status", runStatusName(m.lastRun->status));
    w.family("scalelab_last_run_tps", "gauge", "The result of the last run that ended: transactions per second of its counted window");
    if (m.lastRun->tps) w.sample(l, *m.lastRun->tps);
    w.family("scalelab_last_run_latency_p95_seconds", "gauge", "The 95th latency percentile of the last run that ended", "seconds");
    if (m.lastRun->p95Ms) w.sample(l, *m.lastRun->p95Ms / 1000.0);
}

} // namespace

std::string escapeLabelValue(const std::string& value) {
    std::string out;
    out.reserve(value.size());
    for (char c : value) {
        if (c == '\\') out += "\\\\";
        else if (c == '"') out += "\\\"";
        else if (c == '\n') out += "\\n";
        else out += c;
    }
    return out;
}

ExpositionFormat expositionFormatFor(const std::string& accept) {
    return accept.find("application/openmetrics-text") != std::string::npos ? ExpositionFormat::OpenMetrics
                                                                            : ExpositionFormat::PrometheusText;
}

const char* expositionContentType(ExpositionFormat format) {
    return format == ExpositionFormat::OpenMetrics ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
                                                   : "text/plain; version=0.0.4; charset=utf-8";
}

std::string exposition(const LiveMetrics& m, ExpositionFormat format) {
    Writer w(format);
    w.family("scalelab_build", "info", "The ScaleLab that serves these metrics");
    w.sample({{"version", scalelabVersion()}}, 1);
    writeCounters(w, m);
    writeSweep(w, m);
    writeRun(w, m);
    writeLastRun(w, m);
    return w.finish();
}

} // namespace scalelab
