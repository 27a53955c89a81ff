#include "load/data/SyncConnection.h"

#include "util/Error.h"

namespace scalelab {
namespace {
using Result = std::unique_ptr<PGresult, decltype(&PQclear)>;
}

std::string firstLine(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    return s.substr(0, s.find('\n'));
}

SyncConnection::SyncConnection(const std::string& conninfo) {
    const char* keys[] = {"dbname", nullptr};
    const char* values[] = {conninfo.c_str(), nullptr};
    conn_.reset(PQconnectdbParams(keys, values, 1));
    if (!conn_ || PQstatus(conn_.get()) != CONNECTION_OK)
        throw Error("cannot connect to the target server: " + firstLine(conn_ ? PQerrorMessage(conn_.get()) : "out of memory"));
    PQsetNoticeProcessor(conn_.get(), [](void*, const char*) {}, nullptr);
}

std::string SyncConnection::tryExec(const std::string& sql) {
    Result r(PQexec(conn_.get(), sql.c_str()), PQclear);
    ExecStatusType st = r ? PQresultStatus(r.get()) : PGRES_FATAL_ERROR;
    if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) return "";
    return firstLine(r ? PQresultErrorMessage(r.get()) : PQerrorMessage(conn_.get()));
}

void SyncConnection::exec(const std::string& sql) {
    std::string err = tryExec(sql);
    if (!err.empty()) throw Error("\"" + sql + "\" failed: " + err);
}

std::string SyncConnection::value(const std::string& sql) {
    Result r(PQexec(conn_.get(), sql.c_str()), PQclear);
    if (!r || PQresultStatus(r.get()) != PGRES_TUPLES_OK)
        throw Error("\"" + sql + "\" failed: " + firstLine(r ? PQresultErrorMessage(r.get()) : PQerrorMessage(conn_.get())));
    if (PQntuples(r.get()) == 0 || PQgetisnull(r.get(), 0, 0)) return "";
    return PQgetvalue(r.get(), 0, 0);
}

void SyncConnection::beginCopy(const std::string& statement) {
    Result r(PQexec(conn_.get(), statement.c_str()), PQclear);
    if (!r || PQresultStatus(r.get()) != PGRES_COPY_IN)
        throw Error("\"" + statement + "\" failed: " + firstLine(PQerrorMessage(conn_.get())));
}

void SyncConnection::putCopy(std::string& rows, const std::string& what) {
    if (!rows.empty() && PQputCopyData(conn_.get(), rows.data(), static_cast<int>(rows.size())) != 1)
        throw Error(what + " failed: " + firstLine(PQerrorMessage(conn_.get())));
    rows.clear();
}

void SyncConnection::endCopy(const std::string& what) {
    if (PQputCopyEnd(conn_.get(), nullptr) != 1) throw Error(what + " failed: " + firstLine(PQerrorMessage(conn_.get())));
    for (;;) {
        Result r(PQgetResult(conn_.get()), PQclear);
        if (!r) break;
        if (PQresultStatus(r.get()) != PGRES_COMMAND_OK)
            throw Error(what + " failed: " + firstLine(PQresultErrorMessage(r.get())));
    }
}

} // namespace scalelab
