#include "metrics/WaitSampler.h"

#include "metrics/WaitSamplingProfile.h"

#include "server/Conninfo.h"
#include "util/Error.h"
#include "util/JsonField.h"
#include "util/Format.h"

#include <libpq-fe.h>

#include <chrono>
#include <cstdlib>
#include <thread>

namespace scalelab {
namespace {

double waitClockS() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

using WaitResult = std::unique_ptr<PGresult, void (*)(PGresult*)>;

// A pg_wait_sampling profile larger than this is emptied before a window on ScaleLab's own server.
constexpr uint64_t kWaitSamplingResetRows = 20000;

// With a connection per transaction no load session lives from one read of pg_stat_activity to
// the next: the profile's pids could not be told to be the load's.
constexpr const char* kReconnectRefusal = "the load connects for each transaction (-C), too briefly to tell its sessions apart";

std::string waitErrorOf(pg_conn* conn, PGresult* res) {
    return firstLineOf(res && PQresultErrorMessage(res)[0] ? PQresultErrorMessage(res) : PQerrorMessage(conn));
}

} // namespace

std::string waitEventName(const std::string& type, const std::string& event) {
    return type == event ? type : type + ":" + event;
}

std::map<std::string, uint64_t> WaitProfile::byEvent(const std::string& backend) const {
    std::map<std::string, uint64_t> out;
    for (const auto& c : counts)
        if (c.backend == backend) out[waitEventName(c.type, c.event)] += c.count;
    return out;
}

nlohmann::json toJson(const WaitProfile& p) {
    if (!p.available()) return {{"unavailable", p.unavailable}};
    nlohmann::json counts = nlohmann::json::array();
    for (const auto& c : p.counts) {
        nlohmann::json j = {{"backend", c.backend}, {"type", c.type}, {"event", c.event}, {"count", c.count}};
        if (!c.queryId.empty()) j["query_id"] = c.queryId;
        counts.push_back(std::move(j));
    }
    nlohmann::json j = {{"source", p.source}, {"hz", p.hz}, {"samples", p.samples}, {"seconds", p.seconds}, {"counts", counts}};
    if (!p.sourceWhy.empty()) j["source_why"] = p.sourceWhy;
    return j;
}

WaitProfile waitProfileFromJson(const nlohmann::json& j) {
    WaitProfile p;
    if (!j.is_object()) throw Error("waits: not an object");
    if (auto why = unavailableIn(j, "waits")) {
        p.unavailable = *why;
        return p;
    }
    auto number = [&](const char* key) {
        auto it = j.find(key);
        if (it == j.end() || !it->is_number() || it->get<double>() < 0)
            throw Error(std::string("waits.") + key + ": missing or not a number of at least 0");
        return it->get<double>();
    };
    auto src = j.find("source");
    if (src == j.end() || !src->is_string()) throw Error("waits.source: missing or not a string");
    p.source = src->get<std::string>();
    if (auto why = j.find("source_why"); why != j.end()) {
        if (!why->is_string()) throw Error("waits.source_why: not a string");
        p.sourceWhy = why->get<std::string>();
    }
    p.hz = number("hz");
    p.samples = static_cast<uint64_t>(number("samples"));
    p.seconds = number("seconds");
    auto counts = j.find("counts");
    if (counts == j.end() || !counts->is_array()) throw Error("waits.counts: missing or not a list");
    for (size_t i = 0; i < counts->size(); ++i) {
        const nlohmann::json& c = (*counts)[i];
        const std::string where = "waits.counts[" + std::to_string(i) + "]";
        auto text = [&](const char* key) {
            auto it = c.find(key);
            if (it == c.end() || !it->is_string()) throw Error(where + "." + key + ": missing or not a string");
            return it->get<std::string>();
        };
        WaitCount w;
        w.backend = text("backend");
        w.type = text("type");
        w.event = text("event");
        if (c.contains("query_id")) w.queryId = text("query_id");
        auto n = c.find("count");
        if (n == c.end() || !n->is_number_unsigned()) throw Error(where + ".count: missing or not a count");
        w.count = n->get<uint64_t>();
        if (w.count > p.samples * 100000) throw Error(where + ".count: more than the samples allow");
        p.counts.push_back(std::move(w));
    }
    return p;
}

std::string waitSamplingRefusal(pg_conn* c, bool ownServer, double* hz) {
    auto one = [&](const char* sql, std::string& why) -> std::string {
        WaitResult r(PQexec(c, sql), PQclear);
        if (!r || PQresultStatus(r.get()) != PGRES_TUPLES_OK) {
            why = waitErrorOf(c, r.get());
            return "";
        }
        return PQntuples(r.get()) > 0 ? PQgetvalue(r.get(), 0, 0) : "";
    };
    std::string why;
    std::string loaded = one("SELECT 'pg_wait_sampling' = ANY (string_to_array(replace(replace(current_setting("
                             "'shared_preload_libraries'), ' ', ''), '\"', ''), ','))", why);
    if (!why.empty()) return "cannot tell whether the server loads it: " + why;
    if (loaded != "t") return "the server does not load it (shared_preload_libraries)";
    if (one("SELECT 1 FROM pg_extension WHERE extname = 'pg_wait_sampling'", why).empty()) {
        if (!why.empty()) return "cannot tell whether it is installed: " + why;
        if (!ownServer)
            return "it is loaded but not installed in database " + std::string(PQdb(c)) +
                   " (CREATE EXTENSION pg_wait_sampling)";
        WaitResult r(PQexec(c, "CREATE EXTENSION IF NOT EXISTS pg_wait_sampling"), PQclear);
        if (!r || PQresultStatus(r.get()) != PGRES_COMMAND_OK)
            return "cannot create the extension: " + waitErrorOf(c, r.get());
    }
    if (one("SELECT current_setting('pg_wait_sampling.profile_pid')", why) != "on")
        return why.empty() ? "pg_wait_sampling.profile_pid is off: its profile cannot tell the sessions apart"
                           : "cannot read pg_wait_sampling.profile_pid: " + why;
    std::string period = one("SELECT current_setting('pg_wait_sampling.profile_period')", why);
    char* end = nullptr;
    long ms = std::strtol(period.c_str(), &end, 10);
    if (period.empty() || *end != '\0' || ms <= 0)
        return "cannot read pg_wait_sampling.profile_period" + (why.empty() ? " ('" + period + "')" : ": " + why);
    if (hz) *hz = 1000.0 / static_cast<double>(ms);
    // Its profile only grows (every pid the server ever had): on ScaleLab's own server a large
    // one is emptied before the window, so that each second's read stays small. The collector
    // empties it when it next wakes; the window's start is read well after.
    if (ownServer) {
        std::string rows = one("SELECT count(*) FROM pg_wait_sampling_profile", why);
        if (why.empty() && std::strtoull(rows.c_str(), nullptr, 10) > kWaitSamplingResetRows) {
            WaitResult r(PQexec(c, "SELECT pg_wait_sampling_reset_profile()"), PQclear);
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        }
    }
    return "";
}

void WaitSampler::CloseConnection::operator()(pg_conn* c) const { PQfinish(c); }

WaitSampler::WaitSampler(const std::string& conninfo, const std::string& loadApplicationName, std::vector<int> skipPids,
                         WaitSamplerOptions options)
    : hz_(options.hz > 0 ? options.hz : kWaitSampleHz) {
    conn_.reset(connectForReading(conninfo, "scalelab waits"));
    if (!conn_ || PQstatus(conn_.get()) != CONNECTION_OK)
        throw Error("cannot connect to sample the server's waits: " +
                    firstLineOf(conn_ ? PQerrorMessage(conn_.get()) : "out of memory"));
    const int version = PQserverVersion(conn_.get());
    char* quoted = PQescapeLiteral(conn_.get(), loadApplicationName.c_str(), loadApplicationName.size());
    if (!quoted) throw Error("cannot sample the server's waits: " + firstLineOf(PQerrorMessage(conn_.get())));
    const std::string appName = quoted;
    PQfreemem(quoted);
    std::string skip = "pg_backend_pid()";
    for (int pid : skipPids) skip += ", " + std::to_string(pid);
    if (options.source != WaitSource::Activity) {
        std::string why = options.loadReconnects ? std::string(kReconnectRefusal)
                                                 : waitSamplingRefusal(conn_.get(), options.ownServer, &hz_);
        if (why.empty()) {
            reference_.reset(connectForReading(conninfo, "scalelab waits reference"));
            if (!reference_ || PQstatus(reference_.get()) != CONNECTION_OK)
                why = "cannot open its reference session: " +
                      firstLineOf(reference_ ? PQerrorMessage(reference_.get()) : "out of memory");
        }
        if (why.empty()) {
            source_ = kWaitSamplingSource;
            referencePid_ = PQbackendPID(reference_.get());
            skip += ", " + std::to_string(referencePid_);
        } else if (options.source == WaitSource::WaitSampling) {
            throw Error("pg_wait_sampling cannot be used ($.diagnostics.waits_source): " + why);
        } else {
            sourceWhy_ = why;
        }
    }
    // query_id from PostgreSQL 14 (filled where compute_query_id is on, as pg_stat_statements
    // turns it on); busy means inside a transaction for a client, not in its main-loop sleep for
    // any other backend. pg_wait_sampling's collector is ScaleLab's instrument, not the server's
    // work: left out, as it is from the profile.
    sql_ = "SELECT pg_stat_clear_snapshot(); "
           "SELECT CASE WHEN backend_type <> 'client backend' THEN backend_type "
           "WHEN application_name = " + appName + " THEN 'load' ELSE 'other clients' END, "
           "coalesce(wait_event_type, 'CPU'), coalesce(wait_event, 'CPU'), " +
           std::string(version >= 140000 ? "coalesce(query_id::text, '')" : "''") +
           ", count(*) FROM pg_stat_activity WHERE pid NOT IN (" + skip + ") "
           "AND backend_type <> 'pg_wait_sampling collector' "
           "AND (backend_type <> 'client backend' OR state NOT IN ('idle', 'disabled')) "
           "AND coalesce(wait_event_type, '') <> 'Activity' GROUP BY 1, 2, 3, 4";
    // pg_wait_sampling: each pid's class, the collector and ScaleLab's own sessions as "".
    classesSql_ = "SELECT pg_stat_clear_snapshot(); SELECT pid, CASE WHEN pid IN (" + skip +
                  ") OR backend_type = 'pg_wait_sampling collector' THEN '' "
                  "WHEN backend_type <> 'client backend' THEN backend_type "
                  "WHEN application_name = " + appName + " THEN 'load' ELSE 'other clients' END "
                  "FROM pg_stat_activity";
    // A session kept in one transaction (see the header) must not be ended by the server's
    // idle-in-transaction timeout between two reads; its own start-up commit is reported now,
    // before the window, not inside it (pg_stat_force_next_flush, PostgreSQL 15+).
    std::string setup = "SET idle_in_transaction_session_timeout = 0";
    if (version >= 150000) setup += "; SELECT pg_stat_force_next_flush()";
    WaitResult res(PQexec(conn_.get(), setup.c_str()), PQclear);
    if (!res || PQresultStatus(res.get()) != (version >= 150000 ? PGRES_TUPLES_OK : PGRES_COMMAND_OK))
        throw Error("cannot sample the server's waits: " + waitErrorOf(conn_.get(), res.get()));
    WaitResult begin(PQexec(conn_.get(), "BEGIN"), PQclear);
    if (!begin || PQresultStatus(begin.get()) != PGRES_COMMAND_OK)
        throw Error("cannot sample the server's waits: " + waitErrorOf(conn_.get(), begin.get()));
}

std::string WaitSampler::describe() const {
    std::string d = source_ + " at " + formatNumber("%g", hz_) + " Hz";
    if (!sourceWhy_.empty()) d += " (pg_wait_sampling not used: " + sourceWhy_ + ")";
    return d;
}

WaitSampler::~WaitSampler() {
    if (running()) stop();
    // The transaction the reads ran in ends with the connection (PQfinish): a rollback, after
    // the run's last counter read.
}

void WaitSampler::start() {
    if (running()) return;
    counts_.clear();
    samples_ = 0;
    rounds_ = 0;
    classes_.clear();
    aliveAt_.clear();
    profileStart_.clear();
    firstPids_.clear();
    {
        std::lock_guard<std::mutex> lock(tallyMutex_);
        tally_ = {};
        tally_.source = source_;
    }
    error_.clear();
    stopping_ = false;
    thread_ = std::thread([this] { loop(); });
}

void WaitSampler::loop() {
    // pg_wait_sampling samples inside the server: two reads a second keep the Live page's
    // one-second intervals with a read in each.
    const auto period = std::chrono::duration<double>(referencePid_ ? 0.5 : 1.0 / hz_);
    auto next = std::chrono::steady_clock::now();
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stopping_) {
        lock.unlock();
        bool ok = sampleOnce();
        lock.lock();
        if (!ok) return;
        // On a fixed grid, not a fixed gap after each read: the rate stays what was asked for.
        next += std::chrono::duration_cast<std::chrono::steady_clock::duration>(period);
        auto now = std::chrono::steady_clock::now();
        if (next < now) next = now;
        wake_.wait_until(lock, next, [this] { return stopping_; });
    }
}

bool WaitSampler::sampleOnce() {
    if (referencePid_) return readProfile();
    WaitResult res(PQexec(conn_.get(), sql_.c_str()), PQclear);
    double at = waitClockS();
    if (!res || PQresultStatus(res.get()) != PGRES_TUPLES_OK) {
        error_ = "a read of pg_stat_activity failed: " + waitErrorOf(conn_.get(), res.get());
        return false;
    }
    std::lock_guard<std::mutex> tallyLock(tallyMutex_);
    for (int row = 0; row < PQntuples(res.get()); ++row) {
        auto text = [&](int col) { return std::string(PQgetvalue(res.get(), row, col)); };
        uint64_t n = std::stoull(text(4));
        counts_[{text(0), text(1), text(2), text(3)}] += n;
        if (text(0) == kLoadBackends) tally_.load[waitEventName(text(1), text(2))] += n;
    }
    ++tally_.samples;
    if (samples_ == 0) firstS_ = at;
    lastS_ = at;
    ++samples_;
    return true;
}

bool WaitSampler::readProfile() {
    pg_conn* c = conn_.get();
    WaitResult who(PQexec(c, classesSql_.c_str()), PQclear);
    if (!who || PQresultStatus(who.get()) != PGRES_TUPLES_OK) {
        error_ = "a read of pg_stat_activity failed: " + waitErrorOf(c, who.get());
        return false;
    }
    std::set<int> alive;
    for (int row = 0; row < PQntuples(who.get()); ++row) {
        int pid = std::atoi(PQgetvalue(who.get(), row, 0));
        alive.insert(pid);
        classes_.emplace(pid, PQgetvalue(who.get(), row, 1));
    }
    WaitResult res(PQexec(c, "SELECT pid, coalesce(event_type, 'CPU'), coalesce(event, 'CPU'), "
                             "coalesce(nullif(queryid, 0)::text, ''), count FROM pg_wait_sampling_profile"),
                   PQclear);
    const double at = waitClockS();
    if (!res || PQresultStatus(res.get()) != PGRES_TUPLES_OK) {
        error_ = "a read of pg_wait_sampling_profile failed: " + waitErrorOf(c, res.get());
        return false;
    }
    SamplingCounts now;
    for (int row = 0; row < PQntuples(res.get()); ++row) {
        auto text = [&](int col) { return std::string(PQgetvalue(res.get(), row, col)); };
        now[{std::atoi(PQgetvalue(res.get(), row, 0)), text(1), text(2), text(3)}] +=
            std::strtoull(PQgetvalue(res.get(), row, 4), nullptr, 10);
    }
    ++samples_;
    if (samples_ == 1) {
        profileStart_ = std::move(now);
        firstPids_ = std::move(alive);
        firstS_ = lastS_ = at;
        return true;
    }
    SamplingWindow w = samplingWindow(profileStart_, now, referencePid_, classes_);
    if (!w.error.empty()) {
        error_ = w.error;
        return false;
    }
    for (int pid : alive)
        if (firstPids_.count(pid)) aliveAt_[pid] = {w.rounds, w.sampledOf[pid]};
    addCpuSamples(w, classes_, aliveAt_, referencePid_);
    lastS_ = at;
    rounds_ = w.rounds;
    counts_ = std::move(w.counts);
    WaitTally t;
    t.source = source_;
    t.samples = rounds_;
    for (const auto& [key, n] : counts_)
        if (std::get<0>(key) == kLoadBackends) t.load[waitEventName(std::get<1>(key), std::get<2>(key))] += n;
    std::lock_guard<std::mutex> lock(tallyMutex_);
    tally_ = std::move(t);
    return true;
}

WaitTally WaitSampler::tally() const {
    std::lock_guard<std::mutex> lock(tallyMutex_);
    return tally_;
}

std::map<std::string, double> waitSessionsBetween(const WaitTally& before, const WaitTally& after) {
    std::map<std::string, double> out;
    if (after.samples <= before.samples) return out;
    const double samples = static_cast<double>(after.samples - before.samples);
    for (const auto& [event, n] : after.load) {
        auto was = before.load.find(event);
        uint64_t earlier = was == before.load.end() ? 0 : was->second;
        if (n < earlier) return {};  // a window that started again: no interval to tell
        out[event] = static_cast<double>(n - earlier) / samples;
    }
    return out;
}

WaitProfile WaitSampler::stop() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
    // pg_wait_sampling: the window ends with this read (the thread's last may be a second old).
    if (referencePid_ && error_.empty() && samples_ > 0) readProfile();
    WaitProfile p;
    if (!error_.empty()) {
        p.unavailable = error_;
        return p;
    }
    if (samples_ < 2) {
        p.unavailable = referencePid_ ? "the window was too short for two reads of pg_wait_sampling's profile"
                                      : "the window was too short for two samples at " + formatNumber("%.0f", hz_) + " Hz";
        return p;
    }
    p.source = source_;
    p.sourceWhy = sourceWhy_;
    p.hz = hz_;
    p.samples = referencePid_ ? rounds_ : samples_;
    p.seconds = lastS_ - firstS_;
    for (const auto& [key, n] : counts_) {
        const auto& [backend, type, event, queryId] = key;
        p.counts.push_back({backend, type, event, queryId, n});
    }
    return p;
}

} // namespace scalelab
