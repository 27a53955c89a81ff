#pragma once
// The HTTP endpoint Prometheus scrapes (`--metrics-listen`): GET /metrics answers with the
// publisher's figures as they are at that moment. It serves from its own thread and only copies
// the publisher's state, so a scrape never waits on the load (docs/metrics-endpoint.md).
#include "live/LiveMetrics.h"

#include <memory>
#include <string>

namespace scalelab {

struct ListenAddress {
    std::string host;  // as given, or 127.0.0.1 when only a port was
    int port = 0;      // 0: any free port (the endpoint says which)
    bool loopback = true;
};

// "9187" and ":9187" listen on 127.0.0.1; "ADDR:PORT" on ADDR, "[::1]:9187" for IPv6,
// "0.0.0.0:9187" on every interface. Throws Error naming the option and what is wrong.
ListenAddress parseListenAddress(const std::string& text);

class MetricsEndpoint {
public:
    // Listens before returning; throws Error when it cannot (in use, not an address here).
    MetricsEndpoint(const std::string& listen, std::shared_ptr<const MetricsPublisher> publisher);
    ~MetricsEndpoint();  // stops serving and waits for its thread
    MetricsEndpoint(const MetricsEndpoint&) = delete;
    MetricsEndpoint& operator=(const MetricsEndpoint&) = delete;

    std::string url() const;  // http://127.0.0.1:9187/metrics, with the port it got
    bool loopback() const;
    // What a command prints when it starts serving: the URL, and a warning when other machines
    // can read it.
    std::string announcement() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace scalelab
