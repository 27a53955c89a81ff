#include "server/TcpAuth.h"

#include "util/Error.h"

#include <fcntl.h>
#include <libpq-fe.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>

namespace fs = std::filesystem;

namespace scalelab {
namespace {

bool isHostLine(const std::string& first) { return first.rfind("host", 0) == 0; }  // host, hostssl, hostnossl, hostgssenc...

} // namespace

std::string readFileNoFollow(const fs::path& file) {
    int fd = ::open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return "";
    std::string text;
    char buf[4096];
    ssize_t n;
    while ((n = ::read(fd, buf, sizeof buf)) > 0) text.append(buf, static_cast<size_t>(n));
    ::close(fd);
    return text;
}

namespace {

std::string randomPassword() {
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    unsigned char bytes[32];
    std::ifstream random("/dev/urandom", std::ios::binary);
    if (!random.read(reinterpret_cast<char*>(bytes), sizeof bytes)) throw Error("cannot read /dev/urandom for a password");
    std::string out;
    for (unsigned char b : bytes) out += alphabet[b % 62];  // 62^32: bias irrelevant at this length
    return out;
}

} // namespace

std::string hbaRequiringPasswordsOverTcp(const std::string& hba) {
    std::istringstream in(hba);
    std::string line, out;
    bool changed = false;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::string first, word, last;
        words >> first;
        while (words >> word) last = word;
        size_t trust = line.rfind("trust");
        if (!first.empty() && first[0] != '#' && isHostLine(first) && last == "trust" && trust != std::string::npos) {
            line.replace(trust, 5, "scram-sha-256");
            changed = true;
        }
        out += line + "\n";
    }
    return changed ? out : std::string();
}

std::string hbaAcceptingOtherHosts(const std::string& hba) {
    const std::string line = "host all all all scram-sha-256";
    std::istringstream in(hba);
    for (std::string l; std::getline(in, l);) {
        std::istringstream words(l);
        std::string w, joined;
        while (words >> w) joined += (joined.empty() ? "" : " ") + w;
        if (joined == line) return "";
    }
    return hba + (hba.empty() || hba.back() == '\n' ? "" : "\n") +
           "# Added by ScaleLab for a server host: clients on other machines, with the password only.\n" + line + "\n";
}

fs::path passwordFileOf(const fs::path& dataDir) { return dataDir / "scalelab.pgpass"; }

std::string keptOrNewPassword(const fs::path& file) {
    std::string text = readFileNoFollow(file);
    std::string first = text.substr(0, text.find('\n'));
    size_t colon = first.rfind(':');
    if (colon != std::string::npos && colon + 1 < first.size()) return first.substr(colon + 1);
    return randomPassword();
}

void writePasswordFile(const fs::path& file, int port, const std::string& user, const std::string& password) {
    std::string text;
    for (const char* host : {"127.0.0.1", "localhost", "::1"}) {
        std::string h = host;
        if (h == "::1") h = "\\:\\:1";  // pgpass escapes ':' in its fields
        text += h + ":" + std::to_string(port) + ":*:" + user + ":" + password + "\n";
    }
    fs::path temp = file;
    temp += ".partial-" + std::to_string(getpid());
    int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) throw Error("cannot write " + temp.string() + ": " + std::strerror(errno));
    bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ok = ::close(fd) == 0 && ok;
    if (!ok || ::rename(temp.c_str(), file.c_str()) != 0) {
        int err = errno;
        ::unlink(temp.c_str());
        throw Error("cannot write " + file.string() + ": " + std::strerror(err));
    }
}

void setRolePassword(const std::string& conninfo, const std::string& role, const std::string& password) {
    std::unique_ptr<PGconn, decltype(&PQfinish)> conn(PQconnectdb(conninfo.c_str()), PQfinish);
    if (PQstatus(conn.get()) != CONNECTION_OK)
        throw Error(std::string("cannot set the superuser's password: ") + PQerrorMessage(conn.get()));
    char* verifier = PQencryptPasswordConn(conn.get(), password.c_str(), role.c_str(), "scram-sha-256");
    if (!verifier) throw Error(std::string("cannot make the password's SCRAM verifier: ") + PQerrorMessage(conn.get()));
    char* quotedRole = PQescapeIdentifier(conn.get(), role.c_str(), role.size());
    char* quotedVerifier = PQescapeLiteral(conn.get(), verifier, std::strlen(verifier));
    std::string sql = std::string("ALTER ROLE ") + (quotedRole ? quotedRole : "") + " PASSWORD " + (quotedVerifier ? quotedVerifier : "''");
    PQfreemem(verifier);
    PQfreemem(quotedRole);
    PQfreemem(quotedVerifier);
    std::unique_ptr<PGresult, decltype(&PQclear)> r(PQexec(conn.get(), sql.c_str()), PQclear);
    if (PQresultStatus(r.get()) != PGRES_COMMAND_OK)
        throw Error(std::string("cannot set the superuser's password: ") + PQerrorMessage(conn.get()));
}

} // namespace scalelab
