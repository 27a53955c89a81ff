#pragma once
// Finds the PostgreSQL server programs (initdb, pg_ctl, postgres) that the embedded
// server uses, and says which ones it chose and why.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace scalelab {

struct PgBinaries {
    std::filesystem::path bindir;
    std::string foundBy;   // how bindir was found, for the user: "pg_config --bindir", ...
    std::string version;   // "15.18"
    int major = 0;         // 15

    std::filesystem::path initdb() const { return bindir / "initdb"; }
    std::filesystem::path pgCtl() const { return bindir / "pg_ctl"; }
    std::filesystem::path postgres() const { return bindir / "postgres"; }
    std::string describe() const;  // "PostgreSQL 15.18 from /usr/lib/postgresql/15/bin (pg_config --bindir)"
};

// Where to look, in order: an explicit directory (when given, the only place), the
// bindir pg_config reports, the newest /usr/lib/postgresql/<major>/bin, then PATH.
struct PgSearch {
    std::optional<std::filesystem::path> explicitBindir;
    std::string pgConfig = "pg_config";                 // found through `path`
    std::filesystem::path versionedRoot = "/usr/lib/postgresql";
    std::string path;                                   // a PATH-style list

    static PgSearch fromEnvironment();  // PATH from the environment; SCALELAB_PG_BINDIR as explicit
};

// Throws Error listing every place it looked and what to install when nothing fits.
PgBinaries findPgBinaries(const PgSearch& search = PgSearch::fromEnvironment());

// "postgres (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)" -> "15.18"; "" when no version is in it.
std::string parsePostgresVersion(const std::string& versionOutput);
int majorOf(const std::string& version);  // "15.18" -> 15, "9.6.24" -> 9 (9.6 counts as 9), "" -> 0

} // namespace scalelab
