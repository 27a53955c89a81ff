#include "Target.h"

#include "server/Conninfo.h"
#include "util/Error.h"

#include <iostream>

namespace scalelab::app {

std::string conninfoOf(const std::string& value) {
    if (value.find('=') != std::string::npos || value.rfind("postgresql://", 0) == 0 || value.rfind("postgres://", 0) == 0)
        return value;
    std::string quoted = "dbname='";
    for (char c : value) {
        if (c == '\'' || c == '\\') quoted += '\\';
        quoted += c;
    }
    return quoted + "'";
}

Target openTarget(const TargetArgs& args) {
    Target t;
    if (!args.conninfo.empty()) {
        t.conninfo = conninfoOf(args.conninfo);
        refusePassword(t.conninfo, "--conninfo");
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
