#pragma once
// JSON from outside ScaleLab (agent and load-host lines, plans, experiment files, results
// stores) is parsed through here: nlohmann's parser is not recursive, but what reads the result
// is (dump(), comparison, copies), and 200,000 nested brackets (400 KB) overflowed the stack
// (issue 60.4). No document ScaleLab writes is nested more than a dozen levels; anything deeper
// than kMaxJsonDepth is refused before it is parsed.
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace scalelab {

constexpr int kMaxJsonDepth = 100;

// The deepest nesting of arrays and objects in `text` (brackets inside strings do not count),
// stopping early once past `limit`. Linear in the text.
int jsonDepth(std::string_view text, int limit = kMaxJsonDepth);

// nlohmann::json::parse(text, nullptr, allowExceptions), after the depth check: throws Error
// "JSON nested deeper than 100 levels" (whatever allowExceptions says: a discarded value would
// read as "not JSON", and the reason is worth saying).
nlohmann::json parseJson(std::string_view text, bool allowExceptions = true);
// For a peer's line that is answered, not reported: too deep is discarded, as not JSON is.
nlohmann::json parseJsonOrDiscarded(std::string_view text);

// A peer's text as ScaleLab shows it (an agent's "error"): a string as it is, anything else as
// JSON, cut at kMaxPeerTextChars with how long it was (a 5 MB error was printed whole, issue 60.6).
constexpr size_t kMaxPeerTextChars = 2000;
std::string peerText(const nlohmann::json& value);

} // namespace scalelab
