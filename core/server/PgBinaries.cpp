#include "server/PgBinaries.h"

#include "util/Error.h"
#include "util/Subprocess.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;

namespace scalelab {
namespace {

bool executable(const fs::path& p) { return access(p.c_str(), X_OK) == 0 && fs::is_regular_file(p); }

// Why `dir` cannot serve as a bindir, or "" when it can.
std::string missingPrograms(const fs::path& dir) {
    std::string missing;
    for (const char* prog : {"initdb", "pg_ctl", "postgres"})
        if (!executable(dir / prog)) missing += std::string(missing.empty() ? "" : ", ") + prog;
    return missing.empty() ? "" : "no " + missing + " there";
}

std::vector<fs::path> splitPath(const std::string& path) {
    std::vector<fs::path> dirs;
    std::stringstream in(path);
    std::string item;
    while (std::getline(in, item, ':'))
        if (!item.empty()) dirs.emplace_back(item);
    return dirs;
}

std::optional<fs::path> findInPath(const std::string& program, const std::string& path) {
    for (const auto& dir : splitPath(path))
        if (executable(dir / program)) return dir / program;
    return std::nullopt;
}

std::string trim(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
    return s;
}

PgBinaries describeBindir(const fs::path& dir, const std::string& foundBy) {
    PgBinaries bin;
    bin.bindir = dir;
    bin.foundBy = foundBy;
    auto result = runProcess({(dir / "postgres").string(), "--version"}, ProcessOptions{{}, {}, std::chrono::seconds(30), "/", ""});
    bin.version = parsePostgresVersion(result.output);
    if (!result.ok() || bin.version.empty())
        throw Error("found PostgreSQL programs in " + dir.string() + " (" + foundBy +
                    "), but `postgres --version` failed: " + trim(result.output));
    bin.major = majorOf(bin.version);
    return bin;
}

} // namespace

std::string PgBinaries::describe() const {
    return "PostgreSQL " + version + " from " + bindir.string() + " (" + foundBy + ")";
}

PgSearch PgSearch::fromEnvironment() {
    PgSearch s;
    if (const char* p = std::getenv("PATH")) s.path = p;
    if (const char* b = std::getenv("SCALELAB_PG_BINDIR"); b && *b) s.explicitBindir = fs::path(b);
    return s;
}

std::string parsePostgresVersion(const std::string& output) {
    static const std::regex re(R"(\(PostgreSQL\)\s+([0-9]+(?:\.[0-9]+)*))");
    std::smatch m;
    return std::regex_search(output, m, re) ? m[1].str() : std::string();
}

int majorOf(const std::string& version) {
    if (version.empty()) return 0;
    return std::atoi(version.c_str());
}

PgBinaries findPgBinaries(const PgSearch& search) {
    if (search.explicitBindir) {
        std::string why = missingPrograms(*search.explicitBindir);
        if (!why.empty())
            throw Error("the PostgreSQL bindir you gave, " + search.explicitBindir->string() + ", cannot be used: " + why);
        return describeBindir(*search.explicitBindir, "given explicitly");
    }

    std::vector<std::string> looked;

    if (auto pgConfig = findInPath(search.pgConfig, search.path)) {
        auto result = runProcess({pgConfig->string(), "--bindir"});
        fs::path dir = trim(result.output);
        std::string why = result.ok() ? missingPrograms(dir) : "pg_config failed";
        if (why.empty()) return describeBindir(dir, "pg_config --bindir");
        looked.push_back(pgConfig->string() + " --bindir -> " + dir.string() + ": " + why);
    } else {
        looked.push_back(search.pgConfig + ": not found in PATH");
    }

    std::vector<std::pair<int, fs::path>> versioned;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(search.versionedRoot, ec)) {
        std::string name = entry.path().filename().string();
        if (!name.empty() && std::all_of(name.begin(), name.end(), ::isdigit))
            versioned.emplace_back(std::stoi(name), entry.path() / "bin");
    }
    std::sort(versioned.rbegin(), versioned.rend());
    if (versioned.empty()) looked.push_back((search.versionedRoot / "<major>/bin").string() + ": none");
    for (const auto& [major, dir] : versioned) {
        std::string why = missingPrograms(dir);
        if (why.empty()) return describeBindir(dir, "newest under " + search.versionedRoot.string());
        looked.push_back(dir.string() + ": " + why);
    }

    for (const auto& dir : splitPath(search.path))
        if (missingPrograms(dir).empty()) return describeBindir(dir, "PATH");
    looked.push_back("PATH (" + (search.path.empty() ? std::string("empty") : search.path) +
                     "): no directory with initdb, pg_ctl and postgres");

    std::string msg = "no PostgreSQL server programs found (ScaleLab needs initdb, pg_ctl and postgres). Looked at:";
    for (const auto& l : looked) msg += "\n  - " + l;
    msg += "\nInstall the server: sudo apt-get install postgresql-15 (Debian 12), "
           "or point ScaleLab at a build with --pg-bindir DIR or SCALELAB_PG_BINDIR.";
    throw Error(msg);
}

} // namespace scalelab
