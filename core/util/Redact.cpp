#include "util/Redact.h"

#include <cctype>
#include <algorithm>
#include <cstring>
#include <string_view>

namespace scalelab {
namespace {

bool startsWithNoCase(std::string_view text, size_t at, std::string_view word) {
    if (text.size() - at < word.size()) return false;
    for (size_t i = 0; i < word.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(text[at + i])) != word[i]) return false;
    return true;
}

// postgresql:// and postgres:// URIs: the user info's password (between ':' and '@').
std::string redactUris(const std::string& text) {
    std::string out;
    size_t copied = 0;
    for (size_t at = text.find("://"); at != std::string::npos; at = text.find("://", at + 3)) {
        bool pg = (at >= 10 && startsWithNoCase(text, at - 10, "postgresql")) ||
                  (at >= 8 && startsWithNoCase(text, at - 8, "postgres"));
        if (!pg) continue;
        size_t begin = at + 3;
        size_t end = begin;
        while (end < text.size() && !std::strchr("/?#", text[end]) && !std::isspace(static_cast<unsigned char>(text[end])) &&
               text[end] != '"' && text[end] != '\'')
            ++end;
        size_t atSign = text.rfind('@', end == 0 ? 0 : end - 1);
        if (atSign == std::string::npos || atSign < begin) continue;
        size_t colon = text.find(':', begin);
        if (colon == std::string::npos || colon > atSign) continue;
        out.append(text, copied, colon + 1 - copied);
        out += "***";
        copied = atSign;
    }
    out.append(text, copied, std::string::npos);
    return out;
}

// password=VALUE (key=value strings, and URI query parameters): the value, quoted or not.
std::string redactKeyValues(const std::string& text) {
    std::string out;
    size_t copied = 0;
    for (size_t at = 0; at < text.size(); ++at) {
        if (!startsWithNoCase(text, at, "password")) continue;
        if (at > 0 && (std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_')) continue;
        size_t p = at + 8;
        while (p < text.size() && text[p] == ' ') ++p;
        if (p >= text.size() || text[p] != '=') continue;
        ++p;
        while (p < text.size() && text[p] == ' ') ++p;
        size_t end = p;
        if (end < text.size() && text[end] == '\'') {  // libpq's quoting: \' and \\ inside
            ++end;
            while (end < text.size() && text[end] != '\'') end += text[end] == '\\' ? 2 : 1;
            end = std::min(end + 1, text.size());
        } else {
            while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end])) && !std::strchr("&#\"", text[end])) ++end;
        }
        if (end == p) continue;
        out.append(text, copied, p - copied);
        out += "***";
        copied = end;
        at = end - 1;
    }
    out.append(text, copied, std::string::npos);
    return out;
}

} // namespace

std::string redactPasswords(const std::string& text) { return redactKeyValues(redactUris(text)); }

std::string terminalSafe(const std::string& text, bool keepLines) {
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        auto u = static_cast<unsigned char>(text[i]);
        if (keepLines && (u == '\n' || u == '\t')) {
            out += text[i];
        } else if (u < 0x20 || u == 0x7f) {
            out += '?';
        } else if (u == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                   static_cast<unsigned char>(text[i + 1]) <= 0x9f) {
            out += '?';  // a C1 control in UTF-8 (U+009B is CSI to some terminals)
            ++i;
        } else {
            out += text[i];
        }
    }
    return out;
}

} // namespace scalelab
