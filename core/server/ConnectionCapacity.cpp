#include "server/ConnectionCapacity.h"

#include "server/Cluster.h"
#include "util/Error.h"

#include <pqxx/pqxx>

namespace scalelab {

ConnectionCapacity readConnectionCapacity(const std::string& conninfo) {
    try {
        pqxx::connection c(conninfo);
        pqxx::nontransaction tx(c);
        auto row = tx.exec(
            "SELECT current_setting('max_connections')::int, "
            "current_setting('superuser_reserved_connections')::int "
            "+ coalesce(current_setting('reserved_connections', true)::int, 0), "
            "(SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend')::int")[0];
        return {row[0].as<int>(), row[1].as<int>(), row[2].as<int>()};
    } catch (const pqxx::failure& e) {
        std::string what = e.what();
        throw Error("cannot read the server's connection limits: " + what.substr(0, what.find('\n')));
    }
}

int maxConnectionsFor(int clients, int reserved) { return clients + kOwnConnections + reserved + kConnectionHeadroom; }

bool sizeEmbeddedServerFor(Cluster& server, int clients, const std::function<void(const std::string&)>& note) {
    ConnectionCapacity now = readConnectionCapacity(server.connectionString());
    int wanted = maxConnectionsFor(clients, now.reserved);
    if (now.maxConnections >= wanted) return false;
    if (note)
        note("raising the embedded server's max_connections from " + std::to_string(now.maxConnections) + " to " +
             std::to_string(wanted) + " for " + std::to_string(clients) + " clients (restarting it once)");
    return server.applySettings({{"max_connections", std::to_string(wanted)}}).restarted();
}

void checkConnectionCapacity(const std::string& conninfo, int clients) {
    ConnectionCapacity c = readConnectionCapacity(conninfo);
    // The reading session is one of ScaleLab's own and ends before the run.
    int free = c.available() + 1;
    int needed = clients + kOwnConnections;
    if (free >= needed) return;
    throw Error("the server has too few free connections: max_connections = " + std::to_string(c.maxConnections) + ", " +
                std::to_string(c.reserved) + " reserved for superusers, " + std::to_string(c.inUse - 1) +
                " in use by other sessions, so " + std::to_string(free) + " free; this run needs " + std::to_string(needed) +
                " (" + std::to_string(clients) + " clients and " + std::to_string(kOwnConnections) +
                " of ScaleLab's own). Raise max_connections to at least " +
                std::to_string(c.maxConnections + needed - free) + " (a restart), or use fewer clients.");
}

void ensureConnectionsFor(Cluster* embedded, const std::string& conninfo, int clients,
                          const std::function<void(const std::string&)>& note) {
    if (embedded) sizeEmbeddedServerFor(*embedded, clients, note);
    else checkConnectionCapacity(conninfo, clients);
}

} // namespace scalelab
