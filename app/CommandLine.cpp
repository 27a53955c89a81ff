#include "CommandLine.h"

#include "store/ExperimentStore.h"

namespace scalelab::app {

const char* const kExperimentHelp = "Experiment: a file (.slab), a results store location postgresql://HOST/DB#NAME, "
                                    "or NAME with --store";

const char* const kMetricsListenHelp = "Serve live figures to Prometheus at http://ADDR:PORT/metrics (PORT alone: loopback; "
                                       "docs/metrics-endpoint.md)";

const CLI::Validator& experimentCheck() {
    static const CLI::Validator check(
        [](std::string& s) { return isStoreLocation(s) ? std::string() : CLI::ExistingFile(s); }, "EXPERIMENT");
    return check;
}

} // namespace scalelab::app
