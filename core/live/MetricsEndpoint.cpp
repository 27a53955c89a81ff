#include "live/MetricsEndpoint.h"

#include "live/HttpServer.h"
#include "live/MetricsExposition.h"
#include "util/Error.h"

#include <arpa/inet.h>
#include <netinet/in.h>

namespace scalelab {
namespace {

constexpr const char* kOption = "--metrics-listen";

int parsePort(const std::string& text, const std::string& whole) {
    if (text.empty() || text.size() > 5 || text.find_first_not_of("0123456789") != std::string::npos)
        throw Error(std::string(kOption) + " " + whole + ": the port must be a number from 0 to 65535");
    int port = std::stoi(text);
    if (port > 65535) throw Error(std::string(kOption) + " " + whole + ": the port must be a number from 0 to 65535");
    return port;
}

bool isLoopback(const std::string& host) {
    if (host == "localhost" || host == "::1") return true;
    in_addr a{};
    return inet_pton(AF_INET, host.c_str(), &a) == 1 && (ntohl(a.s_addr) >> 24) == 127;
}

} // namespace

ListenAddress parseListenAddress(const std::string& text) {
    ListenAddress a;
    std::string port;
    if (text.empty()) throw Error(std::string(kOption) + ": give a port (9187), or ADDRESS:PORT");
    if (text.front() == '[') {  // [IPv6]:PORT
        size_t close = text.find(']');
        if (close == std::string::npos || close + 1 >= text.size() || text[close + 1] != ':')
            throw Error(std::string(kOption) + " " + text + ": an IPv6 address is written [ADDRESS]:PORT");
        a.host = text.substr(1, close - 1);
        port = text.substr(close + 2);
    } else if (size_t colon = text.rfind(':'); colon != std::string::npos) {
        if (text.find(':') != colon)
            throw Error(std::string(kOption) + " " + text + ": an IPv6 address is written [ADDRESS]:PORT");
        a.host = text.substr(0, colon);
        port = text.substr(colon + 1);
    } else {
        port = text;
    }
    if (a.host.empty()) a.host = "127.0.0.1";  // loopback unless an address is given
    a.port = parsePort(port, text);
    a.loopback = isLoopback(a.host);
    return a;
}

struct MetricsEndpoint::Impl {
    ListenAddress address;
    std::unique_ptr<HttpServer> server;
};

MetricsEndpoint::MetricsEndpoint(const std::string& listen, std::shared_ptr<const MetricsPublisher> publisher)
    : impl_(std::make_unique<Impl>()) {
    impl_->address = parseListenAddress(listen);
    // Only GET /metrics has figures, and GET / says where they are; other paths are 404 and
    // other methods 405 (core/live/HttpServer.h: bounded connections, request size and time).
    auto serve = [pub = std::move(publisher)](const HttpRequest& req) {
        std::string path = req.target.substr(0, req.target.find('?'));
        HttpResponse res;
        if (path == "/metrics") {
            auto accept = req.headers.find("accept");
            ExpositionFormat f = expositionFormatFor(accept == req.headers.end() ? std::string() : accept->second);
            res.body = exposition(pub->snapshot(), f);
            res.contentType = expositionContentType(f);
        } else if (path == "/") {
            res.body = "ScaleLab: the figures are at /metrics\n";
        } else {
            res.status = 404;
            res.body = "Not Found: the figures are at /metrics\n";
        }
        return res;
    };
    ListenAddress& a = impl_->address;
    try {
        impl_->server = std::make_unique<HttpServer>(a.host, a.port, serve);
    } catch (const Error& e) {
        throw Error(std::string(kOption) + " " + listen + ": " + e.what());
    }
    a.port = impl_->server->port();
}

MetricsEndpoint::~MetricsEndpoint() = default;

std::string MetricsEndpoint::url() const {
    const ListenAddress& a = impl_->address;
    bool v6 = a.host.find(':') != std::string::npos;
    return "http://" + (v6 ? "[" + a.host + "]" : a.host) + ":" + std::to_string(a.port) + "/metrics";
}

bool MetricsEndpoint::loopback() const { return impl_->address.loopback; }

std::string MetricsEndpoint::announcement() const {
    std::string s = "metrics for Prometheus at " + url();
    if (!loopback())
        s += " (not loopback: any machine that reaches this address can read the run's figures, with no password)";
    return s;
}

} // namespace scalelab
