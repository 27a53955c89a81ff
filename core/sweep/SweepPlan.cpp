#include "sweep/SweepPlan.h"

#include "load/data/TpccResults.h"
#include "load/data/TpccScripts.h"

#include "load/LoadSpec.h"
#include "server/Conninfo.h"
#include "server/DataDirectory.h"
#include "sweep/PlanReader.h"
#include "topo/Placement.h"
#include "util/Error.h"
#include "util/Format.h"

#include <algorithm>
#include <cctype>
#include <set>

// parsePlan reads the plan by its sections, in docs/sweeps.md's order: target, workload,
// series, hosts, grid (clients, threads, length, rounds, order), precision, settle and data.
// Each section checks its own members; a rule across sections is checked where the later of
// them is read.
namespace scalelab {

int ThreadsRule::threadsFor(int clients, int loadGeneratorPus) const {
    switch (kind) {
    case Kind::PerClient: return clients;
    case Kind::PerPu: return std::max(1, std::min(clients, loadGeneratorPus));
    case Kind::Fixed: return std::min(clients, count);
    }
    return 1;
}

namespace {

using json = nlohmann::json;
using plan::fail;

// The known name nearest to `name` by edits (insert, delete, replace, swap two neighbours), when
// it is near enough to be a typo: at most 1 edit for names up to 4 letters, 2 up to 10, 3 beyond.
// "" when none is. Names are compared lower-cased, as PostgreSQL compares them.
std::string nearestName(const std::string& name, const std::set<std::string>& known) {
    auto lower = [](std::string s) {
        for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return s;
    };
    const std::string a = lower(name);
    const size_t limit = a.size() <= 4 ? 1 : a.size() <= 10 ? 2 : 3;
    std::string best;
    size_t bestDistance = limit + 1;
    for (const auto& candidate : known) {
        const std::string b = lower(candidate);
        if (b.size() > a.size() + limit || a.size() > b.size() + limit) continue;
        // Optimal string alignment distance.
        std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
        for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
        for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
        for (size_t i = 1; i <= a.size(); ++i)
            for (size_t j = 1; j <= b.size(); ++j) {
                size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
                d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
                if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
            }
        if (d[a.size()][b.size()] < bestDistance) bestDistance = d[a.size()][b.size()], best = candidate;
    }
    return best;
}

// A path the embedded server hands to pg_ctl's shell (server/DataDirectory.h), refused here
// with its JSON path before any run.
std::string shellSafePath(const std::string& value, const std::string& path, const std::string& what) {
    try {
        refuseShellCharacters(value, what);
    } catch (const Error& e) {
        fail(path, e.what());
    }
    return value;
}
using plan::Reader;

// A sweep is planned run by run: a count that could never finish (or overflow an int) is a
// mistake in the plan, said here rather than found by a machine that runs out of memory.
constexpr int64_t kMaxRuns = 1000000;

int64_t runsPerRound(const SweepPlan& p) {
    return static_cast<int64_t>(p.series.size()) * static_cast<int64_t>(p.clients.size()) *
           static_cast<int64_t>(p.rates.size());
}

void readVersion(Reader& root) {
    const json* version = root.get("version");
    if (!version) fail("$.version", "missing: the plan's format version (1)");
    if (!version->is_number_integer() || version->get<int>() != 1)
        fail("$.version", "this ScaleLab reads plans of version 1, found " + version->dump());
}

// $.target: the server (a conninfo of the user's, or the embedded server here or on a server
// host), its settings and what is measured there.
void readTarget(const json* t, SweepPlan& p) {
    Reader target(*t, "$.target");
    p.conninfo = target.string("conninfo", "");
    // An empty string is not the embedded server in disguise: a remote target left blank.
    if (t->is_object() && t->contains("conninfo") && p.conninfo.find_first_not_of(" \t\r\n") == std::string::npos)
        fail("$.target.conninfo", "is empty: give a connection string, or leave conninfo out for the embedded server");
    if (!p.conninfo.empty()) {
        bool password = false;
        try {
            password = conninfoHasPassword(p.conninfo);  // libpq's parser: key=value and URIs
        } catch (const Error& e) {
            fail("$.target.conninfo", std::string("not a connection string libpq reads: ") + e.what());
        }
        if (password)
            fail("$.target.conninfo", "holds a password; ScaleLab never stores one: use ~/.pgpass, PGPASSFILE or PGPASSWORD");
    }
    std::string data = target.string("data_dir", ""), bindir = target.string("pg_bindir", "");
    if (!data.empty()) p.dataDir = shellSafePath(data, "$.target.data_dir", "the data directory");
    if (!bindir.empty()) p.pgBindir = shellSafePath(bindir, "$.target.pg_bindir", "PostgreSQL's program directory");
    p.serverSettings = target.settings("settings");
    p.reconnectS = target.number("reconnect", p.reconnectS, 0, "at least 0");
    p.statements = target.boolean("statements", p.statements);
    if (!p.conninfo.empty() && (p.dataDir || p.pgBindir))
        fail("$.target", "give either conninfo (a server of yours) or data_dir/pg_bindir (the embedded server), not both");
    if (p.conninfo.empty() && t->contains("reconnect"))
        fail("$.target.reconnect", "applies to a server of yours (target.conninfo); the embedded server is restarted at once");
    if (const json* mh = target.get("metrics_host")) {
        if (p.conninfo.empty())
            fail("$.target.metrics_host", "is for a server of yours on another machine (target.conninfo); the embedded "
                                          "server runs here, and its machine is measured here");
        p.metricsHost = parseMetricsHostPlan(*mh, "$.target.metrics_host");
    }
    if (const json* sh = target.get("host")) {
        if (!p.conninfo.empty())
            fail("$.target.host", "runs ScaleLab's embedded server on that machine; a server of yours (target.conninfo) "
                                  "is measured there with target.metrics_host instead");
        p.serverHost = parseMetricsHostPlan(*sh, "$.target.host", true);
    }
    target.finish();
}

// $.workload: the scripts and how they run.
void readWorkload(const json* w, SweepPlan& p) {
    Reader wl(*w, "$.workload");
    std::string kind = wl.string("kind", "pgbench");
    if (kind != "pgbench" && kind != tpcc::kScriptSet)
        fail("$.workload.kind", "expected \"pgbench\" (pgbench's scripts or yours) or \"tprocc\" (TPROC-C's), found \"" + kind + "\"");
    if (kind == tpcc::kScriptSet) {
        p.scriptSet = kind;
        for (const char* own : {"builtin", "files", "replay", "scale"})
            if (wl.has(own))
                fail(wl.at(own), "TPROC-C (workload.kind \"tprocc\") runs its own scripts on its own tables: drop builtin, files, "
                                 "replay and scale");
    }
    if (wl.has("keying_thinking") && !p.tprocc())
        fail("$.workload.keying_thinking", "gives TPROC-C's transactions their terminal times: it goes with workload.kind \"tprocc\"");
    p.keyingThinking = wl.number("keying_thinking", 0, 0, "from 0 (none) to 100 times the specification's times");
    if (p.keyingThinking > 100) fail("$.workload.keying_thinking", "must be from 0 (none) to 100 times the specification's times");
    p.builtins = wl.strings("builtin");
    p.files = wl.strings("files");
    p.replay = wl.string("replay", "");
    if (const json* d = wl.get("define")) {
        if (!d->is_object()) fail("$.workload.define", "expected an object of variable names and values, e.g. {\"aid\": 1}");
        for (auto it = d->begin(); it != d->end(); ++it) {
            if (!isValidVariableName(it.key())) fail("$.workload.define." + it.key(), "invalid variable name");
            if (!it->is_string() && !it->is_number() && !it->is_boolean())
                fail("$.workload.define." + it.key(), "expected a string, number or boolean value");
            p.defines.push_back(it.key() + "=" + (it->is_string() ? it->get<std::string>() : it->dump()));
        }
    }
    p.shuffle = wl.boolean("shuffle", false);
    readRunSettings(wl, "workload", p);  // mode, engine, max_tries, latency_limit, ...: RunSettings.cpp
    // One rate for every run, or a list: the offered-load axis of the grid (docs/sweeps.md).
    if (const json* rate = wl.get("rate"); rate && !rate->is_number()) p.rates = parseRates(*rate, "$.workload.rate");
    else p.rates = {wl.number("rate", 0, 0, "0 (unthrottled) or more transactions per second, or a list of rates")};
    if (p.keyingThinking > 0 && std::any_of(p.rates.begin(), p.rates.end(), [](double r) { return r > 0; }))
        fail("$.workload.keying_thinking", "keying and thinking times pace each client themselves: drop workload.rate, or the times");
    p.scriptScale = wl.integer("scale", 0, 1);  // 0: not given
    for (size_t i = 0; i < p.builtins.size(); ++i) {
        try {
            VariableTable vars;
            builtinScript(splitWeight(p.builtins[i]).first, vars);
        } catch (const Error& e) {
            fail("$.workload.builtin[" + std::to_string(i) + "]", e.what());
        }
    }
    if (!p.replay.empty() && (!p.builtins.empty() || !p.files.empty()))
        fail("$.workload.replay", "a replay runs on its own: drop builtin and files");
    if (!p.replay.empty() && p.mode == QueryMode::Prepared)
        fail("$.workload.mode", "a replay file runs in simple or extended mode");
    wl.finish();
}

// $.series: their labels, placements and per-series server. Returns the labels.
std::set<std::string> readSeries(Reader& root, SweepPlan& p) {
    const json* series = root.get("series");
    if (!series || !series->is_array() || series->empty())
        fail("$.series", "expected a non-empty array of series, e.g. [{\"label\": \"SMT on\", \"placement\": \"smt-on\"}]");
    std::set<std::string> labels;
    for (size_t i = 0; i < series->size(); ++i) {
        std::string path = "$.series[" + std::to_string(i) + "]";
        Reader sr((*series)[i], path);
        SeriesSpec s;
        s.label = sr.string("label", "");
        if (s.label.empty()) fail(sr.at("label"), "every series needs a label");
        if (!labels.insert(s.label).second) fail(sr.at("label"), "'" + s.label + "' is the label of an earlier series too");
        s.placement = sr.string("placement", "");
        s.separate = sr.boolean("separate", false);
        s.realSmt = sr.boolean("real_smt", false);
        s.offlineCpus = sr.boolean("offline_cpus", false);
        if (!s.placement.empty()) {
            try {
                parsePlacement(s.placement, s.separate);
            } catch (const Error& e) {
                fail(sr.at("placement"), e.what());
            }
        }
        if ((s.separate || s.realSmt || s.offlineCpus) && s.placement.empty())
            fail(path, "separate, real_smt and offline_cpus need a placement");
        if (s.realSmt && s.offlineCpus)
            fail(sr.at("offline_cpus"), "real_smt and offline_cpus are two ways of doing one thing: choose one");
        if (s.realSmt && s.placement != "smt-on" && s.placement != "smt-off")
            fail(sr.at("real_smt"), "goes with the placements smt-on and smt-off");
        s.settings = sr.settings("settings");
        std::string data = sr.string("data_dir", ""), bindir = sr.string("pg_bindir", "");
        if (!data.empty()) s.dataDir = shellSafePath(data, path + ".data_dir", "the data directory");
        if (!bindir.empty()) s.pgBindir = shellSafePath(bindir, path + ".pg_bindir", "PostgreSQL's program directory");
        if ((s.dataDir || s.pgBindir) && !p.conninfo.empty())
            fail(path, "data_dir and pg_bindir choose an embedded server; the target is a conninfo");
        sr.finish();
        p.series.push_back(std::move(s));
    }
    return labels;
}

// Where the server and the clients run against the series' placements; $.load_hosts.
void readHosts(Reader& root, SweepPlan& p) {
    // On a server host a series' placement is the server's there (its agent binds it, and
    // switches that machine's SMT or CPUs); the clients run here, unplaced: none to separate.
    if (p.serverHost)
        for (size_t i = 0; i < p.series.size(); ++i)
            if (p.series[i].separate)
                fail("$.series[" + std::to_string(i) + "].separate",
                     "separate keeps the load generator off the server's cores; with a server host (target.host) the "
                     "clients run on this machine, not the server's");
    if (const json* hosts = root.get("load_hosts")) {
        p.loadHosts = parseLoadHostsPlan(*hosts);
        // On a server host a placement is the server's there; here it would place this machine's
        // load generator, which runs elsewhere.
        for (size_t i = 0; i < p.series.size() && !p.serverHost; ++i)
            if (!p.series[i].placement.empty())
                fail("$.series[" + std::to_string(i) + "].placement", "places this machine's load generator: with load_hosts the clients run elsewhere");
        // A server host's server listens on every address, reached with its password (docs/hosts.md).
        for (size_t i = 0; i < p.loadHosts->hosts.size() && !p.serverHost; ++i)
            if (p.conninfo.empty() && p.loadHosts->hosts[i] != "local")
                fail("$.load_hosts", "the embedded server listens on this machine only: give target.conninfo, a server " +
                                         p.loadHosts->hosts[i] + " can reach");
    }
}

// The grid and each run's length: clients, threads, duration or transactions, warm-up,
// rounds, order, seed, sampling.
void readGrid(Reader& root, SweepPlan& p) {
    const json* clients = root.get("clients");
    if (!clients) fail("$.clients", "missing: the client counts, e.g. \"1-64 x2\"");
    p.clients = parseClientCounts(*clients, "$.clients");
    if (p.loadHosts)
        for (int c : p.clients)
            if (c < static_cast<int>(p.loadHosts->hosts.size()))
                fail("$.clients", std::to_string(c) + " clients cannot be shared over " + std::to_string(p.loadHosts->hosts.size()) +
                                      " load hosts: each needs at least one");

    if (const json* th = root.get("threads")) {
        if (th->is_number_integer() && th->get<int64_t>() > 100000) {  // as clients: more threads than that is a typo
            fail("$.threads", "at most 100000 threads, found " + th->dump());
        } else if (th->is_number_integer() && th->get<int64_t>() >= 1) {
            p.threads.kind = ThreadsRule::Kind::Fixed;
            p.threads.count = th->get<int>();
        } else if (*th == "clients") {
            p.threads.kind = ThreadsRule::Kind::PerClient;
        } else if (*th == "pus") {
            p.threads.kind = ThreadsRule::Kind::PerPu;
        } else {
            fail("$.threads", "expected a positive number of threads, \"clients\" (one per client) or \"pus\" "
                              "(one per load-generator PU), found " + th->dump());
        }
    } else {
        p.threads.kind = ThreadsRule::Kind::PerPu;
    }

    readRunSettings(root, "", p);  // duration, transactions, warmup, sample_interval: RunSettings.cpp
    if ((p.durationS > 0) == (p.transactionsPerClient > 0))
        fail("$", "give either duration (seconds) or transactions (per client), not both or neither");
    if (p.warmupS > 0 && p.durationS == 0) fail("$.warmup", "a warm-up needs a timed run (duration)");
    if (p.durationS > 0 && p.warmupS >= p.durationS) fail("$.warmup", "must be shorter than the duration");
    if (p.maxTries == 0 && p.durationS == 0 && p.latencyLimitMs == 0)
        fail("$.workload.max_tries", "0 (no limit) needs a duration or $.workload.latency_limit, as pgbench's "
                                     "--max-tries 0 needs -T or -L");
    int64_t repetitions = root.integer("repetitions", 1, 1);
    int64_t perRound = runsPerRound(p);
    if (repetitions > kMaxRuns || repetitions * std::max<int64_t>(1, perRound) > kMaxRuns)
        fail("$.repetitions", std::to_string(repetitions) + " rounds of " + std::to_string(perRound) +
                                  " runs are more than the " + std::to_string(kMaxRuns) + " runs one sweep may plan");
    p.repetitions = static_cast<int>(repetitions);
    std::string order = root.string("order", "interleaved");
    if (order != "interleaved" && order != "sequential")
        fail("$.order", "expected \"interleaved\" or \"sequential\", found \"" + order + "\"");
    p.interleaved = order == "interleaved";
    if (const json* seed = root.get("seed")) {
        if (!seed->is_number_unsigned() && !(seed->is_number_integer() && seed->get<int64_t>() >= 0))
            fail("$.seed", "expected a non-negative integer, found " + seed->dump());
        p.seed = seed->get<uint64_t>();
    }
}

// $.precision: the rule that adds rounds until intervals are narrow enough.
void readPrecision(const json* precision, SweepPlan& p, const std::set<std::string>& labels) {
    Reader pr(*precision, "$.precision");
    PrecisionRule rule;
    rule.targetPct = pr.number("target", 0, 0, "a percentage above 0");
    if (!(rule.targetPct > 0 && rule.targetPct <= 100))
        fail("$.precision.target", "expected the interval's half-width to reach, as a % of the mean, above 0 and at most 100");
    if (!pr.has("max_repetitions"))
        fail("$.precision.max_repetitions", "missing: the most rounds any point may run (at least $.repetitions)");
    int64_t most = pr.integer("max_repetitions", 0, 2);
    int64_t repetitions = p.repetitions, perRound = runsPerRound(p);
    if (most < repetitions)
        fail("$.precision.max_repetitions", "must be at least $.repetitions (" + std::to_string(repetitions) + "), got " +
                                                std::to_string(most));
    if (most * std::max<int64_t>(1, perRound) > kMaxRuns)
        fail("$.precision.max_repetitions", std::to_string(most) + " rounds of " + std::to_string(perRound) +
                                                " runs are more than the " + std::to_string(kMaxRuns) +
                                                " runs one sweep may plan");
    rule.maxRepetitions = static_cast<int>(most);
    std::vector<std::string> compare = pr.strings("compare");
    if (!compare.empty()) {
        if (compare.size() != 2 || compare[0] == compare[1])
            fail("$.precision.compare", "expected two different series labels: [baseline, candidate]");
        for (size_t i = 0; i < 2; ++i)
            if (!labels.count(compare[i]))
                fail("$.precision.compare[" + std::to_string(i) + "]", "no series labelled \"" + compare[i] + "\"");
        rule.baseline = compare[0], rule.candidate = compare[1];
    }
    rule.paired = pr.boolean("paired", false);
    if (pr.has("equivalence")) {
        double margin = pr.number("equivalence", 0, 0, "a margin in %");
        if (!(margin > 0 && margin < 100))
            fail("$.precision.equivalence", "expected the margin of \"the same within X%\", above 0 and below 100");
        if (compare.empty())
            fail("$.precision.equivalence", "needs $.precision.compare: the two series to hold the same");
        rule.equivalencePct = margin;
    }
    if (rule.paired && compare.empty())
        fail("$.precision.paired", "needs $.precision.compare: the two series to pair by round");
    if (!p.interleaved)
        fail("$.precision", "added rounds keep the interleaved order, so drift hits every series alike: "
                            "use \"order\": \"interleaved\"");
    pr.finish();
    p.precision = rule;
}

// $.retries, $.settle and $.data.
void readSettleAndData(Reader& root, SweepPlan& p) {
    p.retries = static_cast<int>(root.integer("retries", 1, 0));
    if (const json* settle = root.get("settle")) {
        Reader st(*settle, "$.settle");
        p.checkpoint = st.boolean("checkpoint", false);
        p.pauseS = st.number("pause", 0, 0, "0 or more seconds");
        st.finish();
    }
    if (const json* data = root.get("data")) {
        Reader d(*data, "$.data");
        if (p.tprocc() && d.has("scale"))
            fail("$.data.scale", "is pgbench's data size; TPROC-C's is data.warehouses");
        if (!p.tprocc() && d.has("warehouses"))
            fail("$.data.warehouses", "is TPROC-C's data size (workload.kind \"tprocc\"); pgbench's is data.scale");
        if (const json* wh = d.get("warehouses")) {
            if (!wh->is_number_integer() || wh->get<int64_t>() < 1 || wh->get<int64_t>() > 100000)
                fail("$.data.warehouses", "expected a whole number of warehouses from 1 to 100000, found " + wh->dump());
            p.warehouses = wh->get<int>();
        }
        // One scale, or a list: the data-size axis of the grid (docs/sweeps.md, "Data-size sweeps").
        if (const json* sc = d.get("scale"); sc && !sc->is_number()) p.scales = parseScales(*sc, "$.data.scale");
        else p.scales = {d.integer("scale", 10, 1)};
        std::string policy = d.string("init", "if-missing");
        if (policy != "if-missing" && policy != "reinit")
            fail("$.data.init", "expected \"if-missing\" (use the tables that are there) or \"reinit\" (re-create them)");
        p.reinit = policy == "reinit";
        d.finish();
    }
}

// A list of data scales across the sections it touches.
void checkScales(const SweepPlan& p) {
if (p.scales.size() > 1) {
    // Each scale's data is built before its runs (the tables dropped and made again).
    if (p.builtins.empty())
        fail("$.data.scale", "a list of scales builds pgbench's tables for the built-in scripts at each; custom "
                             "scripts alone take their :scale from $.workload.scale");
    if (!p.embedded() && !p.reinit)
        fail("$.data.scale", "a list of scales drops and rebuilds the pgbench tables at each scale: on a server of "
                             "yours (target.conninfo) say so with \"init\": \"reinit\" in $.data");
    int64_t runs = static_cast<int64_t>(p.repetitions) * static_cast<int64_t>(p.series.size()) *
                   static_cast<int64_t>(p.clients.size()) * static_cast<int64_t>(p.rates.size()) *
                   static_cast<int64_t>(p.scales.size());
    if (runs > kMaxRuns)
        fail("$.data.scale", std::to_string(runs) + " runs are more than the " + std::to_string(kMaxRuns) +
                                 " runs one sweep may plan");
    if (p.precision) {
        int64_t most = static_cast<int64_t>(p.precision->maxRepetitions) * (runs / p.repetitions);
        if (most > kMaxRuns)
            fail("$.precision.max_repetitions", std::to_string(p.precision->maxRepetitions) + " rounds of " +
                                                    std::to_string(runs / p.repetitions) + " runs are more than the " +
                                                    std::to_string(kMaxRuns) + " runs one sweep may plan");
    }
}
}

} // namespace

SweepPlan parsePlan(const json& j) {
    SweepPlan p;
    p.json = j;
    Reader root(j, "$");
    readVersion(root);
    if (const json* t = root.get("target")) readTarget(t, p);
    if (const json* w = root.get("workload")) readWorkload(w, p);
    if (p.builtins.empty() && p.files.empty() && p.replay.empty() && !p.tprocc()) p.builtins = {"tpcb-like"};
    std::set<std::string> labels = readSeries(root, p);
    readHosts(root, p);
    readGrid(root, p);
    if (const json* precision = root.get("precision")) readPrecision(precision, p, labels);
    if (const json* d = root.get("diagnostics")) {
        // Why the curve bends (issue 62): where the sessions wait, on unless said otherwise.
        Reader diagnostics(*d, "$.diagnostics");
        p.waits = diagnostics.boolean("waits", p.waits);
        std::string source = diagnostics.string("waits_source", "auto");
        if (source == "pg_wait_sampling") p.waitSource = WaitSource::WaitSampling;
        else if (source == "pg_stat_activity") p.waitSource = WaitSource::Activity;
        else if (source != "auto")
            fail(diagnostics.at("waits_source"), "must be \"auto\", \"pg_wait_sampling\" or \"pg_stat_activity\" (got \"" + source + "\")");
        p.cpuProfile = diagnostics.boolean("cpu_profile", p.cpuProfile);
        p.profileHz = diagnostics.number("profile_hz", p.profileHz, 1, "from 1 to 1000 samples a second");
        if (p.profileHz > 1000)
            fail(diagnostics.at("profile_hz"), "must be from 1 to 1000 samples a second (got " + formatNumber("%g", p.profileHz) + ")");
        diagnostics.finish();
    }
    readSettleAndData(root, p);
    checkScales(p);
    root.finish();
    return p;
}

bool SweepPlan::tprocc() const { return tpcc::isTprocc(scriptSet); }

Workload SweepPlan::workload() const {
    if (!replay.empty()) return Workload::replayFile(replay, shuffle);
    Workload w;
    if (tprocc()) tpcc::addScripts(w, keyingThinking);  // their run variables come from the data, per run
    for (const auto& b : builtins) w.addBuiltin(b);
    for (const auto& f : files) w.addScriptFile(f);
    for (const auto& d : defines) w.define(d);
    return w;
}

void checkSettingNames(const std::vector<Setting>& settings, const std::string& path, const std::set<std::string>& known) {
    for (const auto& s : settings)
        if (s.name.find('.') == std::string::npos && !known.count(s.name)) {
            std::string near = nearestName(s.name, known);
            fail(path + "." + s.name, "unknown server setting (PostgreSQL has no parameter '" + s.name + "'" +
                                          (near.empty() ? std::string(")") : "; did you mean " + near + "?)"));
        }
}

void checkSettingNames(const SweepPlan& plan, const std::set<std::string>& known) {
    checkSettingNames(plan.serverSettings, "$.target.settings", known);
    for (size_t i = 0; i < plan.series.size(); ++i)
        checkSettingNames(plan.series[i].settings, "$.series[" + std::to_string(i) + "].settings", known);
}

} // namespace scalelab
