// libFuzzer: any text as a sweep plan. Not JSON, or not a valid plan: an Error with the JSON
// path; nothing crashes.
#include "sweep/SweepPlan.h"
#include "util/Error.h"
#include "util/JsonParse.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

using namespace scalelab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    // As a plan file is read (SweepPlanFile.cpp): past the depth limit is an Error.
    nlohmann::json j = parseJsonOrDiscarded(std::string_view(reinterpret_cast<const char*>(data), size));
    if (j.is_discarded()) return 0;
    try {
        SweepPlan plan = parsePlan(j);
        expandPlan(plan, 1);
    } catch (const Error&) {
    }
    return 0;
}
