#pragma once
// One throwaway embedded server for a whole test binary (the binary runs as one ctest
// entry): initdb and start once, then every test connects to it.
#include "ServerRequirement.h"
#include "ThrowawayServer.h"

#include "server/EmbeddedServer.h"

#include <memory>

namespace scalelab::test {

class SharedServer {
public:
    // Starts the server on first use with `settings` applied; later calls return it.
    static EmbeddedServer& get(const std::vector<Setting>& settings = {}) {
        static SharedServer instance(settings);
        return *instance.server_;
    }

private:
    explicit SharedServer(const std::vector<Setting>& settings) : dir_("scalelab-dbtest") {
        server_ = std::make_unique<EmbeddedServer>(throwawayOptions(dir_.path()));
        server_->start();
        server_->applySettings(settings);
    }
    TempDir dir_;
    std::unique_ptr<EmbeddedServer> server_;  // destroyed (stopped) before dir_ is removed
};

} // namespace scalelab::test
