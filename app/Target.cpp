#include "Target.h"

#include "server/Conninfo.h"
#include "util/Error.h"

#include <iostream>

namespace scalelab::app {

Target openTarget(const TargetArgs& args) {
    Target t;
    if (!args.conninfo.empty()) {
        refusePassword(args.conninfo, "--conninfo");
        t.conninfo = args.conninfo;
        return t;
    }
    ServerOptions o;
    o.dataDir = args.dataDir.empty() ? defaultDataDir() : args.dataDir;
    o.pgBindir = args.pgBindir;
    o.note = [](const std::string& line) { std::cerr << "scalelab: " << line << "\n"; };
    t.embedded = std::make_unique<EmbeddedServer>(o);
    t.embedded->start();
    t.embedded->keepRunning();
    t.conninfo = t.embedded->connectionString();
    return t;
}

} // namespace scalelab::app
