#pragma once
// How a run and a sample map to table columns: one place for both stores, the SQLite file
// (store/Sqlite.h) and the PostgreSQL results store (store/Pg.h), whose statements offer the
// same bind and column accessors. A missing value is NULL in a table and NaN (or nullopt) in
// memory, never 0.
#include "store/ExperimentStore.h"
#include "util/Error.h"
#include "util/JsonParse.h"

#include <cmath>
#include <limits>
#include <string>

namespace scalelab::columns {

// The run's columns after its id, for INSERT: 31 values, series_id second.
inline const char* const kRunInsert =
    "run_index, series_id, clients, threads, repetition, status, error, started_at, ended_at, source, excluded, flags, "
    "tps, measured_s, transactions, failures, lat_mean_ms, lat_sd_ms, lat_p50_ms, lat_p90_ms, lat_p95_ms, lat_p99_ms, "
    "lat_p999_ms, lat_max_ms, cpu_busy_pct, loadgen_cpu_pct, server_cpu_pct, logical_reads_s, commits_s, detail, note";
constexpr int kRunInsertCount = 31;

// SELECT list for readRun, over "runs r JOIN series s".
inline std::string runSelect(bool hasNote = true) {
    return "r.id, r.run_index, s.label, r.clients, r.threads, r.repetition, r.status, r.error, r.started_at, "
           "r.ended_at, r.source, r.excluded, r.flags, r.tps, r.measured_s, r.transactions, r.failures, r.lat_mean_ms, "
           "r.lat_sd_ms, r.lat_p50_ms, r.lat_p90_ms, r.lat_p95_ms, r.lat_p99_ms, r.lat_p999_ms, r.lat_max_ms, "
           "r.cpu_busy_pct, r.loadgen_cpu_pct, r.server_cpu_pct, r.logical_reads_s, r.commits_s, r.detail, " +
           std::string(hasNote ? "r.note" : "''");  // a file older than notes, read without migrating
}

// "?, ?, ..." for n parameters.
inline std::string placeholders(int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += i ? ", ?" : "?";
    return out;
}

template <class St>
void bindOptional(St& st, int i, const std::optional<double>& v) {
    if (v) st.bind(i, *v);
    else st.bindNull(i);
}

template <class St>
double realOrMissing(const St& st, int col) {
    return st.isNull(col) ? std::numeric_limits<double>::quiet_NaN() : st.real(col);
}

template <class St>
std::optional<double> optionalReal(const St& st, int col) {
    return st.isNull(col) ? std::nullopt : std::optional<double>(st.real(col));
}

inline RunStatus statusOf(const std::string& text, int64_t runId, const std::string& where) {
    if (auto s = runStatusFromName(text)) return *s;
    throw Error(where + ": run " + std::to_string(runId) + " has the status '" + text +
                "', which this ScaleLab does not know (completed, failed, stopped)");
}

// A JSON column as stored: text that does not parse is damage, said with the file and the row
// (a raw parser message names neither).
inline nlohmann::json storedJson(const std::string& text, const std::string& where, const std::string& what) {
    nlohmann::json j;
    try {
        j = parseJson(text, false);  // past the depth limit: Error "JSON nested deeper than ..."
    } catch (const Error& e) {
        throw Error(where + " is damaged: " + what + " is " + e.what());
    }
    if (j.is_discarded()) throw Error(where + " is damaged: " + what + " is not JSON");
    return j;
}

// Binds kRunInsert's 31 values from parameter `first` on.
template <class St>
void bindRun(St& st, int first, const RunRecord& r, int64_t seriesId) {
    int i = first;
    auto next = [&i] { return i++; };  // one statement per value: the order is the column list's
    st.bind(next(), r.runIndex);
    st.bind(next(), seriesId);
    st.bind(next(), r.clients);
    st.bind(next(), r.threads);
    st.bind(next(), r.repetition);
    st.bind(next(), runStatusName(r.status));
    for (const std::string* v : {&r.error, &r.startedAt, &r.endedAt, &r.source}) st.bind(next(), *v);
    st.bind(next(), r.excluded ? 1 : 0);
    st.bind(next(), r.flags.joined());
    // The column is NOT NULL (schema 1): a run without a rate is stored as 0 and read back as
    // missing by readRun's rule for runs that never started.
    st.bind(next(), std::isnan(r.tps) ? 0.0 : r.tps);
    st.bind(next(), r.measuredSeconds);
    st.bind(next(), static_cast<int64_t>(r.transactions));
    st.bind(next(), static_cast<int64_t>(r.failures));
    const LatencySummary& l = r.latency;
    for (double v : {l.meanMs, l.stddevMs, l.p50Ms, l.p90Ms, l.p95Ms, l.p99Ms, l.p999Ms, l.maxMs}) st.bind(next(), v);
    for (const auto* v : {&r.cpuBusyPct, &r.loadGeneratorCpuPct, &r.serverCpuPct, &r.logicalReadsPerSec, &r.commitsPerSec})
        bindOptional(st, next(), *v);
    st.bind(next(), r.detail.dump());
    st.bind(next(), r.note);
}

// A row of runSelect().
template <class St>
RunRecord readRun(const St& st, const std::string& where) {
    RunRecord r;
    r.id = st.integer(0);
    if (!st.isNull(1)) r.runIndex = st.integer(1);
    r.series = st.text(2);
    r.clients = static_cast<int>(st.integer(3));
    r.threads = static_cast<int>(st.integer(4));
    r.repetition = static_cast<int>(st.integer(5));
    r.status = statusOf(st.text(6), r.id, where);
    r.error = st.text(7);
    r.startedAt = st.text(8);
    r.endedAt = st.text(9);
    r.source = st.text(10);
    r.excluded = st.integer(11) != 0;
    r.flags = RunFlags::parse(st.text(12));
    r.tps = st.real(13);
    r.measuredSeconds = st.real(14);
    r.transactions = static_cast<uint64_t>(st.integer(15));
    r.failures = static_cast<uint64_t>(st.integer(16));
    LatencySummary& l = r.latency;
    l.count = r.transactions;
    l.meanMs = realOrMissing(st, 17), l.stddevMs = realOrMissing(st, 18), l.p50Ms = realOrMissing(st, 19);
    l.p90Ms = realOrMissing(st, 20), l.p95Ms = realOrMissing(st, 21), l.p99Ms = realOrMissing(st, 22);
    l.p999Ms = realOrMissing(st, 23), l.maxMs = realOrMissing(st, 24);
    r.cpuBusyPct = optionalReal(st, 25);
    r.loadGeneratorCpuPct = optionalReal(st, 26);
    r.serverCpuPct = optionalReal(st, 27);
    r.logicalReadsPerSec = optionalReal(st, 28);
    r.commitsPerSec = optionalReal(st, 29);
    r.detail = storedJson(st.text(30), where, "the detail of run " + std::to_string(r.id));
    r.note = st.text(31);
    // A failed run that never started (nothing measured: no time, no transaction) has no rate:
    // missing, never 0 tps (issue 31.15).
    if (r.status == RunStatus::Failed && r.measuredSeconds == 0 && r.transactions == 0) r.tps = std::nan("");
    return r;
}

// A sample's columns after (run_id): 12 values, seq first.
inline const char* const kSampleInsert =
    "seq, start_s, end_s, warmup, transactions, tps, failures, lat_mean_ms, lat_p50_ms, lat_p95_ms, lat_p99_ms, system";
constexpr int kSampleInsertCount = 12;
inline const char* const kSampleSelect =
    "start_s, end_s, warmup, transactions, tps, failures, lat_mean_ms, lat_p50_ms, lat_p95_ms, lat_p99_ms, system";

template <class St>
void bindSample(St& st, int first, int64_t seq, const StoredSample& s) {
    int i = first;
    auto next = [&i] { return i++; };
    st.bind(next(), seq);
    st.bind(next(), s.startS);
    st.bind(next(), s.endS);
    st.bind(next(), s.warmup ? 1 : 0);
    st.bind(next(), static_cast<int64_t>(s.transactions));
    st.bind(next(), s.tps);
    st.bind(next(), static_cast<int64_t>(s.failures));
    for (double v : {s.latMeanMs, s.latP50Ms, s.latP95Ms, s.latP99Ms}) st.bind(next(), v);
    if (s.system.is_null()) st.bindNull(i);
    else st.bind(i, s.system.dump());
}

// A row of kSampleSelect.
template <class St>
StoredSample readSample(const St& st, const std::string& where) {
    StoredSample s;
    s.startS = st.real(0);
    s.endS = st.real(1);
    s.warmup = st.integer(2) != 0;
    s.transactions = static_cast<uint64_t>(st.integer(3));
    s.tps = st.real(4);
    s.failures = static_cast<uint64_t>(st.integer(5));
    s.latMeanMs = realOrMissing(st, 6);
    s.latP50Ms = realOrMissing(st, 7);
    s.latP95Ms = realOrMissing(st, 8);
    s.latP99Ms = realOrMissing(st, 9);
    if (!st.isNull(10)) s.system = storedJson(st.text(10), where, "a sample's system figures");
    return s;
}

} // namespace scalelab::columns
