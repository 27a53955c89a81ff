#include "live/HttpServer.h"

#include "util/Error.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <thread>
#include <vector>

namespace scalelab {
namespace {

using Clock = std::chrono::steady_clock;

// After the response: what the client still sends (a POST's body) is read and dropped for a
// moment, so that closing with unread bytes (which makes the kernel send a reset) does not
// destroy the response before the client read it.
constexpr std::chrono::milliseconds kDrainTime{1000};
constexpr size_t kMaxDrainBytes = 1 << 20;

const char* reason(int status) {
    switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 431: return "Request Header Fields Too Large";
    default: return "Internal Server Error";
    }
}

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string trimmed(const std::string& s) {
    size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

struct Connection {
    enum class Phase { Request, Response, Drain };
    int fd = -1;
    Phase phase = Phase::Request;
    Clock::time_point opened, deadline;
    std::string in, out;
    size_t sent = 0, drained = 0;
};

} // namespace

bool parseRequestHead(const std::string& head, HttpRequest& out) {
    size_t lineEnd = head.find('\n');
    std::string line = trimmed(head.substr(0, lineEnd));
    size_t sp1 = line.find(' '), sp2 = line.rfind(' ');
    if (sp1 == std::string::npos || sp2 == sp1) return false;
    out.method = line.substr(0, sp1);
    out.target = line.substr(sp1 + 1, sp2 - sp1 - 1);
    if (line.compare(sp2 + 1, 5, "HTTP/") != 0 || out.method.empty() || out.target.empty() ||
        out.target.find(' ') != std::string::npos)
        return false;
    while (lineEnd != std::string::npos && lineEnd + 1 < head.size()) {
        size_t start = lineEnd + 1;
        lineEnd = head.find('\n', start);
        std::string h = trimmed(head.substr(start, lineEnd == std::string::npos ? std::string::npos : lineEnd - start));
        if (h.empty()) break;
        size_t colon = h.find(':');
        if (colon == std::string::npos || colon == 0) return false;
        out.headers[lower(trimmed(h.substr(0, colon)))] = trimmed(h.substr(colon + 1));
    }
    return true;
}

struct HttpServer::Impl {
    Handler handler;
    int listenFd = -1, port = 0;
    int wake[2] = {-1, -1};
    std::vector<Connection> connections;
    Clock::time_point acceptAgainAt{};  // after a failed accept (no descriptor left): not before this
    std::thread thread;

    ~Impl() {
        for (auto& c : connections) close(c.fd);
        for (int fd : {listenFd, wake[0], wake[1]})
            if (fd >= 0) close(fd);
    }

    void serve();
    void acceptAll(Clock::time_point now);
    void readRequest(Connection& c, Clock::time_point now);
    void respond(Connection& c, const HttpRequest* request, int status, Clock::time_point now);
    void writeResponse(Connection& c, Clock::time_point now);
    void drain(Connection& c);
};

void HttpServer::Impl::serve() {
    std::vector<pollfd> fds;
    for (;;) {
        Clock::time_point now = Clock::now();
        fds.clear();
        fds.push_back({wake[0], POLLIN, 0});
        bool acceptNow = now >= acceptAgainAt;
        fds.push_back({acceptNow ? listenFd : -1, POLLIN, 0});
        Clock::time_point next = acceptNow ? Clock::time_point::max() : acceptAgainAt;
        for (const auto& c : connections) {
            fds.push_back({c.fd, static_cast<short>(c.phase == Connection::Phase::Response ? POLLOUT : POLLIN), 0});
            next = std::min(next, c.deadline);
        }
        int timeoutMs = -1;
        if (next != Clock::time_point::max())
            timeoutMs = static_cast<int>(
                std::max<long long>(0, std::chrono::duration_cast<std::chrono::milliseconds>(next - now).count() + 1));
        int n = poll(fds.data(), fds.size(), timeoutMs);
        if (n < 0 && errno != EINTR) return;
        if (fds[0].revents) return;  // stop
        now = Clock::now();
        for (size_t i = 0; i < connections.size(); ++i) {
            Connection& c = connections[i];
            short ev = fds[i + 2].revents;
            if (ev & (POLLERR | POLLNVAL)) {
                close(c.fd), c.fd = -1;
            } else if (c.phase == Connection::Phase::Request && (ev & (POLLIN | POLLHUP))) {
                readRequest(c, now);
            } else if (c.phase == Connection::Phase::Response && (ev & (POLLOUT | POLLHUP))) {
                writeResponse(c, now);
            } else if (c.phase == Connection::Phase::Drain && (ev & (POLLIN | POLLHUP))) {
                drain(c);
            }
            if (c.fd >= 0 && now >= c.deadline) close(c.fd), c.fd = -1;  // too slow: the request, or taking the answer
        }
        connections.erase(std::remove_if(connections.begin(), connections.end(), [](const Connection& c) { return c.fd < 0; }),
                          connections.end());
        if (fds[1].revents & POLLIN) acceptAll(now);
    }
}

void HttpServer::Impl::acceptAll(Clock::time_point now) {
    for (int i = 0; i < 64; ++i) {
        int fd = accept4(listenFd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EINTR) continue;
            // EAGAIN: none left. EMFILE and the like: this process has no descriptor to spare;
            // the connection stays in the kernel's queue and is tried again shortly.
            if (errno != EAGAIN && errno != EWOULDBLOCK) acceptAgainAt = now + std::chrono::milliseconds(100);
            return;
        }
        if (static_cast<int>(connections.size()) >= kMaxConnections) {
            // Room is made by closing whoever has waited longest for its request; one that is
            // being answered keeps its place.
            auto oldest = connections.end();
            for (auto it = connections.begin(); it != connections.end(); ++it)
                if (it->phase == Connection::Phase::Request && (oldest == connections.end() || it->opened < oldest->opened))
                    oldest = it;
            if (oldest == connections.end()) {
                close(fd);
                continue;
            }
            close(oldest->fd);
            connections.erase(oldest);
        }
        Connection c;
        c.fd = fd;
        c.opened = now;
        c.deadline = now + kRequestTime;
        connections.push_back(std::move(c));
    }
}

void HttpServer::Impl::readRequest(Connection& c, Clock::time_point now) {
    char buf[4096];
    for (;;) {
        ssize_t n = recv(c.fd, buf, sizeof buf, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        if (n <= 0) {  // the client went away (or failed) before its request was whole
            close(c.fd), c.fd = -1;
            return;
        }
        c.in.append(buf, static_cast<size_t>(n));
        if (c.in.find("\r\n\r\n") != std::string::npos || c.in.find("\n\n") != std::string::npos ||
            c.in.size() > kMaxRequestBytes)
            break;
    }
    size_t end = c.in.find("\r\n\r\n");
    if (end == std::string::npos) end = c.in.find("\n\n");
    if (end == std::string::npos || end > kMaxRequestBytes) {
        if (c.in.size() > kMaxRequestBytes) respond(c, nullptr, 431, now);
        return;
    }
    HttpRequest request;
    if (!parseRequestHead(c.in.substr(0, end), request)) return respond(c, nullptr, 400, now);
    if (request.method != "GET" && request.method != "HEAD") return respond(c, &request, 405, now);
    respond(c, &request, 0, now);
}

void HttpServer::Impl::respond(Connection& c, const HttpRequest* request, int status, Clock::time_point now) {
    HttpResponse res;
    if (status == 0) {
        try {
            res = handler(*request);
        } catch (const std::exception& e) {
            res = {500, "text/plain; charset=utf-8", std::string("ScaleLab could not answer: ") + e.what() + "\n"};
        }
    } else {
        res.status = status;
        res.body = std::string(reason(status)) + "\n";
    }
    std::string head = "HTTP/1.1 " + std::to_string(res.status) + " " + reason(res.status) +
                       "\r\nContent-Type: " + res.contentType + "\r\nContent-Length: " + std::to_string(res.body.size()) +
                       "\r\nConnection: close\r\n" + (res.status == 405 ? "Allow: GET, HEAD\r\n" : "") + "\r\n";
    c.out = head + (request && request->method == "HEAD" ? std::string() : res.body);
    c.in.clear();
    c.in.shrink_to_fit();
    c.phase = Connection::Phase::Response;
    c.deadline = now + kResponseTime;
    writeResponse(c, now);
}

void HttpServer::Impl::writeResponse(Connection& c, Clock::time_point now) {
    while (c.sent < c.out.size()) {
        ssize_t n = send(c.fd, c.out.data() + c.sent, c.out.size() - c.sent, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
        if (n < 0) {
            close(c.fd), c.fd = -1;
            return;
        }
        c.sent += static_cast<size_t>(n);
    }
    shutdown(c.fd, SHUT_WR);
    c.phase = Connection::Phase::Drain;
    c.deadline = std::min(c.deadline, now + kDrainTime);
}

void HttpServer::Impl::drain(Connection& c) {
    char buf[4096];
    for (;;) {
        ssize_t n = recv(c.fd, buf, sizeof buf, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        c.drained += n > 0 ? static_cast<size_t>(n) : 0;
        if (n <= 0 || c.drained > kMaxDrainBytes) {
            close(c.fd), c.fd = -1;
            return;
        }
    }
}

HttpServer::HttpServer(const std::string& host, int port, Handler handler) : impl_(std::make_unique<Impl>()) {
    impl_->handler = std::move(handler);
    std::string where = "cannot listen on " + host + " port " + std::to_string(port) + ": ";
    addrinfo hints{}, *res = nullptr;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    std::string service = std::to_string(port);
    if (int rc = getaddrinfo(host.c_str(), service.c_str(), &hints, &res)) throw Error(where + gai_strerror(rc));
    int fd = socket(res->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    std::string why;
    if (fd < 0) {
        why = std::strerror(errno);
    } else {
        // SO_REUSEADDR only: with SO_REUSEPORT a second ScaleLab on the same port would share it,
        // and Prometheus would scrape either at random.
        int yes = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
        if (bind(fd, res->ai_addr, res->ai_addrlen) != 0 || listen(fd, 64) != 0) why = std::strerror(errno);
    }
    freeaddrinfo(res);
    if (!why.empty()) {
        if (fd >= 0) close(fd);
        throw Error(where + why);
    }
    impl_->listenFd = fd;
    sockaddr_storage bound{};
    socklen_t len = sizeof bound;
    getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &len);
    impl_->port = ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port
                                                    : reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
    if (pipe2(impl_->wake, O_CLOEXEC | O_NONBLOCK) != 0) throw Error(where + std::strerror(errno));
    impl_->thread = std::thread([impl = impl_.get()] { impl->serve(); });
}

HttpServer::~HttpServer() {
    char stop = 1;
    if (write(impl_->wake[1], &stop, 1) < 0) {
        // A full pipe already wakes it.
    }
    if (impl_->thread.joinable()) impl_->thread.join();
}

int HttpServer::port() const { return impl_->port; }

} // namespace scalelab
