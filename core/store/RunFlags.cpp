#include "store/RunFlags.h"

#include <algorithm>

namespace scalelab {
namespace {

constexpr RunFlag kAll[] = {RunFlag::Unstable, RunFlag::ClientBound, RunFlag::ExtraRound, RunFlag::Included,
                            RunFlag::BelowRate, RunFlag::SystemMissing,
                            RunFlag::SlowMetrics};

} // namespace

const char* runFlagName(RunFlag flag) {
    switch (flag) {
    case RunFlag::Unstable: return "unstable";
    case RunFlag::ClientBound: return "client-bound";
    case RunFlag::ExtraRound: return "extra-round";
    case RunFlag::Included: return "included";
    case RunFlag::BelowRate: return "below-rate";
    case RunFlag::SystemMissing: return "system-missing";
    case RunFlag::SlowMetrics: return "slow-metrics";
    }
    return "?";
}

RunFlags::RunFlags(std::initializer_list<RunFlag> flags) {
    for (RunFlag f : flags) add(f);
}

RunFlags RunFlags::parse(std::string_view text) {
    RunFlags out;
    while (!text.empty()) {
        size_t comma = text.find(',');
        std::string_view word = text.substr(0, comma);
        text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
        if (word.empty()) continue;
        auto known = std::find_if(std::begin(kAll), std::end(kAll), [&](RunFlag f) { return word == runFlagName(f); });
        if (known != std::end(kAll)) {
            out.add(*known);
        } else if (std::find(out.unknown_.begin(), out.unknown_.end(), word) == out.unknown_.end()) {
            out.unknown_.emplace_back(word);
        }
    }
    return out;
}

bool RunFlags::has(RunFlag flag) const { return std::find(known_.begin(), known_.end(), flag) != known_.end(); }

void RunFlags::add(RunFlag flag) {
    if (!has(flag)) known_.push_back(flag);
}

void RunFlags::remove(RunFlag flag) { known_.erase(std::remove(known_.begin(), known_.end(), flag), known_.end()); }

std::vector<std::string> RunFlags::words() const {
    std::vector<std::string> out;
    for (RunFlag f : known_) out.emplace_back(runFlagName(f));
    out.insert(out.end(), unknown_.begin(), unknown_.end());
    return out;
}

std::string RunFlags::joined(std::string_view separator) const {
    std::string out;
    for (const auto& w : words()) {
        if (!out.empty()) out += separator;
        out += w;
    }
    return out;
}

} // namespace scalelab
