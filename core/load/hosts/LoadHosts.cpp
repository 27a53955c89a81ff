#include "load/hosts/LoadHosts.h"

#include "util/Error.h"

#include <algorithm>

namespace scalelab {
namespace {
LatencyHistogram histogramOf(const std::optional<HistogramData>& data, const char* what) {
    if (!data) throw Error(std::string("a load host's ") + what + " carries no latency histogram: it cannot be merged exactly");
    return LatencyHistogram::fromData(*data);
}

// Contiguous shares of `total` over `parts`, sizes differing by at most one, the larger first.
std::vector<int> shares(int total, size_t parts) {
    std::vector<int> out;
    int left = total;
    for (size_t i = 0; i < parts; ++i) {
        int remaining = static_cast<int>(parts - i);
        int n = (left + remaining - 1) / remaining;
        out.push_back(n);
        left -= n;
    }
    return out;
}
// Per script: the same scripts on every host; counts add, latencies merge bucket by bucket.
std::vector<ScriptReport> mergeScripts(const std::vector<LoadResult>& parts) {
    std::vector<ScriptReport> m;
    for (const auto& s : parts.front().scripts) {
        ScriptReport named;
        named.name = s.name;
        named.weight = s.weight;
        m.push_back(std::move(named));
    }
    std::vector<LatencyHistogram> latency(m.size());
    for (const LoadResult& p : parts) {
        if (p.scripts.size() != m.size()) throw Error("load hosts report different scripts: different workloads?");
        for (size_t i = 0; i < m.size(); ++i) {
            const ScriptReport& s = p.scripts[i];
            if (s.name != m[i].name) throw Error("load hosts report different scripts: '" + s.name + "' and '" + m[i].name + "'");
            m[i].failures.serialization += s.failures.serialization;
            m[i].failures.deadlock += s.failures.deadlock;
            m[i].failures.other += s.failures.other;
            m[i].retriedTransactions += s.retriedTransactions;
            m[i].retries += s.retries;
            m[i].skipped += s.skipped;
            latency[i].merge(histogramOf(s.histogram, "script"));
        }
    }
    for (size_t i = 0; i < m.size(); ++i) {
        m[i].transactions = latency[i].count();
        m[i].latency = latency[i].summary();
        m[i].histogram = latency[i].data();
    }
    return m;
}
} // namespace

std::vector<HostShare> shareClients(const std::vector<std::string>& hosts, int clients, int threads) {
    if (hosts.empty()) throw Error("no load hosts given");
    if (clients < static_cast<int>(hosts.size()))
        throw Error(std::to_string(clients) + " clients cannot be shared over " + std::to_string(hosts.size()) +
                    " load hosts: each needs at least one");
    std::vector<int> c = shares(clients, hosts.size());
    std::vector<int> t = shares(std::max(threads, static_cast<int>(hosts.size())), hosts.size());
    std::vector<HostShare> out;
    int offset = 0;
    for (size_t i = 0; i < hosts.size(); ++i) {
        HostShare s;
        s.host = hosts[i];
        s.clients = c[i];
        s.threads = std::min(t[i], c[i]);
        s.clientIdOffset = offset;
        offset += c[i];
        out.push_back(s);
    }
    return out;
}

LoadSample mergeHostSamples(const std::vector<const LoadSample*>& samples) {
    LoadSample m;
    LatencyHistogram latency;
    bool first = true;
    for (const LoadSample* s : samples) {
        if (!s) continue;
        m.startS = first ? s->startS : std::min(m.startS, s->startS);
        m.endS = first ? s->endS : std::max(m.endS, s->endS);
        m.warmup = first ? s->warmup : (m.warmup && s->warmup);
        first = false;
        m.transactions += s->transactions;
        m.failures += s->failures;
        m.retries += s->retries;
        m.skipped += s->skipped;
        latency.merge(histogramOf(s->histogram, "sample"));
        // Every host runs the same scripts: their counts add up per script.
        if (s->scriptTransactions.size() > m.scriptTransactions.size()) m.scriptTransactions.resize(s->scriptTransactions.size());
        for (size_t i = 0; i < s->scriptTransactions.size(); ++i) m.scriptTransactions[i] += s->scriptTransactions[i];
    }
    m.tps = m.endS > m.startS ? static_cast<double>(m.transactions) / (m.endS - m.startS) : 0;
    m.latency = latency.summary();
    m.histogram = latency.data();
    return m;
}

LoadResult mergeHostResults(const std::vector<LoadResult>& parts) {
    if (parts.empty()) throw Error("no load host results to merge");
    LoadResult m;
    const LoadResult& one = parts.front();
    m.mode = one.mode;
    m.workload = one.workload;
    m.scale = one.scale;
    m.seed = one.seed;
    LatencyHistogram latency;
    double lagWeighted = 0;
    size_t samples = 0;
    for (const LoadResult& p : parts) {
        if (p.status == RunStatus::Failed && m.status != RunStatus::Failed) {
            m.status = RunStatus::Failed;
            m.error = p.error;
        } else if (p.status == RunStatus::Stopped && m.status == RunStatus::Completed) {
            m.status = RunStatus::Stopped;
        }
        m.clients += p.clients;
        m.threads += p.threads;
        m.rate += p.rate;  // each host offers its share of the rate
        m.connectSeconds = std::max(m.connectSeconds, p.connectSeconds);
        m.measuredSeconds = std::max(m.measuredSeconds, p.measuredSeconds);
        m.transactions += p.transactions;
        latency.merge(histogramOf(p.histogram, "result"));
        m.failures.serialization += p.failures.serialization;
        m.failures.deadlock += p.failures.deadlock;
        m.failures.other += p.failures.other;
        m.retries += p.retries;
        m.retriedTransactions += p.retriedTransactions;
        if (m.firstErrorMessage.empty()) m.firstErrorMessage = p.firstErrorMessage;
        // The lag is measured for each committed transaction: weighted by them, the mean is
        // the whole run's.
        lagWeighted += p.lagMeanMs * static_cast<double>(p.transactions);
        m.lagMaxMs = std::max(m.lagMaxMs, p.lagMaxMs);
        m.skipped += p.skipped;
        m.late += p.late;
        m.abortedClients += p.abortedClients;
        if (m.firstAbort.empty()) m.firstAbort = p.firstAbort;
        m.connectionSecondsTotal += p.connectionSecondsTotal;
        // Every host's engine: one word when they agree, else "wire+libpq".
        if (m.engine.empty()) m.engine = p.engine;
        else if (!p.engine.empty() && p.engine != m.engine) m.engine = "wire+libpq";
        if (m.engineWhy.empty()) m.engineWhy = p.engineWhy;
        for (const auto& h : p.housekeeping) m.housekeeping.push_back(h);
        samples = std::max(samples, p.samples.size());
    }
    if (m.transactions != latency.count())
        throw Error("load host results: " + std::to_string(m.transactions) + " transactions but " +
                    std::to_string(latency.count()) + " latencies");
    m.tps = m.measuredSeconds > 0 ? static_cast<double>(m.transactions) / m.measuredSeconds : 0;
    m.latency = latency.summary();
    m.histogram = latency.data();
    m.lagMeanMs = m.transactions ? lagWeighted / static_cast<double>(m.transactions) : 0;
    // -r: the same commands on every host; counts add, means weighted by their counts.
    m.commands = one.commands;
    for (auto& c : m.commands) c.count = 0, c.failures = 0, c.retries = 0, c.meanMs = 0;
    std::vector<double> sums(m.commands.size(), 0);
    for (const LoadResult& p : parts) {
        if (p.commands.size() != m.commands.size()) throw Error("load hosts report different commands (-r): different scripts?");
        for (size_t i = 0; i < p.commands.size(); ++i) {
            m.commands[i].count += p.commands[i].count;
            m.commands[i].failures += p.commands[i].failures;
            m.commands[i].retries += p.commands[i].retries;
            sums[i] += p.commands[i].meanMs * static_cast<double>(p.commands[i].count);
        }
    }
    for (size_t i = 0; i < m.commands.size(); ++i)
        if (m.commands[i].count) m.commands[i].meanMs = sums[i] / static_cast<double>(m.commands[i].count);
    m.scriptSet = one.scriptSet;
    m.keyingThinking = one.keyingThinking;
    m.scripts = mergeScripts(parts);
    for (size_t i = 0; i < samples; ++i) {
        std::vector<const LoadSample*> at;
        for (const LoadResult& p : parts) at.push_back(i < p.samples.size() ? &p.samples[i] : nullptr);
        m.samples.push_back(mergeHostSamples(at));
    }
    return m;
}

ClockOffset clockOffset(const std::vector<ClockReading>& readings) {
    if (readings.empty()) throw Error("no clock readings");
    const ClockReading* best = &readings.front();
    for (const auto& r : readings)
        if (r.receivedNs - r.sentNs < best->receivedNs - best->sentNs) best = &r;
    int64_t rtt = best->receivedNs - best->sentNs;
    return {best->hostNs - (best->sentNs + rtt / 2), rtt / 2};
}

} // namespace scalelab
