#include "report/Export.h"

#include "metrics/MetricsMachine.h"
#include "stats/ExperimentPoints.h"
#include "util/Csv.h"
#include "report/ExportLatency.h"
#include "stats/LatencyThroughput.h"
#include "report/ReportCsv.h"
#include "store/StatementTexts.h"
#include "util/Error.h"

#include <filesystem>

namespace scalelab {
namespace {

// An offered rate in a CSV cell: empty for an unthrottled run (it had no rate).
std::string rateCell(const RunRecord& r) { return rateField(offeredRateOf(r)); }
std::string scaleCell(const RunRecord& r) { return scaleField(dataScaleOf(r)); }

// The machine the run's cpu_busy_pct (and samples' CPU columns) are of; "" when not recorded.
std::string metricsMachineOf(const RunRecord& r) {
    auto m = metricsMachineFromJson(r.detail);
    return m ? m->describe() : "";
}

// statements.csv: each run's statements (pg_stat_statements over its counted window), the
// text repeated on each row so that the file stands alone.
void writeStatementsCsv(const std::vector<RunRecord>& runs, const StatementTexts& texts, const std::string& dir,
                        std::vector<std::string>& written) {
    std::string path = dir + "/statements.csv";
    CsvWriter w(path);
    w.row({"run_id", "series", "clients", "rate", "scale", "repetition", "queryid", "calls", "total_ms", "mean_ms", "rows",
           "shared_blks_hit", "shared_blks_read", "shared_blks_dirtied", "wal_bytes", "query"});
    for (const auto& r : runs) {
        auto system = r.detail.find("system");
        if (system == r.detail.end() || !system->is_object()) continue;
        auto st = system->find("statements");
        if (st == system->end() || !st->contains("rows")) continue;
        for (const auto& row : (*st)["rows"]) {
            std::string id = row.value("queryid", "");
            auto cell = [&](const char* key) {
                auto it = row.find(key);
                return it == row.end() || it->is_null() ? std::string()
                       : it->is_number_float()         ? csvNumber(it->get<double>())
                                                       : it->dump();
            };
            auto text = texts.find(id);
            w.row({std::to_string(r.id), r.series, std::to_string(r.clients), rateCell(r), scaleCell(r), std::to_string(r.repetition), id,
                   cell("calls"), cell("total_ms"), cell("mean_ms"), cell("rows"), cell("shared_blks_hit"),
                   cell("shared_blks_read"), cell("shared_blks_dirtied"), cell("wal_bytes"),
                   text == texts.end() ? "" : text->second});
        }
    }
    w.close();
    written.push_back(path);
}

} // namespace

namespace {

std::vector<std::string> writeCsvFiles(ExperimentStore& store, const std::string& dir, double confidence,
                                       std::vector<std::string>& written);
}

// All the files or none: each is written under a temporary name and renamed (CsvWriter), and
// a failure takes back the files already renamed and the directory when this made it.
std::vector<std::string> exportCsv(ExperimentStore& store, const std::string& dir, double confidence) {
    std::error_code ec;
    bool made = !std::filesystem::exists(dir, ec);
    std::filesystem::create_directories(dir, ec);
    if (ec) throw Error("cannot create " + dir + ": " + ec.message());
    std::vector<std::string> written;
    try {
        return writeCsvFiles(store, dir, confidence, written);
    } catch (...) {
        for (const auto& f : written) std::filesystem::remove(f, ec);
        if (made) std::filesystem::remove(dir, ec);  // only when empty
        throw;
    }
}

namespace {

// Latency against throughput, tidy: a row per series, client count, offered rate and percentile
// (docs/sweeps.md, "Latency against throughput").
void writeLatencyThroughputCsv(const std::vector<RunRecord>& runs, const std::vector<std::string>& order,
                               const std::string& dir, std::vector<std::string>& written) {
    std::string path = dir + "/latency-throughput.csv";
    CsvWriter w(path);
    w.row({"series", "clients", "rate", "scale", "percentile", "runs", "tps_mean", "latency_ms_mean", "runs_below_rate",
           "runs_skipping"});
    for (LatencyPercentile p : allLatencyPercentiles())
        for (const GridCell& cell : gridCells(runs))
            for (const auto& pt : latencyThroughput(runsIn(runs, cell), order, p))
                w.row({pt.series, std::to_string(pt.clients), rateField(cell.rate), scaleField(cell.scale), latencyPercentileName(p),
                       std::to_string(pt.runs), csvNumber(pt.tps), csvNumber(pt.value), std::to_string(pt.belowRate),
                       std::to_string(pt.skipping)});
    w.close();
    written.push_back(path);
}

std::vector<std::string> writeCsvFiles(ExperimentStore& store, const std::string& dir, double confidence,
                                       std::vector<std::string>& written) {
    auto runs = store.runs();
    auto order = store.seriesLabels();

    std::string runsPath = dir + "/runs.csv";
    CsvWriter w(runsPath);
    w.row({"run_id", "run_index", "series", "clients", "rate", "scale", "threads", "repetition", "status", "excluded", "flags", "tps",
           "transactions", "failures", "measured_s", "latency_mean_ms", "latency_sd_ms", "latency_p50_ms", "latency_p90_ms",
           "latency_p95_ms", "latency_p99_ms", "latency_p999_ms", "latency_max_ms", "cpu_busy_pct", "loadgen_cpu_pct",
           "server_cpu_pct", "logical_reads_s", "commits_s", "started_at", "ended_at", "source", "error", "note",
           "metrics_machine", "nopm", "tpm"});
    for (const auto& r : runs) {
        const auto& l = r.latency;
        w.row({std::to_string(r.id), r.runIndex ? std::to_string(*r.runIndex + 1) : "", r.series, std::to_string(r.clients),
               rateCell(r), scaleCell(r), std::to_string(r.threads), std::to_string(r.repetition), runStatusName(r.status), r.excluded ? "1" : "0", r.flags.joined(";"),
               csvNumber(r.tps), std::to_string(r.transactions), std::to_string(r.failures), csvNumber(r.measuredSeconds),
               csvNumber(l.meanMs), csvNumber(l.stddevMs), csvNumber(l.p50Ms), csvNumber(l.p90Ms), csvNumber(l.p95Ms),
               csvNumber(l.p99Ms), csvNumber(l.p999Ms), csvNumber(l.maxMs), csvNumber(r.cpuBusyPct), csvNumber(r.loadGeneratorCpuPct),
               csvNumber(r.serverCpuPct), csvNumber(r.logicalReadsPerSec), csvNumber(r.commitsPerSec), r.startedAt, r.endedAt, r.source,
               r.error, r.note, metricsMachineOf(r), csvNumber(metricOf(r, RunMetric::Nopm)), csvNumber(metricOf(r, RunMetric::Tpm))});
    }
    w.close();
    written.push_back(runsPath);

    std::string pointsPath = dir + "/points.csv";
    CsvWriter p(pointsPath);
    // A row per series, client count, offered rate and data scale (tidy): the points of each apart.
    writePointsHeader(p, PointAxis::Clients, true);
    for (RunMetric m : allRunMetrics())
        for (const GridCell& cell : gridCells(runs))
            writePointRows(p, summarizePoints(pointRuns(runsIn(runs, cell), order, m), confidence), m, cell);
    p.close();
    written.push_back(pointsPath);

    std::string samplesPath = dir + "/samples.csv";
    CsvWriter sm(samplesPath);
    sm.row({"run_id", "series", "clients", "repetition", "seq", "start_s", "end_s", "warmup", "transactions", "tps",
            "failures", "latency_mean_ms", "latency_p50_ms", "latency_p95_ms", "latency_p99_ms", "cpu_user", "cpu_system",
            "cpu_iowait", "cpu_steal", "cpu_idle", "loadgen_cpu_pct", "server_cpu_pct", "commits_s", "logical_reads_s"});
    for (const auto& r : runs) {
        auto samples = store.samples(r.id);
        for (size_t i = 0; i < samples.size(); ++i) {
            const StoredSample& s = samples[i];
            auto sys = [&](const char* a, const char* b = nullptr) -> std::string {
                if (s.system.is_null()) return "";
                const nlohmann::json* v = &s.system;
                if (!v->contains(a)) return "";
                v = &(*v)[a];
                if (b) {
                    if (!v->is_object() || !v->contains(b)) return "";
                    v = &(*v)[b];
                }
                return v->is_number() ? csvNumber(v->get<double>()) : "";
            };
            sm.row({std::to_string(r.id), r.series, std::to_string(r.clients), std::to_string(r.repetition),
                    std::to_string(i), csvNumber(s.startS), csvNumber(s.endS), s.warmup ? "1" : "0",
                    std::to_string(s.transactions), csvNumber(s.tps), std::to_string(s.failures), csvNumber(s.latMeanMs),
                    csvNumber(s.latP50Ms), csvNumber(s.latP95Ms), csvNumber(s.latP99Ms), sys("cpu", "user"),
                    sys("cpu", "system"), sys("cpu", "iowait"), sys("cpu", "steal"), sys("cpu", "idle"),
                    sys("load_generator_cpu_pct"), sys("server_cpu_pct"), sys("server", "commits_s"),
                    sys("server", "logical_reads_s")});
        }
    }
    sm.close();
    written.push_back(samplesPath);
    writeLatencyCsv(runs, order, dir, written);
    writeLatencyThroughputCsv(runs, order, dir, written);
    writeStatementsCsv(runs, statementTexts(store), dir, written);
    return written;
}
} // namespace

nlohmann::json exportJson(ExperimentStore& store, bool withSamples) {
    nlohmann::json j;
    j["format"] = "scalelab-experiment";
    j["schema"] = ExperimentStore::kSchemaVersion;
    if (auto plan = store.plan()) {
        j["plan"] = plan->first;
        j["seed"] = plan->second;
    }
    j["provenance"] = store.provenance();
    j["note"] = store.note();
    j["statement_texts"] = statementTexts(store);  // queryid -> text, for runs' detail.system.statements
    j["series"] = nlohmann::json::array();
    for (const auto& s : store.series()) j["series"].push_back({{"label", s.label}, {"config", s.config}});
    j["runs"] = nlohmann::json::array();
    for (const auto& r : store.runs()) {
        nlohmann::json detail = r.detail;
        detail.erase("histogram");  // as latency_distribution: bucket bounds in ms, not internal indices
        nlohmann::json run = {{"id", r.id},
                              {"run_index", r.runIndex ? nlohmann::json(*r.runIndex + 1) : nlohmann::json()},
                              {"series", r.series},
                              {"clients", r.clients},
                              {"rate", offeredRateOf(r) > 0 ? nlohmann::json(offeredRateOf(r)) : nlohmann::json()},
                              {"scale", dataScaleOf(r) > 0 ? nlohmann::json(dataScaleOf(r)) : nlohmann::json()},
                              {"threads", r.threads},
                              {"repetition", r.repetition},
                              {"status", runStatusName(r.status)},
                              {"error", r.error},
                              {"note", r.note},
                              {"excluded", r.excluded},
                              {"flags", r.flags.words()},
                              {"started_at", r.startedAt},
                              {"ended_at", r.endedAt},
                              {"source", r.source},
                              {"tps", r.tps},
                              {"detail", detail},
                              {"latency_distribution", latencyDistributionJson(r)}};
        if (withSamples) {
            run["samples"] = nlohmann::json::array();
            for (const auto& s : store.samples(r.id))
                run["samples"].push_back({{"start_s", s.startS}, {"end_s", s.endS}, {"warmup", s.warmup},
                                          {"transactions", s.transactions}, {"tps", s.tps}, {"failures", s.failures},
                                          {"latency_mean_ms", s.latMeanMs}, {"latency_p50_ms", s.latP50Ms},
                                          {"latency_p95_ms", s.latP95Ms}, {"latency_p99_ms", s.latP99Ms},
                                          {"system", s.system}});
        }
        j["runs"].push_back(std::move(run));
    }
    return j;
}

} // namespace scalelab
