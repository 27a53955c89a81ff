#include "MetricsListen.h"

#include <cstdio>

namespace scalelab::app {

LiveEndpoint startLiveEndpoint(const std::string& listen, const std::string& experiment) {
    LiveEndpoint live;
    if (listen.empty()) return live;
    live.publisher = std::make_shared<MetricsPublisher>(experiment);
    live.endpoint = std::make_unique<MetricsEndpoint>(listen, live.publisher);
    std::fprintf(stderr, "scalelab: %s\n", live.endpoint->announcement().c_str());
    return live;
}

} // namespace scalelab::app
