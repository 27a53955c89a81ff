#include "Target.h"

#include "util/Error.h"

#include <libpq-fe.h>

#include <iostream>

namespace scalelab::app {

Target openTarget(const TargetArgs& args) {
    Target t;
    if (!args.conninfo.empty()) {
        char* err = nullptr;
        PQconninfoOption* opts = PQconninfoParse(args.conninfo.c_str(), &err);
        if (!opts) {
            std::string msg = err ? err : "invalid connection string";
            PQfreemem(err);
            throw Error("--conninfo: " + msg);
        }
        bool hasPassword = false;
        for (PQconninfoOption* o = opts; o->keyword; ++o)
            if (std::string(o->keyword) == "password" && o->val && *o->val) hasPassword = true;
        PQconninfoFree(opts);
        if (hasPassword)
            throw Error("--conninfo holds a password; ScaleLab never stores or logs passwords: "
                        "put it in ~/.pgpass (or PGPASSFILE) or the PGPASSWORD environment variable");
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
