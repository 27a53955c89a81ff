#pragma once
// RFC 4180 CSV through libcsv: fields quoted only when they need it (so numbers stay plain for
// gnuplot), and a reader that reports the line of a malformed record.
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace scalelab {

// Written under a temporary name next to `path` and renamed to it by close(): a failure (a full
// disk, an error while the rows are made) never leaves a partial file under the name.
class CsvWriter {
public:
    explicit CsvWriter(const std::string& path);  // throws Error when it cannot be written
    ~CsvWriter();                                 // without close(): the temporary file is removed
    CsvWriter(const CsvWriter&) = delete;
    CsvWriter& operator=(const CsvWriter&) = delete;
    void row(const std::vector<std::string>& fields);
    void close();  // flushes and renames; throws Error on a write error (nothing is left then)

private:
    FILE* f_;
    std::string path_, temp_;
};

// A text cell as CsvWriter writes it: "'=1+1" for "=1+1" (OWASP's advice against formula
// injection: = + - @ tab CR at the start of a text make a spreadsheet run it); numbers kept.
std::string csvNeutralized(const std::string& text);
// The inverse, applied by readCsv to every field.
std::string csvRestored(const std::string& field);

// Shortest text that reads back as the same double ("2322.92", "1e-05"); "" for NaN.
std::string csvNumber(double v);
// A value that may be missing: an empty field when it is, never 0.
std::string csvNumber(const std::optional<double>& v);

// Calls `onRecord(fields, line)` for each record (fields through csvRestored) (line: where the record starts). Throws Error
// "file:line: ..." for malformed quoting.
void readCsv(const std::string& text, const std::string& file,
             const std::function<void(const std::vector<std::string>&, int line)>& onRecord);

} // namespace scalelab
