// The wire engine's protocol pieces on bytes: the messages it builds, the stream it splits,
// and libpq's words for an error it rebuilds (the whole text against libpq's own is compared
// on a real server in tests/db/LoadRunTest.cpp).
#include "load/worker/WireProtocol.h"

#include <gtest/gtest.h>

#include <sys/socket.h>
#include <unistd.h>

#include <string>

using namespace scalelab;
using namespace std::string_literals;

namespace {
std::string message(char type, const std::string& body) {
    uint32_t n = static_cast<uint32_t>(body.size() + 4);
    std::string m(1, type);
    for (int i = 3; i >= 0; --i) m.push_back(static_cast<char>(n >> (8 * i)));
    return m + body;
}
} // namespace

TEST(WireProtocol, BindCarriesTextParametersAndNull) {
    std::string out;
    const char* values[] = {"42", nullptr};
    wire::appendBind(out, "s1", 2, values);
    std::string body = "\0s1\0"s "\0\0"s "\0\2"s "\0\0\0\2"s "42" "\xff\xff\xff\xff"s "\0\1\0\0"s;
    EXPECT_EQ(out, message('B', body));
    out.clear();
    wire::appendExecute(out);
    wire::appendSync(out);
    EXPECT_EQ(out, message('E', "\0\0\0\0\0"s) + message('S', ""));
    out.clear();
    wire::appendQuery(out, "SELECT 1", 8);
    EXPECT_EQ(out, message('Q', "SELECT 1\0"s));
}

TEST(WireProtocol, MessagesComeWholeWhateverTheReadsCut) {
    int fds[2];
    ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
    wire::InBuffer in(16);  // smaller than the row: the buffer grows for it
    std::string stream = message('D', "\0\1\0\0\0\x1e"s + std::string(30, 'v')) + message('Z', "I");
    wire::Message m;
    ASSERT_EQ(write(fds[1], stream.data(), 7), 7);
    EXPECT_GT(in.readFrom(fds[0]), 0);
    EXPECT_FALSE(in.next(m)) << "half a message";
    ASSERT_EQ(write(fds[1], stream.data() + 7, stream.size() - 7), static_cast<ssize_t>(stream.size() - 7));
    while (in.readFrom(fds[0]) > 0 && !in.next(m)) {
    }
    EXPECT_EQ(m.type, 'D');
    std::vector<std::string> values;
    ASSERT_TRUE(wire::readRow(m, values));
    EXPECT_EQ(values, std::vector<std::string>{std::string(30, 'v')});
    while (!in.next(m)) ASSERT_GT(in.readFrom(fds[0]), 0);
    EXPECT_EQ(m.type, 'Z');
    EXPECT_EQ(std::string(m.body, m.length), "I");
    close(fds[1]);
    EXPECT_EQ(in.readFrom(fds[0]), 0) << "the other end closed";
    close(fds[0]);
}

TEST(WireProtocol, AClientsUnreadBytesWaitForItsNextReadWhileOthersUseTheBuffer) {
    // One buffer per thread: client A's read ends inside a message, client B reads whole
    // messages through the same buffer, then A's next read completes its message.
    int a[2], b[2];
    ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, a), 0);
    ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, b), 0);
    std::string rowA = message('D', "\0\1\0\0\0\x05hello"s) + message('Z', "T");
    std::string rowB = message('C', "SELECT 1\0"s) + message('Z', "I");
    wire::InBuffer in(16);
    std::string unreadA, unreadB;
    wire::Message m;
    ASSERT_EQ(write(a[1], rowA.data(), 9), 9);
    in.restore(unreadA);
    ASSERT_GT(in.readFrom(a[0]), 0);
    EXPECT_FALSE(in.next(m)) << "A's row is not complete";
    in.keepRest(unreadA);
    EXPECT_EQ(unreadA, rowA.substr(0, 9));
    ASSERT_EQ(write(b[1], rowB.data(), rowB.size()), static_cast<ssize_t>(rowB.size()));
    in.restore(unreadB);
    while (!in.next(m)) ASSERT_GT(in.readFrom(b[0]), 0);
    EXPECT_EQ(m.type, 'C');
    EXPECT_EQ(std::string(m.body, m.length), "SELECT 1\0"s);
    while (!in.next(m)) ASSERT_GT(in.readFrom(b[0]), 0);
    EXPECT_EQ(m.type, 'Z');
    in.keepRest(unreadB);
    EXPECT_TRUE(unreadB.empty());
    ASSERT_EQ(write(a[1], rowA.data() + 9, rowA.size() - 9), static_cast<ssize_t>(rowA.size() - 9));
    in.restore(unreadA);
    EXPECT_TRUE(unreadA.empty()) << "the buffer holds them now";
    while (!in.next(m)) ASSERT_GT(in.readFrom(a[0]), 0);
    EXPECT_EQ(m.type, 'D');
    std::vector<std::string> values;
    ASSERT_TRUE(wire::readRow(m, values));
    EXPECT_EQ(values, std::vector<std::string>{"hello"});
    while (!in.next(m)) ASSERT_GT(in.readFrom(a[0]), 0);
    EXPECT_EQ(m.type, 'Z');
    EXPECT_EQ(std::string(m.body, m.length), "T");
    for (int fd : {a[0], a[1], b[0], b[1]}) close(fd);
}

TEST(WireProtocol, AShortLengthBreaksTheStream) {
    int fds[2];
    ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
    std::string bad = "Z\0\0\0\2"s;
    ASSERT_EQ(write(fds[1], bad.data(), bad.size()), static_cast<ssize_t>(bad.size()));
    wire::InBuffer in;
    ASSERT_GT(in.readFrom(fds[0]), 0);
    wire::Message m;
    EXPECT_FALSE(in.next(m));
    EXPECT_TRUE(in.broken());
    close(fds[0]);
    close(fds[1]);
}

TEST(WireProtocol, RowsAndColumnsAreBoundsChecked) {
    std::string body = "\0\2"s + "a\0"s + std::string(18, '\0') + "b\0"s + std::string(18, '\0');
    wire::Message m{'T', body.data(), static_cast<uint32_t>(body.size())};
    std::vector<std::string> names;
    ASSERT_TRUE(wire::readColumnNames(m, names));
    EXPECT_EQ(names, (std::vector<std::string>{"a", "b"}));
    m.length -= 1;  // the last column's fields cut short
    EXPECT_FALSE(wire::readColumnNames(m, names));
    std::string row = "\0\2\0\0\0\5hello\xff\xff\xff\xff"s;
    wire::Message r{'D', row.data(), static_cast<uint32_t>(row.size())};
    std::vector<std::string> values{"old", "old"};
    ASSERT_TRUE(wire::readRow(r, values));
    EXPECT_EQ(values, (std::vector<std::string>{"hello", ""})) << "NULL reads as empty text, as PQgetvalue";
    r.length = 8;  // a value longer than what is left
    EXPECT_FALSE(wire::readRow(r, values));
}

TEST(WireProtocol, ErrorsReadAsLibpqWritesThem) {
    std::string body = "SERROR\0"s "VERROR\0"s "C42601\0"s "Msyntax error at or near \"SELEC\"\0"s "P1\0"s "\0"s;
    wire::Message m{'E', body.data(), static_cast<uint32_t>(body.size())};
    EXPECT_STREQ(wire::Fields(m).get('C'), "42601");
    EXPECT_EQ(wire::Fields(m).get('D'), nullptr);
    EXPECT_EQ(wire::describe(m, true, "SELEC 1", true), "ERROR:  syntax error at or near \"SELEC\"\nLINE 1: SELEC 1\n        ^\n");
    // Without the query's text (a prepared statement) the position is said in words.
    EXPECT_EQ(wire::describe(m, true, nullptr, true), "ERROR:  syntax error at or near \"SELEC\" at character 1\n");
    // A notice shows no CONTEXT; an error does.
    std::string notice = "SNOTICE\0"s "Mhello\0"s "Wwhere it was\0"s "\0"s;
    wire::Message n{'N', notice.data(), static_cast<uint32_t>(notice.size())};
    EXPECT_EQ(wire::describe(n, false, nullptr, true), "NOTICE:  hello\n");
    EXPECT_EQ(wire::describe(n, true, nullptr, true), "NOTICE:  hello\nCONTEXT:  where it was\n");
}

TEST(WireProtocol, TheCursorFindsItsLineAndKeepsSixtyColumns) {
    // The third line (\r\n is one line end), a tab shown as a space.
    EXPECT_EQ(wire::cursorDisplay("SELECT\r\n1 +\n\t'x'", 14, false), "LINE 3:  'x'\n         ^\n");
    // UTF-8: the position counts characters, not bytes.
    EXPECT_EQ(wire::cursorDisplay("SELECT 'é', x", 13, true), "LINE 1: SELECT 'é', x\n                    ^\n");
    // A long line is cut on the right when the cursor is near its start ...
    std::string longLine = "SELECT " + std::string(100, 'a');
    EXPECT_EQ(wire::cursorDisplay(longLine.c_str(), 3, false), "LINE 1: " + longLine.substr(0, 60) + "...\n          ^\n");
    // ... and on both sides when it is far along.
    std::string shown = wire::cursorDisplay(longLine.c_str(), 90, false);
    EXPECT_EQ(shown.substr(0, 11), "LINE 1: ...");
    EXPECT_EQ(shown.find("...\n"), shown.find('\n') - 3);
    EXPECT_EQ(shown.substr(shown.find('\n') + 1).find('^'), 8u + 3 + (89 - (89 + 10 - 60)));
    EXPECT_EQ(wire::cursorDisplay("SELECT 1", 20, false), "") << "beyond the query: nothing";
}
