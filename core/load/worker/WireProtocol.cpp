#include "load/worker/WireProtocol.h"

#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace scalelab::wire {

namespace {

void putUint32(std::string& out, uint32_t v) {
    char b[4] = {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8), static_cast<char>(v)};
    out.append(b, 4);
}

void putUint16(std::string& out, uint16_t v) {
    char b[2] = {static_cast<char>(v >> 8), static_cast<char>(v)};
    out.append(b, 2);
}

// A message's type byte and a length to fill in once its body is written.
size_t begin(std::string& out, char type) {
    out.push_back(type);
    size_t at = out.size();
    out.append(4, '\0');
    return at;
}

void end(std::string& out, size_t at) {
    uint32_t length = static_cast<uint32_t>(out.size() - at);
    for (int i = 0; i < 4; ++i) out[at + static_cast<size_t>(i)] = static_cast<char>(length >> (24 - 8 * i));
}

void putString(std::string& out, const char* s) { out.append(s, std::strlen(s) + 1); }

// The length in bytes of the UTF-8 character starting with `lead` (1 for a stray byte).
size_t utf8Length(unsigned char lead) {
    if (lead < 0x80) return 1;
    if ((lead & 0xE0) == 0xC0) return 2;
    if ((lead & 0xF0) == 0xE0) return 3;
    if ((lead & 0xF8) == 0xF0) return 4;
    return 1;
}

} // namespace

uint16_t readUint16(const char* p) {
    auto u = reinterpret_cast<const unsigned char*>(p);
    return static_cast<uint16_t>((u[0] << 8) | u[1]);
}

uint32_t readUint32(const char* p) {
    auto u = reinterpret_cast<const unsigned char*>(p);
    return (static_cast<uint32_t>(u[0]) << 24) | (static_cast<uint32_t>(u[1]) << 16) | (static_cast<uint32_t>(u[2]) << 8) | u[3];
}

void appendQuery(std::string& out, const char* sql, size_t length) {
    size_t at = begin(out, 'Q');
    out.append(sql, length);
    out.push_back('\0');
    end(out, at);
}

void appendParse(std::string& out, const char* statement, const std::string& query) {
    size_t at = begin(out, 'P');
    putString(out, statement);
    out.append(query.c_str(), query.size() + 1);
    putUint16(out, 0);  // no parameter types: the server infers them, as libpq without paramTypes
    end(out, at);
}

void appendBind(std::string& out, const char* statement, int count, const char* const* values) {
    size_t at = begin(out, 'B');
    out.push_back('\0');  // the unnamed portal
    putString(out, statement);
    putUint16(out, 0);    // every parameter in text
    putUint16(out, static_cast<uint16_t>(count));
    for (int k = 0; k < count; ++k) {
        const char* v = values[k];
        if (!v) {
            putUint32(out, 0xFFFFFFFFu);  // -1: NULL
            continue;
        }
        size_t n = std::strlen(v);
        putUint32(out, static_cast<uint32_t>(n));
        out.append(v, n);
    }
    putUint16(out, 1);  // one result format for every column: text
    putUint16(out, 0);
    end(out, at);
}

void appendDescribePortal(std::string& out) {
    size_t at = begin(out, 'D');
    out.push_back('P');
    out.push_back('\0');
    end(out, at);
}

void appendExecute(std::string& out) {
    size_t at = begin(out, 'E');
    out.push_back('\0');
    putUint32(out, 0);  // no row limit
    end(out, at);
}

void appendSync(std::string& out) {
    size_t at = begin(out, 'S');
    end(out, at);
}

void InBuffer::reserve(size_t bytes) {
    if (size_ - end_ >= bytes) return;
    size_t size = size_;
    while (size - (end_ - start_) < bytes) size *= 2;
    std::unique_ptr<char[]> bigger(new char[size]);
    std::memcpy(bigger.get(), data_.get() + start_, end_ - start_);
    data_ = std::move(bigger);
    size_ = size;
    end_ -= start_;
    start_ = 0;
}

void InBuffer::restore(std::string& unread) {
    clear();
    reserve(unread.size());
    std::memcpy(data_.get(), unread.data(), unread.size());
    end_ = unread.size();
    unread.clear();
}

void InBuffer::keepRest(std::string& unread) {
    unread.assign(data_.get() + start_, end_ - start_);
    start_ = end_ = 0;
}

long InBuffer::readFrom(int fd) {
    if (start_ == end_) {
        start_ = end_ = 0;
    } else if (start_ > 0 && size_ - end_ < size_ / 4) {
        std::memmove(data_.get(), data_.get() + start_, end_ - start_);  // a partial message to the front
        end_ -= start_;
        start_ = 0;
    }
    if (end_ == size_) reserve(size_);  // a message larger than the buffer
    ssize_t n = recv(fd, data_.get() + end_, size_ - end_, 0);
    if (n > 0) {
        end_ += static_cast<size_t>(n);
        return n;
    }
    if (n == 0) return 0;
    return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? -2 : -1;
}

bool InBuffer::next(Message& m) {
    if (broken_ || end_ - start_ < 5) return false;
    const char* p = data_.get() + start_;
    uint32_t length = readUint32(p + 1);
    if (length < 4) {
        broken_ = true;
        return false;
    }
    if (end_ - start_ < 1 + static_cast<size_t>(length)) return false;
    m.type = p[0];
    m.body = p + 5;
    m.length = length - 4;
    start_ += 1 + length;
    return true;
}

const char* Fields::get(char code) const {
    const char* p = m_.body;
    const char* end = m_.body + m_.length;
    while (p < end && *p) {
        char c = *p++;
        const char* text = p;
        const char* nul = static_cast<const char*>(std::memchr(p, '\0', static_cast<size_t>(end - p)));
        if (!nul) return nullptr;
        if (c == code) return text;
        p = nul + 1;
    }
    return nullptr;
}

std::string cursorDisplay(const char* query, int position, bool utf8) {
    int loc = position - 1;
    if (loc < 0) return {};
    // Each character one column: its byte offset; tabs shown as spaces.
    std::vector<size_t> at;
    std::string text(query);
    int line = 1, first = 0, last = -1, count = 0;
    size_t off = 0;
    for (; off < text.size(); ++count) {
        at.push_back(off);
        char ch = text[off];
        if (ch == '\t') {
            text[off] = ' ';
        } else if (ch == '\r' || ch == '\n') {
            if (count < loc) {
                // \r\n is one line end; \r or \n alone is one each.
                if (ch == '\r' || count == 0 || text[at[static_cast<size_t>(count) - 1]] != '\r') ++line;
                first = count + 1;
            } else {
                last = count;
                break;
            }
        }
        off += utf8 ? utf8Length(static_cast<unsigned char>(ch)) : 1;
        if (off > text.size()) off = text.size();
    }
    if (last < 0) {
        last = count;
        at.push_back(off);
    }
    if (loc > count) return {};
    const int width = 60, keepRight = 10;
    bool cutLeft = false, cutRight = false;
    if (last - first > width) {
        if (first + width >= loc + keepRight) {
            last = first + width;
            cutRight = true;
        } else {
            while (loc + keepRight < last) {
                --last;
                cutRight = true;
            }
            while (last - first > width) {
                ++first;
                cutLeft = true;
            }
        }
    }
    std::string prefix = "LINE " + std::to_string(line) + ": " + (cutLeft ? "..." : "");
    std::string out = prefix;
    out.append(text, at[static_cast<size_t>(first)], at[static_cast<size_t>(last)] - at[static_cast<size_t>(first)]);
    if (cutRight) out += "...";
    out += '\n';
    out.append(prefix.size() + static_cast<size_t>(loc - first), ' ');
    out += "^\n";
    return out;
}

std::string describe(const Message& m, bool isError, const char* query, bool utf8) {
    Fields f(m);
    std::string out;
    if (const char* severity = f.get('S')) out.append(severity).append(":  ");
    if (const char* primary = f.get('M')) out.append(primary);
    const char* cursorText = nullptr;
    int cursorAt = 0;
    if (const char* position = f.get('P')) {
        if (query) {
            cursorText = query;
            cursorAt = std::atoi(position);
        } else {
            out.append(" at character ").append(position);
        }
    } else if (const char* internal = f.get('p')) {
        cursorText = f.get('q');
        if (cursorText) cursorAt = std::atoi(internal);
        else out.append(" at character ").append(internal);
    }
    out += '\n';
    if (cursorText && cursorAt > 0) out += cursorDisplay(cursorText, cursorAt, utf8);
    if (const char* v = f.get('D')) out.append("DETAIL:  ").append(v).append("\n");
    if (const char* v = f.get('H')) out.append("HINT:  ").append(v).append("\n");
    if (const char* v = f.get('q')) out.append("QUERY:  ").append(v).append("\n");
    if (isError)
        if (const char* v = f.get('W')) out.append("CONTEXT:  ").append(v).append("\n");
    return out;
}

bool readColumnNames(const Message& m, std::vector<std::string>& names) {
    if (m.length < 2) return false;
    size_t n = readUint16(m.body);
    const char* p = m.body + 2;
    const char* end = m.body + m.length;
    if (names.size() != n) names.resize(n);
    for (size_t i = 0; i < n; ++i) {
        const char* nul = static_cast<const char*>(std::memchr(p, '\0', static_cast<size_t>(std::max<std::ptrdiff_t>(end - p, 0))));
        if (!nul || end - nul < 1 + 18) return false;  // the name, then table, column, type, size, modifier, format
        names[i].assign(p, static_cast<size_t>(nul - p));
        p = nul + 1 + 18;
    }
    return true;
}

bool readRow(const Message& m, std::vector<std::string>& values) {
    if (m.length < 2) return false;
    size_t n = readUint16(m.body);
    const char* p = m.body + 2;
    const char* end = m.body + m.length;
    if (values.size() != n) values.resize(n);
    for (size_t i = 0; i < n; ++i) {
        if (end - p < 4) return false;
        uint32_t length = readUint32(p);
        p += 4;
        if (length == 0xFFFFFFFFu) {
            values[i].clear();
            continue;
        }
        if (static_cast<size_t>(end - p) < length) return false;
        values[i].assign(p, length);
        p += length;
    }
    return true;
}

} // namespace scalelab::wire
