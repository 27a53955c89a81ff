#include "store/Csv.h"

#include "util/Error.h"

#include <csv.h>

#include <charconv>
#include <cmath>
#include <cstring>

namespace scalelab {

CsvWriter::CsvWriter(const std::string& path) : f_(std::fopen(path.c_str(), "w")), path_(path) {
    if (!f_) throw Error("cannot write " + path + ": " + std::strerror(errno));
}

CsvWriter::~CsvWriter() {
    if (f_) std::fclose(f_);
}

void CsvWriter::row(const std::vector<std::string>& fields) {
    for (size_t i = 0; i < fields.size(); ++i) {
        if (i) std::fputc(',', f_);
        const std::string& v = fields[i];
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
    f_ = nullptr;
    if (failed) throw Error("writing " + path_ + " failed: " + std::strerror(errno));
}

std::string csvNumber(double v) {
    if (!std::isfinite(v)) return "";
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

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
        s->fields.emplace_back(static_cast<const char*>(data), len);
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
