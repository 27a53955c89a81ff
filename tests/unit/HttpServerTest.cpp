// The endpoint's HTTP server under hostile clients (issue 60.5): idle connections past every
// descriptor, a client that sends its request a byte at a time, a huge POST, an oversized head.
// Each time a scraper still gets its figures, and the server holds a bounded number of
// connections. Real sockets on loopback.
#include "live/HttpServer.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace scalelab {
namespace {

using namespace std::chrono_literals;

HttpResponse answer(const HttpRequest& req) {
    if (req.target == "/metrics") return {200, "text/plain; charset=utf-8", "scalelab_up 1\n"};
    return {404, "text/plain; charset=utf-8", "no\n"};
}

int connectTo(int port) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0) << std::strerror(errno);
    return fd;
}

// Everything the server sends until it closes, or what came within `limit`.
std::string readAll(int fd, std::chrono::milliseconds limit = 10s) {
    std::string out;
    auto end = std::chrono::steady_clock::now() + limit;
    char buf[4096];
    for (;;) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now()).count();
        pollfd p{fd, POLLIN, 0};
        if (left <= 0 || poll(&p, 1, static_cast<int>(left)) <= 0) return out;
        ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n <= 0) return out;
        out.append(buf, static_cast<size_t>(n));
    }
}

std::string scrape(int port) {
    httplib::Client client("127.0.0.1", port);
    client.set_read_timeout(10, 0);
    auto res = client.Get("/metrics");
    if (!res) return "no answer: " + httplib::to_string(res.error());
    return std::to_string(res->status) + " " + res->body;
}

size_t openDescriptors() {
    size_t n = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator("/proc/self/fd")) ++n;
    return n;
}

TEST(HttpServer, IdleConnectionsNeitherExhaustDescriptorsNorBlockAScrape) {
    HttpServer server("127.0.0.1", 0, answer);
    size_t before = openDescriptors();
    std::vector<int> idle;
    for (int i = 0; i < 300; ++i) idle.push_back(connectTo(server.port()));
    std::this_thread::sleep_for(200ms);  // all accepted (or waiting in the kernel's queue)
    EXPECT_EQ(scrape(server.port()), "200 scalelab_up 1\n");
    // This process holds the 300 client ends; the server's own ends are at most its limit.
    EXPECT_LE(openDescriptors(), before + idle.size() + HttpServer::kMaxConnections + 1);
    for (int fd : idle) close(fd);
}

TEST(HttpServer, RequestsSentByteByByteNeitherBlockAScrapeNorLastPastTheirTime) {
    HttpServer server("127.0.0.1", 0, answer);
    std::vector<int> slow;
    for (int i = 0; i < HttpServer::kMaxConnections + 4; ++i) {
        slow.push_back(connectTo(server.port()));
        ASSERT_EQ(send(slow.back(), "GET /metrics HTTP/1.1\r\nX: ", 26, MSG_NOSIGNAL), 26);
    }
    EXPECT_EQ(scrape(server.port()), "200 scalelab_up 1\n") << "room was made for the scraper";
    // The last slow client, still within the connection limit, is closed once its request's
    // time is up, though it keeps sending.
    int last = slow.back();
    auto start = std::chrono::steady_clock::now();
    bool closed = false;
    while (!closed && std::chrono::steady_clock::now() - start < HttpServer::kRequestTime + 3s) {
        send(last, "a", 1, MSG_NOSIGNAL);  // fails once the server closed it
        pollfd p{last, POLLIN, 0};
        if (poll(&p, 1, 500) <= 0) continue;
        char c;
        ssize_t n = recv(last, &c, 1, 0);
        EXPECT_LE(n, 0) << "a request not whole within its time gets no answer";
        closed = true;
    }
    EXPECT_TRUE(closed) << "still open after " << (HttpServer::kRequestTime + 3s).count() << " ms";
    for (int fd : slow) close(fd);
}

TEST(HttpServer, ABodyIsNeverReadAndAnOversizedHeadIsRefused) {
    HttpServer server("127.0.0.1", 0, answer);
    int post = connectTo(server.port());
    std::string head = "POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 300000000\r\n\r\n";
    ASSERT_EQ(send(post, head.data(), head.size(), MSG_NOSIGNAL), static_cast<ssize_t>(head.size()));
    std::string res = readAll(post);
    EXPECT_EQ(res.rfind("HTTP/1.1 405 Method Not Allowed\r\n", 0), 0u) << res;
    EXPECT_NE(res.find("Allow: GET, HEAD\r\n"), std::string::npos) << res;
    close(post);

    int big = connectTo(server.port());
    std::string huge = "GET /metrics HTTP/1.1\r\nX: " + std::string(HttpServer::kMaxRequestBytes, 'x');
    send(big, huge.data(), huge.size(), MSG_NOSIGNAL);
    res = readAll(big);
    EXPECT_EQ(res.rfind("HTTP/1.1 431 Request Header Fields Too Large\r\n", 0), 0u) << res.substr(0, 200);
    close(big);

    int head1 = connectTo(server.port());
    std::string h = "HEAD /metrics HTTP/1.0\r\n\r\n";
    send(head1, h.data(), h.size(), MSG_NOSIGNAL);
    res = readAll(head1);
    EXPECT_EQ(res, "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 14\r\nConnection: close\r\n\r\n");
    close(head1);

    int bad = connectTo(server.port());
    send(bad, "NONSENSE\r\n\r\n", 12, MSG_NOSIGNAL);
    EXPECT_EQ(readAll(bad).rfind("HTTP/1.1 400 Bad Request\r\n", 0), 0u);
    close(bad);
    EXPECT_EQ(scrape(server.port()), "200 scalelab_up 1\n");
}

TEST(HttpServer, RequestHeadsAreReadAsHttpSaysAndRefusedOtherwise) {
    HttpRequest r;
    ASSERT_TRUE(parseRequestHead("GET /metrics?x=1 HTTP/1.1\r\nAccept:  application/openmetrics-text \r\nHOST: a\r\n", r));
    EXPECT_EQ(r.method, "GET");
    EXPECT_EQ(r.target, "/metrics?x=1");
    EXPECT_EQ(r.headers.at("accept"), "application/openmetrics-text");
    EXPECT_EQ(r.headers.at("host"), "a");
    EXPECT_FALSE(parseRequestHead("GET /metrics\r\n", r));
    EXPECT_FALSE(parseRequestHead("GET /metrics FTP/1.0\r\n", r));
    EXPECT_FALSE(parseRequestHead("GET /metrics HTTP/1.1\r\nno colon here\r\n", r));
}

} // namespace
} // namespace scalelab
