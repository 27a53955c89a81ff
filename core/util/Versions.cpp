#include "util/Versions.h"

#include "ScaleLabVersion.h"

#include <hwloc.h>
#include <libpq-fe.h>
#include <pqxx/version>

namespace scalelab {

std::string scalelabVersion() { return SCALELAB_VERSION; }

std::vector<std::pair<std::string, std::string>> libraryVersions() {
    int pq = PQlibVersion();  // 150018 for 15.18
    std::string libpq = std::to_string(pq / 10000) + "." + std::to_string(pq % 100);
    // hwloc reports only its API version at run time (2.8.0 for 2.9.x): the release compiled
    // against says more.
    return {{"libpq", libpq}, {"libpqxx", PQXX_VERSION}, {"hwloc", HWLOC_VERSION}};
}

} // namespace scalelab
