#include "load/RunSettings.h"

#include "util/Error.h"
#include "util/Format.h"
#include "util/Overload.h"

#include <climits>
#include <cmath>
#include <limits>
#include <type_traits>

namespace scalelab {

const char* loadEngineName(LoadEngine engine) {
    switch (engine) {
    case LoadEngine::Auto: return "auto";
    case LoadEngine::Wire: return "wire";
    case LoadEngine::Libpq: return "libpq";
    }
    return "?";
}

std::optional<LoadEngine> loadEngineFromName(std::string_view name) {
    for (LoadEngine e : {LoadEngine::Auto, LoadEngine::Wire, LoadEngine::Libpq})
        if (name == loadEngineName(e)) return e;
    return std::nullopt;
}

std::string RunSettingChoice::list() const {
    std::string out;
    for (const auto& [word, value] : names) out += (out.empty() ? "" : ", ") + std::string(word);
    return out;
}

const char* RunSettingChoice::nameOf(int value) const {
    for (const auto& [word, v] : names)
        if (v == value) return word;
    return "?";
}

std::optional<int> RunSettingChoice::valueOf(std::string_view word) const {
    for (const auto& [w, v] : names)
        if (word == w) return v;
    return std::nullopt;
}

namespace {

// An enum member as a choice: its values in the order listed, each by its own name function's
// word (queryModeName, loadEngineName, runVacuumName), so the words live in one place.
template <class E, E RunSettings::*member>
RunSettingChoice choice(std::initializer_list<E> values, const char* (*word)(E)) {
    RunSettingChoice c;
    for (E e : values) c.names.emplace_back(word(e), static_cast<int>(e));
    c.get = [](const RunSettings& s) { return static_cast<int>(s.*member); };
    c.set = [](RunSettings& s, int v) { s.*member = static_cast<E>(v); };
    return c;
}

RunSettingRow flag(const char* noun, const char* cli, const char* job, const char* doc, bool RunSettings::*member) {
    RunSettingRow r{noun, cli, "", job, doc, member};
    return r;
}

std::vector<RunSettingRow> makeRows() {
    std::vector<RunSettingRow> rows;
    rows.push_back({"query mode", "-M,--protocol", "workload.mode", "query_mode", "Query mode: simple, extended or prepared",
                    choice<QueryMode, &RunSettings::mode>({QueryMode::Simple, QueryMode::Extended, QueryMode::Prepared}, queryModeName)});
    rows.push_back({"engine", "--engine", "workload.engine", "engine",
                    "How the clients speak once connected: auto (wire where it can), wire (ScaleLab reads and writes the "
                    "protocol itself) or libpq; docs/load-engines.md",
                    choice<LoadEngine, &RunSettings::engine>({LoadEngine::Auto, LoadEngine::Wire, LoadEngine::Libpq}, loadEngineName)});

    RunSettingRow duration{"duration", "-T,--time", "duration", "duration_s", "Duration in seconds", &RunSettings::durationS};
    duration.minExclusive = true;
    duration.max = kMaxDurationS;
    duration.rule = "a positive number of seconds";
    duration.maxText = " s, pgbench's -T limit";
    rows.push_back(duration);

    RunSettingRow transactions{"transactions", "-t,--transactions", "transactions", "transactions_per_client",
                               "Transactions per client", &RunSettings::transactionsPerClient};
    transactions.min = 1;
    transactions.max = static_cast<double>(kMaxTransactionsPerClient);
    transactions.rule = "at least 1";
    transactions.maxText = " per client, pgbench's -t limit";
    rows.push_back(transactions);

    RunSettingRow warmup{"warm-up", "--warmup", "warmup", "warmup_s", "Seconds at the start that run but are not counted",
                         &RunSettings::warmupS};
    warmup.max = kMaxDurationS;
    warmup.rule = "0 or more seconds";
    warmup.maxText = " s, pgbench's -T limit";
    rows.push_back(warmup);

    RunSettingRow latencyLimit{"latency limit", "-L,--latency-limit", "workload.latency_limit", "latency_limit_ms",
                               "Count transactions above this many ms as late; with -R, skip slots already that late",
                               &RunSettings::latencyLimitMs};
    latencyLimit.minExclusive = true;
    latencyLimit.max = kMaxDurationS * 1000;
    latencyLimit.rule = "a positive number of milliseconds";
    latencyLimit.maxText = " ms, the longest duration";
    latencyLimit.zeroIsNone = true;
    rows.push_back(latencyLimit);

    RunSettingRow maxTries{"max tries", "--max-tries", "workload.max_tries", "max_tries",
                           "Tries of a transaction failing by serialization or deadlock (0: no limit, with -T or -L)",
                           &RunSettings::maxTries};
    maxTries.max = INT_MAX;
    maxTries.rule = "0 (no limit) or more";
    rows.push_back(maxTries);

    // No option of the command line: a run there reports its failures and lets the reader judge.
    RunSettingRow maxFailed{"the allowed share of failed transactions", "", "workload.max_failed_pct", "max_failed_pct", "",
                            &RunSettings::maxFailedPct};
    maxFailed.max = 100;
    maxFailed.rule = "a percentage from 0 to 100";
    rows.push_back(maxFailed);

    // The command line's -P prints progress lines as well: app/LoadCommands.cpp sets it.
    RunSettingRow sampleInterval{"sample interval", "", "sample_interval", "sample_interval_s", "", &RunSettings::sampleIntervalS};
    sampleInterval.min = 0.05;
    sampleInterval.max = kMaxDurationS;
    sampleInterval.rule = "at least 0.05 seconds";
    sampleInterval.maxText = " s, pgbench's -T limit";
    rows.push_back(sampleInterval);

    // The command line says -n or -v (pgbench's flags): app/LoadCommandLine.cpp.
    rows.push_back({"vacuum choice", "", "workload.vacuum", "vacuum", "",
                    choice<RunVacuum, &RunSettings::vacuum>({RunVacuum::Pgbench, RunVacuum::All, RunVacuum::None}, runVacuumName)});

    rows.push_back(flag("report per command", "-r,--report-per-command", "report_per_command",
                        "Report latency, failures and retries of each command", &RunSettings::reportPerCommand));
    rows.push_back(flag("connect per transaction", "-C,--connect", "connect_per_transaction",
                        "A new connection for each transaction", &RunSettings::connectPerTransaction));
    rows.push_back(flag("failures detailed", "--failures-detailed", "failures_detailed",
                        "Report and log failures by kind (serialization, deadlock)", &RunSettings::failuresDetailed));
    rows.push_back(flag("verbose errors", "--verbose-errors", "verbose_errors",
                        "Print each serialization/deadlock error and what follows it", &RunSettings::verboseErrors));
    rows.push_back(flag("continue on error", "--continue-on-error", "continue_on_error",
                        "A client goes on after an SQL error other than serialization or deadlock (pgbench 19)",
                        &RunSettings::continueOnError));
    // One process's: a load host cannot end the others' runs, nor print on the coordinator's stderr.
    rows.push_back(flag("exit on abort", "--exit-on-abort", "", "End the whole run when any client aborts (pgbench 17)",
                        &RunSettings::exitOnAbort));
    rows.push_back(flag("debug", "--debug", "", "Print each client's steps (sending, receiving, executing) on stderr",
                        &RunSettings::debug));
    return rows;
}

// The row's value as a number (numbers and counts only).
double numberOf(const RunSettingRow& row, const RunSettings& s) {
    return std::visit(Overload{[](const RunSettingChoice&) { return 0.0; }, [](bool RunSettings::*) { return 0.0; },
                               [&](auto member) { return static_cast<double>(s.*member); }},
                      row.value);
}

bool isNumber(const RunSettingRow& row) {
    return std::holds_alternative<double RunSettings::*>(row.value) || std::holds_alternative<int RunSettings::*>(row.value) ||
           std::holds_alternative<int64_t RunSettings::*>(row.value);
}

std::string numberText(const RunSettingRow& row, double v) {
    if (std::holds_alternative<double RunSettings::*>(row.value) || !std::isfinite(v) || std::fabs(v) > 9e18)
        return formatNumber("%g", v);
    return std::to_string(static_cast<long long>(v));
}

} // namespace

const std::vector<RunSettingRow>& runSettingRows() {
    static const std::vector<RunSettingRow> rows = makeRows();
    return rows;
}

std::string boundProblem(const RunSettingRow& row, double v) {
    bool low = row.minExclusive ? !(v > row.min) : !(v >= row.min);
    bool high = v > row.max;
    std::string got = " (got " + numberText(row, v) + ")";
    if (low || !std::isfinite(v) || (high && !*row.maxText)) return std::string("must be ") + row.rule + got;
    if (high) {
        std::string most = row.max == std::floor(row.max) && row.max < 1e15 ? std::to_string(static_cast<long long>(row.max))
                                                                             : formatNumber("%g", row.max);
        return "must be at most " + most + row.maxText + got;
    }
    return "";
}

nlohmann::json runSettingsJson(const RunSettings& s) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& row : runSettingRows()) {
        if (!*row.job) continue;
        std::visit(Overload{[&](const RunSettingChoice& c) { j[row.job] = c.nameOf(c.get(s)); },
                            [&](auto member) { j[row.job] = s.*member; }},
                   row.value);
    }
    return j;
}

void readRunSettingsJson(const nlohmann::json& j, RunSettings& s) {
    for (const auto& row : runSettingRows()) {
        if (!*row.job) continue;
        auto it = j.find(row.job);
        if (it == j.end()) throw Error(std::string("load job: no \"") + row.job + "\"");
        auto wrong = [&](const char* expected) {
            return Error(std::string("load job: \"") + row.job + "\" is " + it->type_name() + ", not " + expected);
        };
        std::visit(Overload{[&](bool RunSettings::*member) {
                                if (!it->is_boolean()) throw wrong("a boolean");
                                s.*member = it->get<bool>();
                            },
                            [&](const RunSettingChoice& c) {
                                if (!it->is_string()) throw wrong("a string");
                                auto v = c.valueOf(it->get<std::string>());
                                if (!v)
                                    throw Error(std::string("load job: \"") + row.job + "\" is '" + it->get<std::string>() +
                                                "', not one of " + c.list());
                                c.set(s, *v);
                            },
                            [&](double RunSettings::*member) {
                                if (!it->is_number()) throw wrong("a number");
                                s.*member = it->get<double>();
                            },
                            [&](auto member) {  // int, int64_t
                                using Int = std::remove_reference_t<decltype(s.*member)>;
                                if (!it->is_number_integer()) throw wrong("an integer");
                                int64_t v = it->get<int64_t>();
                                if (v < std::numeric_limits<Int>::min() || v > std::numeric_limits<Int>::max())
                                    throw Error(std::string("load job: \"") + row.job + "\" is out of range");
                                s.*member = static_cast<Int>(v);
                            }},
                   row.value);
    }
}

void checkRunSettingBounds(const RunSettings& s) {
    static const RunSettings defaults;
    for (const auto& row : runSettingRows()) {
        if (!isNumber(row)) continue;
        double v = numberOf(row, s);
        if (v == numberOf(row, defaults)) continue;  // not given: 0 duration (a counted run), -1 failed share (any)
        if (std::string problem = boundProblem(row, v); !problem.empty()) throw Error(std::string(row.noun) + " " + problem);
    }
}

} // namespace scalelab
