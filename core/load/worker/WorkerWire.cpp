// The wire engine: once libpq has connected (and prepared the statements), a client's queries
// and their results go over the socket as protocol messages ScaleLab builds and reads itself
// (WireProtocol.h), into buffers each client reuses. What the clients do stays pgbench's:
// the same results count, the same errors abort, retry or roll back, \gset/\aset store the
// same values, in the server's words as libpq would give them. libpq closes the connection.
#include "load/worker/WorkerClient.h"

#include <sys/socket.h>

#include <cerrno>
#include <cstring>

namespace scalelab {

namespace {
// libpq's words when the server closes the socket under a query.
constexpr const char* kServerClosed =
    "server closed the connection unexpectedly\n"
    "\tThis probably means the server terminated abnormally\n"
    "\tbefore or while processing the request.\n";
} // namespace

bool Worker::wireWanted(PGconn* conn, std::string& why) const {
    if (spec_.engine == LoadEngine::Libpq) {
        why = "asked for";
        return false;
    }
    if (scriptsPipeline_) {
        why = "the scripts use pipelines";
        return false;
    }
    if (PQsslInUse(conn)) {
        why = "the connection uses TLS";
        return false;
    }
    if (PQgssEncInUse(conn)) {
        why = "the connection uses GSSAPI encryption";
        return false;
    }
    return true;
}

void Worker::startWire(Client& c) {
    std::string why;
    c.wire = c.conn && wireWanted(c.conn, why);
    if (!c.wire) {
        ++libpqConnections_;
        if (libpqWhy_.empty()) libpqWhy_ = why;
        if (spec_.engine == LoadEngine::Wire)
            shared_.fail("the wire engine cannot run this: " + why + " (--engine libpq or auto can)");
        return;
    }
    ++wireConnections_;
    c.fd = PQsocket(c.conn);
    c.utf8 = std::strcmp(pg_encoding_to_char(PQclientEncoding(c.conn)), "UTF8") == 0;
    c.txStatus = 'I';
    c.busy = false;
    c.closed = false;
    c.outSent = 0;
    if (c.seldomPart) {  // a connection before this one (-C) may have left them
        c.seldomPart->closedWhy.clear();
        c.seldomPart->out.clear();
        c.seldomPart->unread.clear();
    }
}

void Worker::queueWire(Client& c, const Command& cmd, int scriptIndex, int commandIndex) {
    const SqlCommand& sql = cmd.sql;
    int n = static_cast<int>(sql.vars.size());
    // The columns' names come back only where a result is stored: libpq always asks for them
    // (Describe), which costs the server a RowDescription per query.
    bool describe = sql.store != SqlCommand::Store::None;
    out_.clear();
    c.busy = true;
    switch (spec_.mode) {
    case QueryMode::Simple:
        wire::appendQuery(out_, sql_.data(), sql_.size());
        return;
    case QueryMode::Extended:
        wire::appendParse(out_, "", sql.parameterized);
        wire::appendBind(out_, "", n, paramPtrs_.data());
        break;
    case QueryMode::Prepared:
        wire::appendBind(out_, statementNames_[static_cast<size_t>(scriptIndex)][static_cast<size_t>(commandIndex)].c_str(), n,
                         paramPtrs_.data());
        break;
    }
    if (describe) wire::appendDescribePortal(out_);
    wire::appendExecute(out_);
    wire::appendSync(out_);
}

int Worker::writeWire(Client& c, const char* data, size_t size, size_t& sent) {
    while (sent < size) {
        ssize_t n = ::send(c.fd, data + sent, size - sent, MSG_NOSIGNAL);
        if (n > 0) {
            sent += static_cast<size_t>(n);
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return 1;
        if (n < 0 && (errno == EPIPE || errno == ECONNRESET)) {
            // As libpq: the server may have said why it closed (a FATAL) before it did; that is
            // read next, with the end of the connection, and becomes the client's reason.
            return 0;
        }
        c.closed = true;
        c.seldom().closedWhy = std::string("could not send data to server: ") + std::strerror(errno) + "\n";
        return -1;
    }
    return 0;
}

// A command's messages go out from the thread's buffer, before the next client builds its own:
// only what the socket does not take now is copied to the client, to be sent when it can be.
// (A command follows the previous one's ReadyForQuery, so the client has nothing left unsent.)
int Worker::sendWire(Client& c) {
    size_t sent = 0;
    int r = writeWire(c, out_.data(), out_.size(), sent);
    if (r == 1) {
        c.seldom().out.assign(out_, sent, std::string::npos);
        c.outSent = 0;
    }
    return r;
}

int Worker::flushWire(Client& c) {
    std::string& out = c.seldom().out;
    int r = writeWire(c, out.data(), out.size(), c.outSent);
    if (r == 0) {
        out.clear();
        c.outSent = 0;
    }
    return r;
}

bool Worker::sendRollback(Client& c) {
    int flushed;
    if (c.wire) {
        out_.clear();
        wire::appendQuery(out_, "ROLLBACK", 8);
        c.busy = true;
        flushed = sendWire(c);
    } else {
        flushed = PQsendQuery(c.conn, "ROLLBACK") ? PQflush(c.conn) : -1;
    }
    if (flushed < 0) {
        lose(c, connectionError(c));
        return false;
    }
    setNeedFlush(c, flushed == 1);
    return true;
}

void Worker::wireReadable(Client& c) {
    if (spec_.debug && Client::awaitsResults(c.phase)) debugLine("client %d receiving", c.id);
    if (c.needFlush) {
        int flushed = flushWire(c);
        if (flushed < 0) {
            lose(c, connectionError(c));
            return;
        }
        setNeedFlush(c, flushed == 1);
    }
    if (c.seldomPart) in_.restore(c.seldomPart->unread);
    else in_.clear();
    long got = in_.readFrom(c.fd);
    if (got == 0 || got == -1) {
        c.closed = true;
        c.seldom().closedWhy = got == 0 ? kServerClosed : std::string("could not receive data from server: ") + std::strerror(errno) + "\n";
    }
    processWire(c);  // what arrived before the end still counts
    if (!in_.empty()) in_.keepRest(c.seldom().unread);  // rare: the server writes an answer in one piece
    if (c.closed && c.conn && c.phase != Client::Phase::Done) lose(c, connectionError(c));
}

// Every complete message, for the command the client waits on (or its ROLLBACK); between
// commands only what the server says by itself (a notice, a FATAL before it ends the session).
void Worker::processWire(Client& c) {
    wire::Message m;
    if (!Client::awaitsResults(c.phase)) {
        while (in_.next(m)) {
            // libpq takes an error outside a query as a notice, as it does here.
            if (m.type == 'N' || m.type == 'E') {
                c.seldom().lastNotice = wire::describe(m, false, nullptr, c.utf8);
            }
        }
        return;
    }
    bool rollingBack = c.phase == Client::Phase::RollingBack;
    const Command* cmd = rollingBack ? nullptr : &spec_.workload.scripts[static_cast<size_t>(c.script)].commands[c.command];
    SqlCommand::Store store = cmd ? cmd->sql.store : SqlCommand::Store::None;
    while (Client::awaitsResults(c.phase) && in_.next(m)) {
        switch (m.type) {
        case 'T':  // RowDescription: a result with rows begins
            c.tuples = true;
            c.rows = 0;
            if (store != SqlCommand::Store::None && !wire::readColumnNames(m, c.seldom().columns)) {
                lose(c, "a malformed row description from the server");
                return;
            }
            break;
        case 'D':  // DataRow
            c.tuples = true;
            ++c.rows;
            if (store != SqlCommand::Store::None && !c.sqlstate[0] && !wire::readRow(m, c.seldom().values)) {
                lose(c, "a malformed row from the server");
                return;
            }
            break;
        case 'C':  // CommandComplete, EmptyQueryResponse: one result of the command
        case 'I': {
            int rows = c.tuples ? c.rows : 0;
            if (store == SqlCommand::Store::Gset && !c.sqlstate[0]) {
                c.gsetPending = true;  // stored if it proves to be the last
                c.pendingRows = rows;
            } else if (store == SqlCommand::Store::Aset && !c.sqlstate[0] && rows > 0 &&
                       !storeWireResult(c, c.query, false, rows)) {
                return;
            }
            c.tuples = false;
            c.rows = 0;
            ++c.query;
            break;
        }
        case 'E':  // ErrorResponse: the command failed (the server skips to the Sync)
            if (!c.sqlstate[0]) {
                wire::Fields f(m);
                const char* state = f.get('C');
                std::strncpy(c.sqlstate, state ? state : "XX000", 5);
                c.sqlstate[5] = '\0';
                c.errorQuery = c.query;
                // Simple mode: the text sent, built again (the values have not changed since, but
                // for a command whose \aset may have: its text was kept).
                if (!rollingBack && spec_.mode == QueryMode::Simple && store != SqlCommand::Store::Aset) substitute(c, cmd->sql);
                const char* query = rollingBack                         ? "ROLLBACK"
                                    : spec_.mode == QueryMode::Simple   ? (store == SqlCommand::Store::Aset ? c.said(&Client::Seldom::asetSql) : sql_).c_str()
                                    : spec_.mode == QueryMode::Extended ? cmd->sql.parameterized.c_str()
                                                                        : nullptr;
                std::string& error = c.seldom().errorMessage;  // the error path may allocate
                error = wire::describe(m, true, query, c.utf8);
                while (!error.empty() && error.back() == '\n') error.pop_back();
                if (firstFailureMessage_.empty() && !rollingBack) firstFailureMessage_ = error;
            }
            c.gsetPending = false;
            c.tuples = false;
            c.rows = 0;
            ++c.query;
            break;
        case 'N': {
            c.seldom().lastNotice = wire::describe(m, false, nullptr, c.utf8);
            break;
        }
        case 'G':
        case 'H':
        case 'W':
            abortClient(c, "client " + std::to_string(c.id) + " script " + std::to_string(c.script) + " aborted in command " +
                               std::to_string(c.command) + ": COPY is not supported in pgbench, aborting");
            return;
        case 'Z':  // ReadyForQuery: the command's end
            c.txStatus = m.length > 0 ? m.body[0] : 'I';
            c.busy = false;
            if (c.gsetPending) {
                c.gsetPending = false;
                if (!c.sqlstate[0] && !storeWireResult(c, c.query - 1, true, c.pendingRows)) return;
            }
            commandDone(c);
            return;
        case '1': case '2': case '3': case 'n': case 't': case 's': case 'S': case 'A': case 'K':
            break;  // ParseComplete, BindComplete, ..., ParameterStatus, NotificationResponse
        default: {
            char what[64];
            std::snprintf(what, sizeof what, "unexpected message type 0x%02x from the server", static_cast<unsigned char>(m.type));
            lose(c, what);
            return;
        }
        }
    }
    if (in_.broken() && c.conn) lose(c, "lost synchronization with server: a message shorter than its header");
}

PGTransactionStatusType Worker::txStatus(const Client& c) const {
    if (!c.wire) return PQtransactionStatus(c.conn);
    if (c.closed) return PQTRANS_UNKNOWN;
    if (c.busy) return PQTRANS_ACTIVE;
    return c.txStatus == 'T' ? PQTRANS_INTRANS : c.txStatus == 'E' ? PQTRANS_INERROR : PQTRANS_IDLE;
}

bool Worker::connectionBroken(const Client& c) const {
    return c.wire ? c.closed : PQstatus(c.conn) == CONNECTION_BAD;
}

std::string Worker::connectionError(const Client& c) const {
    if (!c.wire) return PQerrorMessage(c.conn);
    // libpq's message carries the error that came before the end (a FATAL), then the end.
    std::string text = c.sqlstate[0] ? c.said(&Client::Seldom::errorMessage) + "\n" : std::string();
    const std::string& closedWhy = c.said(&Client::Seldom::closedWhy);
    return text + (closedWhy.empty() ? std::string(kServerClosed) : closedWhy);
}

} // namespace scalelab
