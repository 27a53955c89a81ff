#pragma once
// The small HTTP/1.1 server behind --metrics-listen: GET and HEAD only, one response per
// connection (Connection: close), one thread, and every resource bounded (issue 60.5). cpp-httplib
// 0.11, Debian 12's, queued every accepted connection without limit (1,027 idle connections
// used every descriptor of the process and the run's /proc reads failed), buffered a 300 MB
// POST before its 404, and gave a connection as long as it kept sending a byte now and then (two
// such held both its threads and blocked every scrape). libmicrohttpd's time-out is for idleness
// too. Here:
//   - at most kMaxConnections are open; when one more arrives, the one that has waited longest
//     for its request is closed to make room (a scraper sends its request at once, so it gets in
//     however many idle connections there are);
//   - a request's head must arrive whole within kRequestTime of the connection, and in at most
//     kMaxRequestBytes; a body is never read (only GET and HEAD are served);
//   - the response must be taken within kResponseTime.
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>

namespace scalelab {

struct HttpRequest {
    std::string method, target;
    std::map<std::string, std::string> headers;  // names in lower case
};

struct HttpResponse {
    int status = 200;
    std::string contentType = "text/plain; charset=utf-8";
    std::string body;
};

class HttpServer {
public:
    static constexpr int kMaxConnections = 16;
    static constexpr size_t kMaxRequestBytes = 8192;
    static constexpr std::chrono::milliseconds kRequestTime{5000};
    static constexpr std::chrono::milliseconds kResponseTime{10000};

    using Handler = std::function<HttpResponse(const HttpRequest&)>;  // called on the server's thread

    // Listens on host:port (0: any free port) before returning, then serves on its own thread.
    // Throws Error "cannot listen on HOST port N: why".
    HttpServer(const std::string& host, int port, Handler handler);
    ~HttpServer();  // stops serving and waits for its thread
    HttpServer(const HttpServer&) = delete;
    HttpServer& operator=(const HttpServer&) = delete;

    int port() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// The parts of a request head ("GET /metrics HTTP/1.1\r\nAccept: ...\r\n\r\n"); false when the
// request line is not METHOD TARGET HTTP/x.y or a header line has no ':'.
bool parseRequestHead(const std::string& head, HttpRequest& out);

} // namespace scalelab
