// libFuzzer: any text as a sweep plan. Not JSON, or not a valid plan: an Error with the JSON
// path; nothing crashes.
#include "sweep/SweepPlan.h"
#include "util/Error.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

using namespace scalelab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    nlohmann::json j = nlohmann::json::parse(data, data + size, nullptr, false);
    if (j.is_discarded()) return 0;
    try {
        SweepPlan plan = parsePlan(j);
        expandPlan(plan, 1);
    } catch (const Error&) {
    }
    return 0;
}
