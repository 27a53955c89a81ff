#pragma once
// libpq connection strings: "key=value" pairs, values quoted when they need it.
#include <string>
#include <utility>
#include <vector>

struct pg_conn;

namespace scalelab {

std::string conninfoQuote(const std::string& value);
std::string makeConninfo(const std::vector<std::pair<std::string, std::string>>& pairs);

// The one password rule. libpq's own parser (PQconninfoParse: key=value and
// postgresql:// URIs alike) says whether a connection string carries a password; ScaleLab
// never stores or logs one (~/.pgpass, PGPASSFILE or PGPASSWORD carry secrets).
// Throws Error, in libpq's words, for a string libpq cannot parse.
bool conninfoHasPassword(const std::string& conninfo);
// Throws Error("<where> holds a password; ...") when it has one.
void refusePassword(const std::string& conninfo, const std::string& where);
// The same connection in key=value form without the password, for anything that is written
// (settings, files, logs). A string libpq cannot parse comes back empty.
std::string conninfoWithoutPassword(const std::string& conninfo);

// One keyword's value as libpq parses the string ("" when unset or unparsable), and the same
// connection in key=value form with that keyword set to `value` ("" drops it).
std::string conninfoValue(const std::string& conninfo, const std::string& keyword);
std::string conninfoWith(const std::string& conninfo, const std::string& keyword, const std::string& value);

// Whether a server answers (PQpingParams: no login, no password needed), within timeoutS.
enum class Ping { Accepting, Rejecting, NoResponse, Invalid };
Ping pingServer(const std::string& conninfo, int timeoutS);
// "takes connections", "refuses connections (starting, recovering or shutting down)", ...
std::string describe(Ping ping);

// A connection for ScaleLab's own reads beside the load (the server's counters, its
// statements). libpq alone waits for ever on a host that accepts TCP and never answers, and the
// sweep with it; this one gives up after timeoutS unless the string sets its own
// connect_timeout, and names itself in pg_stat_activity unless the string or PGAPPNAME
// sets application_name (as the load's sessions do). The caller owns it (PQfinish) and checks PQstatus; null: out of memory.
pg_conn* connectForReading(const std::string& conninfo, const char* applicationName, int timeoutS = 10);

} // namespace scalelab
