#pragma once
// Enough connections for the run before it starts. PostgreSQL's default max_connections (100)
// stops a run of a few hundred clients with "sorry, too many clients already" after it has
// started; ScaleLab sizes its embedded server for the work instead, and checks a server of the
// user's before the first run.
#include <functional>
#include <string>

namespace scalelab {

class Cluster;

struct ConnectionCapacity {
    int maxConnections = 0;
    int reserved = 0;   // superuser_reserved_connections (+ reserved_connections from PostgreSQL 16)
    int inUse = 0;      // client backends now, the reading session included
    int available() const { return maxConnections - reserved - inUse; }
};
ConnectionCapacity readConnectionCapacity(const std::string& conninfo);  // throws Error

// ScaleLab's own sessions beside the load's clients during a run: the server counters, the
// statements' reader and the wait sampler.
constexpr int kOwnConnections = 3;
// Headroom above what a run needs, for a psql of the user's or a monitoring agent.
constexpr int kConnectionHeadroom = 8;

// The max_connections an embedded server needs for `clients` load clients.
int maxConnectionsFor(int clients, int reserved);

// Raises the embedded server's max_connections to maxConnectionsFor(clients) when it is lower
// (ALTER SYSTEM and one restart, said through `note`); never lowers it. Returns whether it
// restarted.
bool sizeEmbeddedServerFor(Cluster& server, int clients, const std::function<void(const std::string&)>& note);

// A server of the user's: throws Error, naming max_connections and the numbers, when fewer
// connections are free than `clients` plus ScaleLab's own.
void checkConnectionCapacity(const std::string& conninfo, int clients);

// Before a run of `clients`: the embedded server (`embedded`, when the target is one) is sized
// for them, a server of the user's (`embedded` null, `conninfo`) is checked. `scalelab run`'s
// rule; a sweep does the same through its pre-flight and per series.
void ensureConnectionsFor(Cluster* embedded, const std::string& conninfo, int clients,
                          const std::function<void(const std::string&)>& note);

} // namespace scalelab
