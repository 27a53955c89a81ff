// libFuzzer: any text as a pgbench output and as a runs CSV to import. Either runs come out or
// an Error names the file and line; nothing crashes.
#include "store/Import.h"
#include "util/Error.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace scalelab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string text(reinterpret_cast<const char*>(data), size);
    try {
        parsePgbenchOutput(text, "fuzz.txt", "series");
    } catch (const Error&) {
    }
    try {
        parseRunsCsv(text, "fuzz.csv");
    } catch (const Error&) {
    }
    return 0;
}
