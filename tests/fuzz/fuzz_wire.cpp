// libFuzzer: any bytes as what a server sends the wire engine (docs/load-engines.md). The
// stream is split into messages and each is read as a row, a row description and an error,
// and the input's text gets a syntax cursor at a position it chooses: a malformed message is
// refused (false, or a broken stream), nothing reads out of bounds, crashes or hangs.
#include "load/worker/WireProtocol.h"

#include <sys/socket.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

using namespace scalelab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    int fds[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0) return 0;
    (void)!write(fds[1], data, size);  // below the socket's buffer at the fuzz script's -max_len
    close(fds[1]);
    wire::InBuffer in(64);
    std::vector<std::string> names, values;
    wire::Message m;
    while (in.readFrom(fds[0]) > 0) {
        while (in.next(m)) {
            (void)wire::readRow(m, values);
            (void)wire::readColumnNames(m, names);
            (void)wire::describe(m, true, "SELECT 1", true);
            (void)wire::describe(m, false, nullptr, false);
        }
    }
    close(fds[0]);
    std::string text(reinterpret_cast<const char*>(data), size);
    std::string query = text.substr(0, text.find('\0'));
    int position = size > 0 ? data[0] : 0;
    (void)wire::cursorDisplay(query.c_str(), position, true);
    (void)wire::cursorDisplay(query.c_str(), position, false);
    return 0;
}
