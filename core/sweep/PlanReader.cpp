#include "sweep/PlanReader.h"

#include "sweep/SweepPlan.h"
#include "util/Overload.h"
#include "util/Scan.h"

#include <algorithm>
#include <sstream>
#include <type_traits>

namespace scalelab {
namespace {

using plan::fail;
using plan::typeName;
using json = nlohmann::json;

// What a list of whole numbers counts: the clients of a grid, or its offered rates.
struct WholeList {
    const char* what;    // "a client count", "a rate"
    const char* plural;  // "client counts", "rates"
    const char* unit;    // "a positive whole number of clients", ... "a positive whole scale (pgbench -s)"
    int64_t most;
};
const WholeList kClientList{"a client count", "client counts", "a positive whole number of clients", 100000};
const WholeList kRateList{"a rate", "rates", "a positive whole number of transactions per second", 100000000};
const WholeList kScaleList{"a scale", "scales", "a positive whole scale (pgbench -s)", 100000000};

int64_t positive(const std::string& text, const std::string& whole, const std::string& path, const WholeList& list) {
    std::string t = text;
    t.erase(0, t.find_first_not_of(" \t"));
    t.erase(t.find_last_not_of(" \t") + 1);
    if (t.empty() || t.size() > 9 || !std::all_of(t.begin(), t.end(), ::isdigit) || std::stoll(t) < 1 || std::stoll(t) > list.most)
        fail(path, "'" + whole + "': '" + t + "' is not " + list.unit + " (at most " +
                       std::to_string(list.most) + ")");
    return std::stoll(t);
}

// "1-64 x2" or "4-32 +4", spaces allowed around each part. A loop, not std::regex: a plan
// is untrusted input, and libstdc++'s matcher overflowed its stack on 40,000 spaces.
bool rangeText(const std::string& text, std::string& from, std::string& to, char& kind, std::string& by) {
    Scan s(text);
    s.spaces();
    from = std::string(s.digits());
    s.spaces();
    if (from.empty() || !s.literal("-")) return false;
    s.spaces();
    to = std::string(s.digits());
    s.spaces();
    kind = s.oneOf("x+");
    if (to.empty() || !kind) return false;
    s.spaces();
    by = std::string(s.digits());
    return !by.empty() && s.atEndButSpaces();
}

std::vector<int64_t> parseWholeList(const json& v, const std::string& path, const WholeList& list) {
    const char* forms = "expected a list like [1, 2, 4], \"1,2,4\", a doubling range \"1-64 x2\" or a stepped range \"4-32 +4\"";
    std::vector<int64_t> out;
    if (v.is_array()) {
        for (size_t i = 0; i < v.size(); ++i) {
            const json& c = v[i];
            std::string at = path + "[" + std::to_string(i) + "]";
            if (!c.is_number_integer() || c.get<int64_t>() < 1 || c.get<int64_t>() > list.most)
                fail(at, std::string("expected ") + list.unit + " (at most " +
                             std::to_string(list.most) + "), found " + c.dump());
            out.push_back(c.get<int64_t>());
        }
    } else if (v.is_string()) {
        std::string s = v.get<std::string>();
        std::string from, to, by;
        char kind = 0;
        if (rangeText(s, from, to, kind, by)) {
            int64_t lo = positive(from, s, path, list), hi = positive(to, s, path, list), step = positive(by, s, path, list);
            if (hi < lo) fail(path, "'" + s + "': the range runs backwards");
            if (kind == 'x' && step < 2) fail(path, "'" + s + "': a doubling range needs a factor of at least 2");
            for (int64_t c = lo; c <= hi; c = kind == 'x' ? c * step : c + step) {
                if (out.size() >= 10000) fail(path, "'" + s + "' makes more than 10000 points: a sweep that never ends");
                out.push_back(c);
            }
        } else if (s.find_first_not_of("0123456789, \t") == std::string::npos) {
            std::stringstream in(s);
            std::string item;
            int pos = 0;
            while (std::getline(in, item, ',')) {
                ++pos;
                if (item.find_first_not_of(" \t") == std::string::npos)
                    fail(path, "'" + s + "' has an empty item at position " + std::to_string(pos));
                out.push_back(positive(item, s, path, list));
            }
            if (!s.empty() && s.back() == ',') fail(path, "'" + s + "' ends with an empty item");
        } else {
            fail(path, "'" + s + "': " + forms);
        }
    } else {
        fail(path, std::string(forms) + ", found " + typeName(v));
    }
    if (out.empty()) fail(path, std::string("the list of ") + list.plural + " is empty");
    std::vector<int64_t> sorted = out;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) fail(path, std::string(list.what) + " appears twice");
    return out;
}

} // namespace

std::vector<int> parseClientCounts(const json& v, const std::string& path) {
    std::vector<int> out;
    for (int64_t c : parseWholeList(v, path, kClientList)) out.push_back(static_cast<int>(c));
    return out;
}

std::vector<int64_t> parseScales(const json& v, const std::string& path) { return parseWholeList(v, path, kScaleList); }

std::vector<double> parseRates(const json& v, const std::string& path) {
    std::vector<double> out;
    for (int64_t r : parseWholeList(v, path, kRateList)) out.push_back(static_cast<double>(r));
    return out;
}

} // namespace scalelab

namespace scalelab::plan {

void readRunSettings(Reader& r, std::string_view section, RunSettings& s) {
    for (const RunSettingRow& row : runSettingRows()) {
        std::string_view name = row.plan;
        if (name.empty()) continue;
        size_t dot = name.rfind('.');
        if ((dot == std::string_view::npos ? std::string_view() : name.substr(0, dot)) != section) continue;
        std::string key(dot == std::string_view::npos ? name : name.substr(dot + 1));
        const json* v = r.get(key);
        if (!v) continue;
        std::string path = r.at(key);
        std::visit(Overload{[&](bool RunSettings::*member) {
                                if (!v->is_boolean()) fail(path, std::string("expected true or false, found ") + typeName(*v));
                                s.*member = v->get<bool>();
                            },
                            [&](const RunSettingChoice& c) {
                                if (!v->is_string()) fail(path, "expected one of " + c.list() + ", found " + typeName(*v));
                                auto value = c.valueOf(v->get<std::string>());
                                if (!value)
                                    fail(path, "unknown " + std::string(row.noun) + " '" + v->get<std::string>() +
                                                   "' (choices: " + c.list() + ")");
                                c.set(s, *value);
                            },
                            [&](auto member) {  // double, int, int64_t
                                using Number = std::remove_reference_t<decltype(s.*member)>;
                                bool real = std::is_floating_point_v<Number>;
                                if (real ? !v->is_number() : !v->is_number_integer())
                                    fail(path, std::string(real ? "expected a number, found " : "expected an integer, found ") +
                                                   typeName(*v) + (v->is_number() ? " " + v->dump() : ""));
                                double d = v->get<double>();
                                if (!(row.zeroIsNone && d == 0))
                                    if (std::string problem = boundProblem(row, d); !problem.empty()) fail(path, problem);
                                if constexpr (std::is_floating_point_v<Number>) s.*member = d;
                                else s.*member = static_cast<Number>(v->get<int64_t>());
                            }},
                   row.value);
    }
}

} // namespace scalelab::plan
