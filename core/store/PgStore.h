#pragma once
// A PostgreSQL results store: many experiments in one database, in ScaleLab's own schema
// ("scalelab"), created and migrated by ScaleLab. An experiment there is named by a location
// "postgresql://host/database#EXPERIMENT" (docs/results-store.md). Connection strings follow
// the one password rule: never a password in them (~/.pgpass, PGPASSFILE, PGPASSWORD).
#include <cstdint>
#include <string>
#include <vector>

namespace scalelab {

namespace pgsql {
class Connection;
}

struct StoreLocation {
    std::string conninfo;    // what libpq connects with (the location without its #fragment)
    std::string experiment;  // the name after '#', percent-decoded
};

// Throws Error saying what is wrong: no #NAME, a password, a string libpq cannot parse.
StoreLocation parseStoreLocation(const std::string& location);
// The location of experiment `name` in the store `conninfo` (key=value or a URI without
// #fragment): what `--store CONNINFO` with a name means.
std::string storeLocation(const std::string& conninfo, const std::string& name);
// The store part of a location: the text before '#'.
std::string storeOf(const std::string& location);

struct StoredExperiment {
    std::string name, location, createdAt, createdBy, note;
    std::string owner, lastWrittenBy;  // roles (store schema 2: row-level security)
    int64_t runs = 0;
    std::vector<std::string> series;  // in the experiment's order
    bool beingWritten = false;        // a sweep (or an import) is writing it now
};

// The experiments in the store, by name. An empty list for a database without ScaleLab's
// schema. Throws Error when the store cannot be reached (libpq's words).
std::vector<StoredExperiment> listExperiments(const std::string& conninfo);
// Removes an experiment and everything in it. Refused while it is being written.
void deleteExperiment(const std::string& location);

// What a reader following an experiment in a store asks each time: a mark that changes with
// any change a reader would show (runs added, excluded, noted; the experiment's facts and
// note; series), and whether a writer holds it. One short query.
struct ExperimentChange {
    std::string mark;
    bool beingWritten = false;
};
ExperimentChange experimentChange(const std::string& location);

namespace pgstore {
constexpr int kSchemaVersion = 3;
// The advisory lock space of experiment writers: pg_try_advisory_lock(kLockSpace, id).
constexpr int kLockSpace = 0x5CA1AB;
// The store's schema version; 0 when the database has none. Throws Error for a newer one.
int schemaVersion(pgsql::Connection& c, const std::string& where);
// Creates or migrates the schema (one creator at a time: a transaction-scoped advisory lock).
void ensureSchema(pgsql::Connection& c, const std::string& where);
// An SQL condition, true while some session holds the writer's lock of the experiment whose id
// is `idExpr`; its one '?' takes kLockSpace.
std::string writerLockHeld(const std::string& idExpr);
} // namespace pgstore

} // namespace scalelab
