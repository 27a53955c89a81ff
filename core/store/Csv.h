#pragma once
// RFC 4180 CSV through libcsv: fields quoted only when they need it (so numbers stay plain for
// gnuplot), and a reader that reports the line of a malformed record.
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace scalelab {

class CsvWriter {
public:
    explicit CsvWriter(const std::string& path);  // throws Error when it cannot be written
    ~CsvWriter();
    CsvWriter(const CsvWriter&) = delete;
    CsvWriter& operator=(const CsvWriter&) = delete;
    void row(const std::vector<std::string>& fields);
    void close();  // flushes; throws Error on a write error

private:
    FILE* f_;
    std::string path_;
};

// Shortest text that reads back as the same double ("2322.92", "1e-05"); "" for NaN.
std::string csvNumber(double v);

// Calls `onRecord(fields, line)` for each record (line: where the record starts). Throws Error
// "file:line: ..." for malformed quoting.
void readCsv(const std::string& text, const std::string& file,
             const std::function<void(const std::vector<std::string>&, int line)>& onRecord);

} // namespace scalelab
