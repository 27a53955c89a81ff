#pragma once
// PostgreSQL's frontend/backend protocol (version 3), the part a load generator's steady state
// needs, spoken on a socket libpq has connected and authenticated: the "wire" engine
// (docs/load-engines.md). Messages are built into and parsed out of buffers the caller owns and
// reuses, so a steady transaction allocates nothing. No libpq and no Qt here: the functions are
// tested on bytes (tests/unit/WireProtocolTest.cpp).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace scalelab::wire {

// --- Frontend messages, appended to `out` (its capacity is reused between transactions).
void appendQuery(std::string& out, const char* sql, size_t length);  // 'Q': the simple protocol
void appendParse(std::string& out, const char* statement, const std::string& query);  // parameter types left to the server
// 'B' into the unnamed portal: text parameters (nullptr: SQL NULL), text results.
void appendBind(std::string& out, const char* statement, int count, const char* const* values);
void appendDescribePortal(std::string& out);  // 'D' 'P': the columns' names come back ('T')
void appendExecute(std::string& out);         // 'E': every row
void appendSync(std::string& out);            // 'S': the server answers ReadyForQuery ('Z')

// --- Backend messages.
struct Message {
    char type = 0;
    const char* body = nullptr;  // inside the InBuffer: valid until its next read or restore
    uint32_t length = 0;         // of the body
};

// Received bytes, split into whole messages. One buffer per worker thread, shared by all of its
// clients (memory per client counts at 1,000 clients): a client reads into it, takes the whole
// messages, and keeps what is left of a message not yet complete (rare: the server writes an
// answer in one piece) in its own `unread` string until its next read. The buffer grows only for
// a message larger than any before it (a result's rows stream through it).
class InBuffer {
public:
    explicit InBuffer(size_t capacity = 8192) : data_(new char[capacity]), size_(capacity) {}
    // Starts a client's read: the buffer holds the bytes that client left unread (taken from
    // `unread`, which is emptied) and nothing else.
    void restore(std::string& unread);
    // One recv() on the (non-blocking) socket: >0 bytes read, 0 the server closed the
    // connection, -1 an error (errno), -2 nothing to read now.
    long readFrom(int fd);
    // The next complete message, consumed; false when none is complete. A length under 4 is a
    // broken stream: `broken` is set and nothing more is returned.
    bool next(Message& m);
    // Ends a client's read: what was not consumed goes to `unread` (its capacity is kept), and
    // the buffer is empty for the next client.
    void keepRest(std::string& unread);
    bool broken() const { return broken_; }
    bool empty() const { return start_ == end_; }
    void clear() { start_ = end_ = 0, broken_ = false; }

private:
    void reserve(size_t bytes);  // room for `bytes` more after end_
    std::unique_ptr<char[]> data_;
    size_t size_;
    size_t start_ = 0, end_ = 0;
    bool broken_ = false;
};

// Readers of a message body.
uint16_t readUint16(const char* p);
uint32_t readUint32(const char* p);

// An ErrorResponse's or NoticeResponse's fields: a field code byte and its text, repeated.
class Fields {
public:
    explicit Fields(const Message& m) : m_(m) {}
    const char* get(char code) const;  // nullptr when absent
private:
    const Message& m_;
};

// libpq's text for an error or notice at its default verbosity (PQERRORS_DEFAULT, context shown
// for errors): "ERROR:  primary\n", the syntax cursor ("LINE 1: ...", "^") when the server gave
// a position and the query text is known (simple and extended protocol; prepared statements
// say " at character N"), DETAIL, HINT, QUERY, CONTEXT. `utf8`: positions count UTF-8
// characters, as libpq does in a UTF8 client encoding (each one column wide).
std::string describe(const Message& m, bool isError, const char* query, bool utf8);

// The cursor display libpq adds under an error with a position: "LINE n: text\n" (the line
// holding character `position`, 1-based, cut to 60 columns around it with "...") and a line
// with a caret under the character. Empty when the position is beyond the query.
std::string cursorDisplay(const char* query, int position, bool utf8);

// The columns of a RowDescription ('T'), their names into `names` (reused).
bool readColumnNames(const Message& m, std::vector<std::string>& names);
// The values of a DataRow ('D') into `values` (reused; a NULL reads as "", as PQgetvalue's).
bool readRow(const Message& m, std::vector<std::string>& values);

} // namespace scalelab::wire
