#pragma once
// A started embedded server in a temporary directory, for a test that needs one of its
// own (to stop it, or to give it settings the shared one must not have).
#include "server/EmbeddedServer.h"
#include "util/TempDir.h"

namespace scalelab::test {

inline ServerOptions throwawayOptions(const std::filesystem::path& dir) {
    ServerOptions o;
    o.dataDir = dir;
    o.throwaway = true;
    return o;
}

struct ThrowawayServer {
    TempDir dir{"scalelab-dbtest"};
    EmbeddedServer server{throwawayOptions(dir.path())};
    ThrowawayServer() { server.start(); }
};

} // namespace scalelab::test
