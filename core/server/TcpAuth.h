#pragma once
// Password authentication on the embedded server's TCP listener (issue 31.2). initdb's trust
// for host connections let any local user connect to 127.0.0.1 as the superuser and run
// `COPY ... TO PROGRAM` as the postgres account. Now:
// - the unix socket stays trust: it lives in a 0700 directory only the owner can enter;
// - every host line of pg_hba.conf says scram-sha-256, rewritten before each start (clusters
//   made by an older ScaleLab too);
// - the superuser gets a generated password, kept in DATA/scalelab.pgpass (a libpq password
//   file, 0600, in the 0700 data directory): the owner points PGPASSFILE at it to connect over
//   TCP (pgbench -h 127.0.0.1 ...), nobody else can read it.
#include <filesystem>
#include <string>

namespace scalelab {

// pg_hba.conf's text with every host line (host, hostssl, hostnossl, ...) that says trust saying
// scram-sha-256 instead; "" when no line changes.
std::string hbaRequiringPasswordsOverTcp(const std::string& hba);

// pg_hba.conf's text with a line that lets any address connect with a password (scram-sha-256),
// for a server host's clients on other machines (docs/hosts.md); "" when such a line is there.
std::string hbaAcceptingOtherHosts(const std::string& hba);

// A file's text, never through a symlink ("" when it cannot be read so).
std::string readFileNoFollow(const std::filesystem::path& file);

std::filesystem::path passwordFileOf(const std::filesystem::path& dataDir);

// The password kept in `file` (a pgpass file ScaleLab wrote), or a new one of 32 random letters
// and digits when there is none.
std::string keptOrNewPassword(const std::filesystem::path& file);

// Writes `file` (0600, under a temporary name renamed into place: a symlink there is replaced,
// never followed) with lines for 127.0.0.1, localhost and ::1 at `port`.
void writePasswordFile(const std::filesystem::path& file, int port, const std::string& user, const std::string& password);

// ALTER ROLE ... PASSWORD with a SCRAM verifier computed here by libpq (PQencryptPasswordConn):
// the password itself never reaches the server, its log or pg_stat_statements.
void setRolePassword(const std::string& conninfo, const std::string& role, const std::string& password);

} // namespace scalelab
