#include "util/Csv.h"

#include "util/AtomicFile.h"
#include "util/Error.h"

#include <csv.h>

#include <charconv>
#include <cmath>
#include <cctype>
#include <cstdlib>
#include <cstring>

namespace scalelab {

CsvWriter::CsvWriter(const std::string& path)
    : f_(nullptr), path_(path) {
    f_ = createTemporaryFor(path, temp_);
    if (!f_) throw Error("cannot write " + path + ": " + std::strerror(errno));
}

CsvWriter::~CsvWriter() {
    if (!f_) return;
    std::fclose(f_);
    std::remove(temp_.c_str());
}

namespace {
// OWASP's advice on CSV injection: a spreadsheet takes a cell that begins with = + - @, a tab or
// a carriage return as a formula (=HYPERLINK(...), =cmd|...), so such a text cell is written
// with a leading single quote, which a spreadsheet shows as text. A number (-5, +1e3) is data
// and stays as it is. A text that already begins with a quote and one of those characters (or
// another quote) gets one more, so that readCsv gives back exactly what was written.
bool formulaStart(char c) { return c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r'; }

bool isNumber(const std::string& v) {
    size_t first = v.find_first_not_of("+-");
    if (first != 1 && first != 0) return false;  // one sign at most
    if (first >= v.size() || !(std::isdigit(static_cast<unsigned char>(v[first])) || v[first] == '.')) return false;  // not inf, nan
    char* end = nullptr;
    std::strtod(v.c_str(), &end);
    return end == v.c_str() + v.size() && v.find_first_of(" \t\r\n") == std::string::npos;
}

bool needsQuoteMark(const std::string& v) {
    if (v.empty() || isNumber(v)) return false;
    if (formulaStart(v[0])) return true;
    return v[0] == '\'' && v.size() > 1 && (formulaStart(v[1]) || v[1] == '\'');
}
} // namespace

std::string csvNeutralized(const std::string& text) { return needsQuoteMark(text) ? "'" + text : text; }

std::string csvRestored(const std::string& field) {
    bool marked = field.size() > 1 && field[0] == '\'' && (formulaStart(field[1]) || field[1] == '\'');
    return marked ? field.substr(1) : field;
}

void CsvWriter::row(const std::vector<std::string>& fields) {
    for (size_t i = 0; i < fields.size(); ++i) {
        if (i) std::fputc(',', f_);
        const std::string v = csvNeutralized(fields[i]);
        if (v.find_first_of(",\"\r\n") == std::string::npos && (v.empty() || (v.front() != ' ' && v.back() != ' ')))
            std::fwrite(v.data(), 1, v.size(), f_);
        else
            csv_fwrite(f_, v.data(), v.size());  // quoted, inner quotes doubled
    }
    std::fputs("\r\n", f_);  // RFC 4180 line ends
}

void CsvWriter::close() {
    bool failed = std::ferror(f_) != 0;
    failed = std::fclose(f_) != 0 || failed;
    int err = errno;
    f_ = nullptr;
    if (!failed && std::rename(temp_.c_str(), path_.c_str()) != 0) failed = true, err = errno;
    if (failed) {
        std::remove(temp_.c_str());
        throw Error("writing " + path_ + " failed: " + std::strerror(err));
    }
}

std::string csvNumber(double v) {
    if (!std::isfinite(v)) return "";
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

std::string csvNumber(const std::optional<double>& v) { return v ? csvNumber(*v) : ""; }

namespace {
// libcsv calls back from C: nothing may throw through it, so records are collected first and
// handed to the caller's callback after parsing.
struct ReadState {
    std::vector<std::string> fields;
    std::vector<std::pair<std::vector<std::string>, int>> records;
    int line = 1, recordLine = 1;
    bool fresh = true;
};
} // namespace

void readCsv(const std::string& text, const std::string& file,
             const std::function<void(const std::vector<std::string>&, int)>& onRecord) {
    csv_parser p;
    if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0) throw Error("cannot start the CSV parser");
    ReadState st;
    auto onField = [](void* data, size_t len, void* ctx) {
        auto* s = static_cast<ReadState*>(ctx);
        s->fields.push_back(csvRestored(std::string(static_cast<const char*>(data), len)));
    };
    auto onEnd = [](int, void* ctx) {
        auto* s = static_cast<ReadState*>(ctx);
        s->records.emplace_back(std::move(s->fields), s->recordLine);
        s->fields.clear();
        s->fresh = true;
    };
    // Feed line by line so that an error can name its line.
    size_t pos = 0;
    while (pos < text.size()) {
        size_t nl = text.find('\n', pos);
        size_t end = nl == std::string::npos ? text.size() : nl + 1;
        if (st.fresh) st.recordLine = st.line, st.fresh = false;
        if (csv_parse(&p, text.data() + pos, end - pos, onField, onEnd, &st) != end - pos) {
            std::string why = csv_strerror(csv_error(&p));
            csv_free(&p);
            throw Error(file + ":" + std::to_string(st.line) + ": malformed CSV (" + why + ")");
        }
        ++st.line;
        pos = end;
    }
    if (csv_fini(&p, onField, onEnd, &st) != 0) {
        csv_free(&p);
        throw Error(file + ":" + std::to_string(st.recordLine) + ": malformed CSV (a quoted field is not closed)");
    }
    csv_free(&p);
    for (const auto& [fields, line] : st.records) onRecord(fields, line);
}

} // namespace scalelab
