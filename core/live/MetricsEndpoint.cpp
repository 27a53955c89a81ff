#include "live/MetricsEndpoint.h"

#include "live/MetricsExposition.h"
#include "util/Error.h"

#include <httplib.h>

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

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

// httplib says only that binding failed; a plain bind to the same address says why.
std::string bindProblem(const ListenAddress& a) {
    addrinfo hints{}, *res = nullptr;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    std::string port = std::to_string(a.port);
    if (int rc = getaddrinfo(a.host.c_str(), port.c_str(), &hints, &res)) return gai_strerror(rc);
    std::string why = "unknown reason";
    int fd = socket(res->ai_family, res->ai_socktype, res->ai_protocol);
    if (fd < 0) {
        why = std::strerror(errno);
    } else {
        int yes = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
        if (bind(fd, res->ai_addr, res->ai_addrlen) != 0) why = std::strerror(errno);
        close(fd);
    }
    freeaddrinfo(res);
    return why;
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
    std::shared_ptr<const MetricsPublisher> publisher;
    httplib::Server server;
    std::thread thread;
};

MetricsEndpoint::MetricsEndpoint(const std::string& listen, std::shared_ptr<const MetricsPublisher> publisher)
    : impl_(std::make_unique<Impl>()) {
    impl_->address = parseListenAddress(listen);
    impl_->publisher = std::move(publisher);
    httplib::Server& s = impl_->server;
    // httplib sets SO_REUSEPORT by default: a second ScaleLab on the same port would then share
    // it silently and Prometheus would scrape either at random. SO_REUSEADDR alone refuses it.
    s.set_socket_options([](int fd) {
        int yes = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    });
    s.new_task_queue = [] { return new httplib::ThreadPool(2); };  // a scraper or two, not a web server
    s.set_read_timeout(5, 0);
    s.set_write_timeout(5, 0);
    auto pub = impl_->publisher;
    s.Get("/metrics", [pub](const httplib::Request& req, httplib::Response& res) {
        ExpositionFormat f = expositionFormatFor(req.get_header_value("Accept"));
        res.set_content(exposition(pub->snapshot(), f), expositionContentType(f));
    });
    s.Get("/", [](const httplib::Request&, httplib::Response& res) {
        res.set_content("ScaleLab: the figures are at /metrics\n", "text/plain; charset=utf-8");
    });
    ListenAddress& a = impl_->address;
    bool bound = false;
    if (a.port == 0) {
        int port = s.bind_to_any_port(a.host);
        bound = port > 0;
        if (bound) a.port = port;
    } else {
        bound = s.bind_to_port(a.host, a.port);
    }
    if (!bound)
        throw Error(std::string(kOption) + " " + listen + ": cannot listen on " + a.host + " port " + std::to_string(a.port) +
                    ": " + bindProblem(a));
    impl_->thread = std::thread([this] { impl_->server.listen_after_bind(); });
    // stop() does nothing to a server not yet running: the destructor must not come first.
    for (int i = 0; i < 10000 && !s.is_running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

MetricsEndpoint::~MetricsEndpoint() {
    impl_->server.stop();
    if (impl_->thread.joinable()) impl_->thread.join();
}

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
