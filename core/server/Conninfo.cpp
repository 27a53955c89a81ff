#include "server/Conninfo.h"

#include "util/Error.h"

#include <libpq-fe.h>

#include <memory>

namespace scalelab {

std::string conninfoQuote(const std::string& value) {
    bool plain = !value.empty() && value.find_first_of(" \t\n'\\") == std::string::npos;
    if (plain) return value;
    std::string out = "'";
    for (char c : value) {
        if (c == '\'' || c == '\\') out += '\\';
        out += c;
    }
    return out + "'";
}

std::string makeConninfo(const std::vector<std::pair<std::string, std::string>>& pairs) {
    std::string out;
    for (const auto& [key, value] : pairs) {
        if (!out.empty()) out += ' ';
        out += key + "=" + conninfoQuote(value);
    }
    return out;
}

namespace {
using Options = std::unique_ptr<PQconninfoOption, decltype(&PQconninfoFree)>;

Options parse(const std::string& conninfo, std::string* error) {
    char* err = nullptr;
    Options opts(PQconninfoParse(conninfo.c_str(), &err), PQconninfoFree);
    if (!opts && error) *error = err ? err : "invalid connection string";
    if (err) PQfreemem(err);
    if (error)
        while (!error->empty() && error->back() == '\n') error->pop_back();
    return opts;
}
} // namespace

bool conninfoHasPassword(const std::string& conninfo) {
    std::string error;
    Options opts = parse(conninfo, &error);
    if (!opts) throw Error(error);
    for (PQconninfoOption* o = opts.get(); o->keyword; ++o)
        if (std::string(o->keyword) == "password" && o->val && *o->val) return true;
    return false;
}

void refusePassword(const std::string& conninfo, const std::string& where) {
    bool has = false;
    try {
        has = conninfoHasPassword(conninfo);
    } catch (const Error& e) {
        throw Error(where + ": " + e.what());
    }
    if (has)
        throw Error(where + " holds a password; ScaleLab never stores or logs passwords: put it in ~/.pgpass "
                            "(or PGPASSFILE) or the PGPASSWORD environment variable");
}

std::string conninfoWithoutPassword(const std::string& conninfo) {
    Options opts = parse(conninfo, nullptr);
    if (!opts) return "";
    std::vector<std::pair<std::string, std::string>> pairs;
    for (PQconninfoOption* o = opts.get(); o->keyword; ++o)
        if (o->val && *o->val && std::string(o->keyword) != "password") pairs.emplace_back(o->keyword, o->val);
    return makeConninfo(pairs);
}

std::string conninfoValue(const std::string& conninfo, const std::string& keyword) {
    Options opts = parse(conninfo, nullptr);
    if (opts)
        for (PQconninfoOption* o = opts.get(); o->keyword; ++o)
            if (keyword == o->keyword && o->val) return o->val;
    return "";
}

std::string conninfoWith(const std::string& conninfo, const std::string& keyword, const std::string& value) {
    Options opts = parse(conninfo, nullptr);
    if (!opts) throw Error("not a connection string libpq can read: " + conninfoWithoutPassword(conninfo));
    std::vector<std::pair<std::string, std::string>> pairs;
    for (PQconninfoOption* o = opts.get(); o->keyword; ++o)
        if (o->val && *o->val && keyword != o->keyword) pairs.emplace_back(o->keyword, o->val);
    if (!value.empty()) pairs.emplace_back(keyword, value);
    return makeConninfo(pairs);
}

Ping pingServer(const std::string& conninfo, int timeoutS) {
    // dbname is expanded as a whole connection string (key=value or URI); the timeout after
    // it wins over one in the string.
    std::string timeout = std::to_string(timeoutS);
    const char* keys[] = {"dbname", "connect_timeout", nullptr};
    const char* values[] = {conninfo.c_str(), timeout.c_str(), nullptr};
    switch (PQpingParams(keys, values, 1)) {
    case PQPING_OK: return Ping::Accepting;
    case PQPING_REJECT: return Ping::Rejecting;
    case PQPING_NO_RESPONSE: return Ping::NoResponse;
    case PQPING_NO_ATTEMPT: break;
    }
    return Ping::Invalid;
}

std::string describe(Ping ping) {
    switch (ping) {
    case Ping::Accepting: return "takes connections";
    case Ping::Rejecting: return "refuses connections (starting, recovering from a crash or shutting down)";
    case Ping::NoResponse: return "does not answer";
    case Ping::Invalid: return "cannot be asked: the connection string is invalid";
    }
    return "?";
}

pg_conn* connectForReading(const std::string& conninfo, const char* applicationName, int timeoutS) {
    // dbname is expanded as a whole connection string and comes last: what it sets wins.
    std::string timeout = std::to_string(timeoutS);
    const char* keys[] = {"connect_timeout", "fallback_application_name", "dbname", nullptr};
    const char* values[] = {timeout.c_str(), applicationName, conninfo.c_str(), nullptr};
    return PQconnectdbParams(keys, values, 1);
}

} // namespace scalelab
