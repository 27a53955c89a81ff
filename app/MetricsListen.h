#pragma once
// `--metrics-listen` of run, sweep and gui: the publisher the command feeds and the endpoint
// Prometheus scrapes, started before the command measures anything (docs/metrics-endpoint.md).
#include "live/LiveMetrics.h"
#include "live/MetricsEndpoint.h"

#include <memory>
#include <string>

namespace scalelab::app {

struct LiveEndpoint {
    std::shared_ptr<MetricsPublisher> publisher;  // null without --metrics-listen
    std::unique_ptr<MetricsEndpoint> endpoint;
};

// Nothing for an empty `listen`; else listens now (Error when it cannot) and says where on stderr.
LiveEndpoint startLiveEndpoint(const std::string& listen, const std::string& experiment);

} // namespace scalelab::app
