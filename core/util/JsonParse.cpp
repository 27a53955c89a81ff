#include "util/JsonParse.h"

#include "util/Error.h"

namespace scalelab {

int jsonDepth(std::string_view text, int limit) {
    int depth = 0, deepest = 0;
    bool inString = false, escaped = false;
    for (char c : text) {
        if (inString) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == '"') inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > deepest && (deepest = depth) > limit) return deepest;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return deepest;
}

nlohmann::json parseJson(std::string_view text, bool allowExceptions) {
    if (jsonDepth(text) > kMaxJsonDepth)
        throw Error("JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
                    " levels (ScaleLab's limit; nothing it writes comes near it)");
    return nlohmann::json::parse(text, nullptr, allowExceptions);
}

std::string peerText(const nlohmann::json& value) {
    std::string s = value.is_string() ? value.get<std::string>() : value.dump();
    if (s.size() <= kMaxPeerTextChars) return s;
    return s.substr(0, kMaxPeerTextChars) + "... (" + std::to_string(s.size()) + " bytes in all)";
}

nlohmann::json parseJsonOrDiscarded(std::string_view text) {
    if (jsonDepth(text) > kMaxJsonDepth) return nlohmann::json(nlohmann::json::value_t::discarded);
    return nlohmann::json::parse(text, nullptr, false);
}

} // namespace scalelab
