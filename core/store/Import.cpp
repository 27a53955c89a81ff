#include "store/Import.h"

#include "util/Csv.h"
#include "util/Error.h"
#include "util/Scan.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace scalelab {
namespace {

[[noreturn]] void fail(const std::string& file, int line, const std::string& what) {
    throw Error(file + ":" + std::to_string(line) + ": " + what);
}

double number(const std::string& text, const std::string& file, int line, const std::string& what) {
    try {
        size_t used = 0;
        double v = std::stod(text, &used);
        if (used == text.size() && std::isfinite(v)) return v;
    } catch (const std::exception&) {
    }
    fail(file, line, what + " is not a number: '" + text + "'");
}

// A count: a whole number from 0 to `max` (found by fuzz_import: a cast of 1e106 to an
// integer is undefined behaviour, and "1.5 clients" is not a count).
int64_t wholeNumber(const std::string& text, const std::string& file, int line, const std::string& what, double max) {
    double d = number(text, file, line, what);
    if (d < 0 || d != std::floor(d)) fail(file, line, what + " is not a whole number: '" + text + "'");
    if (d > max) fail(file, line, what + " is out of range: '" + text + "'");
    return static_cast<int64_t>(d);
}
constexpr double kIntMax = 2147483647.0, kCountMax = 9007199254740992.0;  // int; 2^53, exact in a double

constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();

// pgbench prints glibc's spelling of a NaN ("nan", "-nan") when an interval had no transaction.
double numberOrMissing(const std::string& text, const std::string& file, int line, const std::string& what) {
    if (text == "nan" || text == "-nan" || text == "NaN" || text == "-NaN") return kMissing;
    return number(text, file, line, what);
}

// A progress time above this is a --progress-timestamp (2001-09-09), not seconds into a run.
constexpr double kEpochSeconds = 1e9;

// Progress lines are a run's samples. The interval is the smallest spacing seen (the first line
// ends one interval after the start). A line that is missing (a gap) must not make the next
// sample span two intervals: each sample covers one interval, and the gaps are counted.
int fixProgressIntervals(std::vector<StoredSample>& samples) {
    if (samples.empty()) return 0;
    // --progress-timestamp: the times are Unix epoch seconds. The run started one interval
    // before the first line (the spacing of the first two lines, or 1 s for a single line).
    if (samples.front().endS > kEpochSeconds) {
        double first = samples.front().endS;
        double spacing = samples.size() > 1 ? samples[1].endS - first : 1;
        for (size_t i = 2; i < samples.size(); ++i) spacing = std::min(spacing, samples[i].endS - samples[i - 1].endS);
        double start = first - (spacing > 0 ? spacing : 1);
        for (auto& s : samples) s.endS -= start;
    }
    double interval = samples.front().endS;
    for (size_t i = 1; i < samples.size(); ++i) interval = std::min(interval, samples[i].endS - samples[i - 1].endS);
    if (!(interval > 0)) return 0;
    int gaps = 0;
    double previousEnd = samples.front().endS - interval;
    if (previousEnd > 0.5 * interval) ++gaps;  // the first lines are missing
    for (auto& s : samples) {
        if (s.endS - previousEnd > 1.5 * interval) ++gaps;
        s.startS = std::max(previousEnd, s.endS - interval);
        s.transactions = std::isnan(s.tps) ? 0 : static_cast<uint64_t>(std::llround(s.tps * (s.endS - s.startS)));
        previousEnd = s.endS;
    }
    return gaps;
}

// The line parsers below are plain loops, never std::regex: a log is untrusted input, and
// libstdc++'s regex matcher recurses per character (util/Scan.h).

// "key: value" or "key = value", the key lower-case words ("number of clients"), the value
// trimmed. False for any other line.
bool fieldLine(std::string_view line, std::string& key, std::string& value) {
    size_t sep = line.find_first_of(":=");
    if (sep == std::string_view::npos) return false;
    Scan k(line.substr(0, sep));
    while (!k.rest.empty() && std::isspace(static_cast<unsigned char>(k.rest.back()))) k.rest.remove_suffix(1);
    auto letter = [](char c) { return c >= 'a' && c <= 'z'; };
    if (k.rest.size() < 2 || !letter(k.rest.front()) || !letter(k.rest.back())) return false;
    for (char c : k.rest)
        if (!letter(c) && c != ' ') return false;
    Scan v(line.substr(sep + 1));
    v.spaces();
    while (!v.rest.empty() && std::isspace(static_cast<unsigned char>(v.rest.back()))) v.rest.remove_suffix(1);
    key.assign(k.rest);
    value.assign(v.rest);
    return true;
}

// "tps = 123.4 (excluding connections establishing)" and the other spellings of pgbench's
// versions; pgbench 14+ with -C prints one tps, "including reconnection times": every
// transaction connects, so that one is the run's rate.
bool tpsLine(std::string_view line, std::string& number, std::string& phrase) {
    static const char* const phrases[] = {"including connections establishing", "excluding connections establishing",
                                          "without initial connection time", "including reconnection times"};
    Scan s(line);
    if (!s.literal("tps = ")) return false;
    std::string_view n = s.span([](unsigned char c) { return std::isdigit(c) || std::string_view(".eE+-").find(static_cast<char>(c)) != std::string_view::npos; });
    if (n.empty() || !s.literal(" (")) return false;
    for (const char* p : phrases) {
        Scan after = s;
        if (after.literal(p) && after.literal(")") && after.atEndButSpaces()) {
            number.assign(n);
            phrase = p;
            return true;
        }
    }
    return false;
}

// A progress figure: digits and points, or glibc's "nan"/"-nan" (also "NaN").
std::string_view progressFigure(Scan& s) {
    std::string_view n = s.span([](unsigned char c) { return std::isdigit(c) || c == '.'; });
    if (!n.empty()) return n;
    Scan t = s;
    bool minus = t.literal("-");
    if (!t.literal("nan") && !t.literal("NaN")) return {};
    n = s.rest.substr(0, minus ? 4 : 3);
    s = t;
    return n;
}

// "progress: 5.0 s, 1234.5 tps, lat 0.810 ms stddev 0.120[, ...]"
bool progressLine(std::string_view line, std::string figures[4]) {
    Scan s(line);
    if (!s.literal("progress: ")) return false;
    std::string_view time = s.span([](unsigned char c) { return std::isdigit(c) || c == '.'; });
    if (time.empty() || !s.literal(" s, ")) return false;
    std::string_view tps = progressFigure(s);
    if (tps.empty() || !s.literal(" tps, lat ")) return false;
    std::string_view lat = progressFigure(s);
    if (lat.empty() || !s.literal(" ms stddev ")) return false;
    std::string_view stddev = progressFigure(s);
    if (stddev.empty()) return false;
    figures[0].assign(time);
    figures[1].assign(tps);
    figures[2].assign(lat);
    figures[3].assign(stddev);
    return true;
}

// pgbench's words for an aborted client anywhere in the line, with or without the
// "pgbench: error: " prefix: "client 3 aborted", "client 3 script 0 aborted".
bool mentionsAbortedClient(std::string_view line) {
    for (size_t at = line.find("client "); at != std::string_view::npos; at = line.find("client ", at + 1)) {
        Scan s(line.substr(at + 7));
        if (s.digits().empty() || !s.literal(" ")) continue;
        if (s.literal("aborted")) return true;
        if (s.literal("script ") && !s.digits().empty() && s.literal(" ") && s.literal("aborted")) return true;
    }
    return false;
}

std::string readFile(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw Error("cannot read " + path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

std::vector<ImportedRun> parsePgbenchOutput(const std::string& text, const std::string& file, const std::string& series) {
    static const std::string runAborted = "Run was aborted; the above results are incomplete.";
    std::vector<ImportedRun> runs;
    std::vector<StoredSample> pendingProgress;
    std::istringstream in(text);
    std::string line;
    int lineNo = 0;
    ImportedRun* cur = nullptr;
    int startLine = 0;
    bool haveTps = false, preferredTps = false, haveClients = false;
    // -t: the planned count, checked once the failed and skipped counts are read (pgbench 15+
    // counts them toward it: processed + failed + skipped = planned for a run that completed).
    std::optional<int64_t> planned;
    uint64_t skipped = 0;
    nlohmann::json detail;
    // Abort lines come before their report (stderr during the run), and "Run was aborted" after
    // it; in a 2>&1 log with a buffered stdout the report comes last of all.
    std::vector<std::string> pendingAborts;
    bool pendingRunAborted = false;
    bool haveReport = false;
    size_t lastReportIndex = 0;
    auto markAborted = [&](ImportedRun& r, const std::string& why) {
        r.run.status = RunStatus::Failed;
        r.run.error = r.run.error.empty() ? why : r.run.error + "; " + why;
    };

    auto finish = [&](int at) {
        if (!cur) return;
        if (!haveClients) fail(file, startLine, "the report that starts here has no 'number of clients' line");
        if (!haveTps) fail(file, at, "the report that starts at line " + std::to_string(startLine) + " has no 'tps = ' line");
        if (planned && static_cast<int64_t>(cur->run.transactions + cur->run.failures + skipped) < *planned)
            markAborted(*cur, "processed " + std::to_string(cur->run.transactions) +
                                  (cur->run.failures + skipped ? " (and " + std::to_string(cur->run.failures + skipped) +
                                                                     " failed or skipped)"
                                                               : std::string()) +
                                  " of " + std::to_string(*planned) + " transactions");
        int gaps = fixProgressIntervals(cur->samples);
        if (gaps > 0) detail["progress_gaps"] = gaps;
        cur->run.detail = detail;
        cur = nullptr;
    };

    while (std::getline(in, line)) {
        ++lineNo;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        std::string figures[4];
        if (progressLine(line, figures)) {
            StoredSample s;
            s.endS = number(figures[0], file, lineNo, "progress time");
            s.tps = numberOrMissing(figures[1], file, lineNo, "progress tps");
            s.latMeanMs = numberOrMissing(figures[2], file, lineNo, "progress latency");
            // An interval without a transaction has no latency (some versions print 0.000).
            if (s.tps == 0) s.latMeanMs = kMissing;
            s.latP50Ms = s.latP95Ms = s.latP99Ms = kMissing;  // progress lines have no percentiles
            pendingProgress.push_back(s);
            continue;
        }
        if (mentionsAbortedClient(line)) {
            pendingAborts.push_back(line);
            continue;
        }
        if (line.find(runAborted) != std::string::npos) {
            if (!pendingAborts.empty() || !haveReport) pendingRunAborted = true;
            else markAborted(runs[lastReportIndex], "pgbench: " + runAborted);
            continue;
        }
        if (line.rfind("transaction type:", 0) == 0) {
            finish(lineNo);
            runs.emplace_back();
            cur = &runs.back();
            haveReport = true;
            cur->run.status = RunStatus::Completed;
            lastReportIndex = runs.size() - 1;
            cur->run.latency.meanMs = cur->run.latency.stddevMs = kMissing;  // pgbench 8.4 has neither
            cur->run.latency.p50Ms = cur->run.latency.p90Ms = cur->run.latency.p95Ms = kMissing;
            cur->run.latency.p99Ms = cur->run.latency.p999Ms = cur->run.latency.maxMs = kMissing;
            cur->run.latency.minMs = kMissing;
            if (!pendingAborts.empty())
                markAborted(*cur, std::to_string(pendingAborts.size()) + " client(s) aborted, first: " + pendingAborts.front());
            if (pendingRunAborted) markAborted(*cur, "pgbench: " + runAborted);
            pendingAborts.clear();
            pendingRunAborted = false;
            startLine = lineNo;
            haveTps = preferredTps = haveClients = false;
            planned.reset();
            skipped = 0;
            detail = nlohmann::json::object();
            cur->run.series = series;
            cur->run.threads = 1;  // pgbench 8.4 has no threads line: one thread
            cur->run.source = "import: " + file;
            cur->samples = std::move(pendingProgress);
            pendingProgress.clear();
            std::string workload = line.substr(std::string("transaction type:").size());
            detail["workload"] = workload.erase(0, workload.find_first_not_of(' '));
            continue;
        }
        if (!cur) continue;  // text before the first report (pgbench's "starting vacuum...")
        std::string tpsText, phrase;
        if (tpsLine(line, tpsText, phrase)) {
            bool preferred = phrase != "including connections establishing";
            double tps = number(tpsText, file, lineNo, "tps");
            if (tps < 0) fail(file, lineNo, "tps is negative: '" + tpsText + "'");
            if (!haveTps || preferred) {
                cur->run.tps = tps;
                preferredTps = preferred;
            }
            haveTps = true;
            const char* key = phrase == "including reconnection times"          ? "tps_including_reconnections"
                              : phrase == "including connections establishing" ? "tps_including_connections"
                                                                                : "tps_without_connections";
            detail[key] = tps;
            continue;
        }
        std::string key, value;
        if (!fieldLine(line, key, value)) continue;  // lines this importer does not need
        auto integer = [&](const std::string& v, double max = kCountMax) {
            return wholeNumber(v, file, lineNo, "'" + key + "'", max);
        };
        if (key == "number of clients") {
            cur->run.clients = static_cast<int>(integer(value, kIntMax));
            haveClients = cur->run.clients > 0;
            if (!haveClients) fail(file, lineNo, "number of clients must be at least 1");
        } else if (key == "number of threads") {
            cur->run.threads = static_cast<int>(integer(value, kIntMax));
        } else if (key == "scaling factor") {
            detail["scale"] = integer(value);
        } else if (key == "query mode") {
            detail["query_mode"] = value;
        } else if (key == "duration") {
            std::string secs = value.substr(0, value.find(' '));
            cur->run.measuredSeconds = number(secs, file, lineNo, "duration");
            if (!(cur->run.measuredSeconds > 0)) fail(file, lineNo, "the duration must be more than 0 s: '" + value + "'");
            detail["duration_s"] = cur->run.measuredSeconds;
        } else if (key == "number of transactions per client") {
            detail["transactions_per_client"] = integer(value);
        } else if (key == "number of transactions actually processed") {
            cur->run.transactions = static_cast<uint64_t>(integer(value.substr(0, value.find('/'))));
            size_t slash = value.find('/');
            if (slash != std::string::npos) planned = integer(value.substr(slash + 1));
        } else if (key == "number of failed transactions") {
            cur->run.failures = static_cast<uint64_t>(integer(value.substr(0, value.find(' '))));
        } else if (key == "number of transactions skipped") {
            skipped = static_cast<uint64_t>(integer(value.substr(0, value.find(' '))));
            detail["skipped"] = skipped;
        } else if (key == "latency average") {
            double mean = number(value.substr(0, value.find(' ')), file, lineNo, "latency average");
            if (mean < 0) fail(file, lineNo, "the latency average is negative: '" + value + "'");
            // pgbench 9.4-9.6 print 1000 * duration * clients / transactions without -P/-R/-L,
            // and under -t the duration is 0: "0.000 ms" is no measurement. No transaction of a
            // database ends in under half a microsecond, so a 0 is missing, never a latency.
            if (mean == 0) detail["latency_average_note"] = "printed as 0.000 ms: not measured (pgbench 9.4-9.6 under -t)";
            cur->run.latency.meanMs = mean == 0 ? kMissing : mean;
        } else if (key == "latency stddev") {
            cur->run.latency.stddevMs = number(value.substr(0, value.find(' ')), file, lineNo, "latency stddev");
            if (cur->run.latency.stddevMs < 0) fail(file, lineNo, "the latency stddev is negative: '" + value + "'");
        }
    }
    finish(lineNo);
    if (runs.empty()) fail(file, 1, "no pgbench report found (a report starts with 'transaction type:')");
    if (!pendingAborts.empty() || pendingRunAborted)
        fail(file, lineNo, "the log ends with aborted clients but no report after them: the last run has no results");
    for (auto& r : runs) {
        r.run.latency.count = r.run.transactions;
        if (r.run.measuredSeconds == 0 && r.run.tps > 0)
            r.run.measuredSeconds = static_cast<double>(r.run.transactions) / r.run.tps;
    }
    return runs;
}

std::vector<ImportedRun> parseRunsCsv(const std::string& text, const std::string& file) {
    std::vector<ImportedRun> runs;
    std::map<std::string, size_t> col;
    readCsv(text, file, [&](const std::vector<std::string>& f, int line) {
        if (col.empty()) {
            for (size_t i = 0; i < f.size(); ++i) col[f[i]] = i;
            for (const char* need : {"series", "clients", "repetition", "tps"})
                if (!col.count(need)) fail(file, line, std::string("the header has no '") + need + "' column");
            return;
        }
        if (f.size() == 1 && f[0].empty()) return;  // a blank line
        if (f.size() != col.size())
            fail(file, line, "has " + std::to_string(f.size()) + " fields, the header " + std::to_string(col.size()));
        auto get = [&](const char* name) { return col.count(name) ? f[col[name]] : std::string(); };
        auto num = [&](const char* name) { return number(get(name), file, line, std::string("'") + name + "'"); };
        ImportedRun r;
        r.run.series = get("series");
        if (r.run.series.empty()) fail(file, line, "the series is empty");
        auto count = [&](const char* name, double max) {
            return wholeNumber(get(name), file, line, std::string("'") + name + "'", max);
        };
        r.run.clients = static_cast<int>(count("clients", kIntMax));
        r.run.repetition = static_cast<int>(count("repetition", kIntMax));
        r.run.tps = num("tps");
        if (r.run.tps < 0) fail(file, line, "tps is negative: '" + get("tps") + "'");
        if (r.run.clients < 1) fail(file, line, "clients must be at least 1");
        r.run.threads = col.count("threads") ? static_cast<int>(count("threads", kIntMax)) : 1;
        if (col.count("status")) {
            auto status = runStatusFromName(get("status"));
            if (!status) fail(file, line, "the status '" + get("status") + "' is not completed, failed or stopped");
            r.run.status = *status;
        }
        if (col.count("transactions")) r.run.transactions = static_cast<uint64_t>(count("transactions", kCountMax));
        if (col.count("rate") && !get("rate").empty()) {  // the offered rate (export's column); empty: unthrottled
            double rate = num("rate");
            if (!(rate > 0)) fail(file, line, "the rate must be above 0 (an empty field: unthrottled), got '" + get("rate") + "'");
            r.run.detail["rate"] = rate;
        }
        // A column the file does not have, or an empty field, is a missing value, never 0.
        auto optional = [&](const char* name) { return col.count(name) && !get(name).empty() ? num(name) : kMissing; };
        LatencySummary& l = r.run.latency;
        l.meanMs = optional("latency_mean_ms");
        l.stddevMs = optional("latency_sd_ms");
        l.p50Ms = optional("latency_p50_ms");
        l.p90Ms = optional("latency_p90_ms");
        l.p95Ms = optional("latency_p95_ms");
        l.p99Ms = optional("latency_p99_ms");
        l.p999Ms = optional("latency_p999_ms");
        l.maxMs = optional("latency_max_ms");
        l.minMs = kMissing;
        for (double v : {l.meanMs, l.stddevMs, l.p50Ms, l.p90Ms, l.p95Ms, l.p99Ms, l.p999Ms, l.maxMs})
            if (v < 0) fail(file, line, "a latency is negative");
        r.run.source = "import: " + file;
        runs.push_back(std::move(r));
    });
    if (col.empty()) fail(file, 1, "the file is empty: expected a header line");
    return runs;
}

namespace {
// FNV-1a, 64 bits: a stable name for a file's content, to tell a second import of it.
std::string contentHash(const std::string& text) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ull;
    char buf[20];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}
} // namespace

std::vector<ImportedRun> parseImportFiles(const std::vector<std::string>& files, const std::string& series,
                                          const SourceMachine& machine) {
    if (machine.cores < 0 || machine.pus < 0 || (machine.pus > 0 && machine.pus < machine.cores))
        throw Error("the source machine needs cores >= 1 and PUs >= cores (got " + std::to_string(machine.cores) + " cores, " +
                    std::to_string(machine.pus) + " PUs)");
    std::vector<ImportedRun> all;
    for (const auto& f : files) {
        bool csv = f.size() > 4 && f.compare(f.size() - 4, 4, ".csv") == 0;
        if (!csv && series.empty()) throw Error(f + ": a pgbench output needs --series NAME to say which series it belongs to");
        std::string text = readFile(f);
        auto runs = csv ? parseRunsCsv(text, f) : parsePgbenchOutput(text, f, series);
        std::string hash = contentHash(text);
        for (auto& r : runs) {
            r.run.detail["source_hash"] = hash;
            if (machine.cores > 0)
                r.run.detail["machine"] = {{"cores", machine.cores}, {"pus", machine.pus > 0 ? machine.pus : machine.cores}};
            all.push_back(std::move(r));
        }
    }
    return all;
}

AlreadyImported::AlreadyImported(const std::string& file_, const std::string& experiment_)
    : Error(file_ + " was imported into " + experiment_ + " already (the same content); import it again on purpose with --again"),
      file(file_), experiment(experiment_) {}

int storeImportedRuns(ExperimentStore& store, std::vector<ImportedRun> runs, bool again) {
    std::vector<RunRecord> existing = store.runs();
    if (!again) {
        // The same file twice would double n and narrow every interval: refused unless asked.
        std::set<std::string> imported;
        for (const auto& r : existing)
            if (r.detail.contains("source_hash")) imported.insert(r.detail["source_hash"].get<std::string>());
        for (const auto& r : runs)
            if (imported.count(r.run.detail["source_hash"].get<std::string>()))
                throw AlreadyImported(r.run.source.substr(std::string("import: ").size()), store.path());
    }
    // Repetitions continue after what the experiment holds for the same series and clients.
    std::map<std::pair<std::string, int>, int> last;
    for (const auto& r : existing) {
        int& l = last[{r.series, r.clients}];
        l = std::max(l, r.repetition);
    }
    std::vector<std::pair<RunRecord, std::vector<StoredSample>>> rows;
    std::string now = utcTimestamp();
    for (auto& r : runs) {
        if (r.run.repetition == 0) r.run.repetition = ++last[{r.run.series, r.run.clients}];
        r.run.startedAt = r.run.endedAt = now;
        rows.emplace_back(std::move(r.run), std::move(r.samples));
    }
    store.saveRuns(rows);
    return static_cast<int>(rows.size());
}

int importIntoFile(const std::string& path, const std::vector<std::string>& files, const std::string& series,
                   const SourceMachine& machine, bool append, bool again) {
    auto runs = parseImportFiles(files, series, machine);
    bool exists = ExperimentStore::exists(path);
    if (exists && !append) throw Error(path + " exists: add --append to import into it, or name a new experiment");
    std::unique_ptr<ExperimentStore> store = exists ? ExperimentStore::open(path) : ExperimentStore::create(path);
    try {
        return storeImportedRuns(*store, std::move(runs), again);
    } catch (...) {
        if (!exists) {
            store.reset();
            ExperimentStore::remove(path);
        }
        throw;
    }
}

int importFiles(ExperimentStore& store, const std::vector<std::string>& files, const std::string& series,
                const SourceMachine& machine, bool again) {
    return storeImportedRuns(store, parseImportFiles(files, series, machine), again);
}

} // namespace scalelab
