#include "metrics/WaitSampler.h"

#include "server/Conninfo.h"
#include "util/Error.h"
#include "util/JsonField.h"
#include "util/Format.h"

#include <libpq-fe.h>

#include <chrono>

namespace scalelab {
namespace {

double waitClockS() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

using WaitResult = std::unique_ptr<PGresult, void (*)(PGresult*)>;

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
    return {{"source", p.source}, {"hz", p.hz}, {"samples", p.samples}, {"seconds", p.seconds}, {"counts", counts}};
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

void WaitSampler::CloseConnection::operator()(pg_conn* c) const { PQfinish(c); }

WaitSampler::WaitSampler(const std::string& conninfo, const std::string& loadApplicationName, std::vector<int> skipPids,
                         double hz)
    : hz_(hz > 0 ? hz : kWaitSampleHz) {
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
    // query_id from PostgreSQL 14 (filled where compute_query_id is on, as pg_stat_statements
    // turns it on); busy means inside a transaction for a client, not in its main-loop sleep for
    // any other backend.
    sql_ = "SELECT pg_stat_clear_snapshot(); "
           "SELECT CASE WHEN backend_type <> 'client backend' THEN backend_type "
           "WHEN application_name = " + appName + " THEN 'load' ELSE 'other clients' END, "
           "coalesce(wait_event_type, 'CPU'), coalesce(wait_event, 'CPU'), " +
           std::string(version >= 140000 ? "coalesce(query_id::text, '')" : "''") +
           ", count(*) FROM pg_stat_activity WHERE pid NOT IN (" + skip + ") "
           "AND (backend_type <> 'client backend' OR state NOT IN ('idle', 'disabled')) "
           "AND coalesce(wait_event_type, '') <> 'Activity' GROUP BY 1, 2, 3, 4";
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

WaitSampler::~WaitSampler() {
    if (running()) stop();
    // The transaction the reads ran in ends with the connection (PQfinish): a rollback, after
    // the run's last counter read.
}

void WaitSampler::start() {
    if (running()) return;
    counts_.clear();
    samples_ = 0;
    {
        std::lock_guard<std::mutex> lock(tallyMutex_);
        tally_ = {};
    }
    error_.clear();
    stopping_ = false;
    thread_ = std::thread([this] { loop(); });
}

void WaitSampler::loop() {
    const auto period = std::chrono::duration<double>(1.0 / hz_);
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
    WaitProfile p;
    if (!error_.empty()) {
        p.unavailable = error_;
        return p;
    }
    if (samples_ < 2) {
        p.unavailable = "the window was too short for two samples at " + formatNumber("%.0f", hz_) + " Hz";
        return p;
    }
    p.source = "pg_stat_activity";
    p.hz = hz_;
    p.samples = samples_;
    p.seconds = lastS_ - firstS_;
    for (const auto& [key, n] : counts_) {
        const auto& [backend, type, event, queryId] = key;
        p.counts.push_back({backend, type, event, queryId, n});
    }
    return p;
}

} // namespace scalelab
