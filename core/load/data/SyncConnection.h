#pragma once
// A libpq connection for the synchronous conversations of data loading and housekeeping
// (`scalelab init` for pgbench's tables and TPROC-C's, the housekeeping before a run). COPY
// needs libpq itself: libpqxx 6.4's stream_to cannot pass COPY options such as FREEZE.
#include <libpq-fe.h>

#include <memory>
#include <string>

namespace scalelab {

// The first line of a server or libpq message, without its trailing newline and spaces.
std::string firstLine(std::string s);

class SyncConnection {
public:
    // Throws Error ("cannot connect to the target server: ...") when it cannot connect.
    explicit SyncConnection(const std::string& conninfo);
    PGconn* get() const { return conn_.get(); }

    // Runs one statement; returns the server's error ("" when it succeeded).
    std::string tryExec(const std::string& sql);
    // Runs one statement; throws Error with the statement and the server's error.
    void exec(const std::string& sql);
    // The first column of the first row, or "" when the result has none or is NULL.
    std::string value(const std::string& sql);

    // COPY ... FROM STDIN: starts it, sends a buffer of rows (and empties it), ends it. `what`
    // names the data in an error ("loading stock").
    void beginCopy(const std::string& statement);
    void putCopy(std::string& rows, const std::string& what);
    void endCopy(const std::string& what);

private:
    std::unique_ptr<PGconn, decltype(&PQfinish)> conn_{nullptr, PQfinish};
};

} // namespace scalelab
