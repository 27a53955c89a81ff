// A sweep plan as a file: read (with the line and column of a JSON error, and the file's name
// before a plan error), and written without secrets.
#include "sweep/SweepPlan.h"

#include "server/Conninfo.h"
#include "util/Error.h"
#include "util/JsonParse.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace scalelab {

nlohmann::json planWithoutSecrets(nlohmann::json plan) {
    if (plan.is_object() && plan.contains("target") && plan["target"].is_object() && plan["target"].contains("conninfo") &&
        plan["target"]["conninfo"].is_string())
        plan["target"]["conninfo"] = conninfoWithoutPassword(plan["target"]["conninfo"].get<std::string>());
    return plan;
}

SweepPlan loadPlanFile(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw Error("cannot read the plan " + path);
    std::stringstream text;
    text << in.rdbuf();
    std::string s = text.str();
    nlohmann::json j;
    try {
        j = parseJson(s);
    } catch (const Error& e) {
        throw Error(path + ": " + e.what());
    } catch (const nlohmann::json::parse_error& e) {
        size_t byte = std::min(e.byte, s.size());
        size_t line = 1, col = 1;
        for (size_t i = 0; i + 1 < byte; ++i) {
            if (s[i] == '\n') ++line, col = 1;
            else ++col;
        }
        std::string msg = e.what();
        auto colon = msg.find("syntax error");
        throw Error(path + ":" + std::to_string(line) + ":" + std::to_string(col) + ": not valid JSON: " +
                    (colon == std::string::npos ? msg : msg.substr(colon)));
    }
    try {
        return parsePlan(j);
    } catch (const Error& e) {
        throw Error(path + ": " + e.what());
    }
}

} // namespace scalelab
