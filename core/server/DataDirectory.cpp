#include "server/DataDirectory.h"

#include "util/Error.h"

#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <thread>
#include <fstream>
#include <sstream>
#include <vector>

namespace fs = std::filesystem;

namespace scalelab {

DataDirState inspectDataDir(const fs::path& dir) {
    std::error_code ec;
    if (!fs::exists(dir, ec)) return {DataDirState::Kind::Missing, 0};
    if (!fs::is_directory(dir, ec))
        throw Error(dir.string() + " exists and is not a directory; a PostgreSQL data directory is needed there");
    if (fs::is_empty(dir, ec)) return {DataDirState::Kind::Empty, 0};
    std::ifstream version(dir / "PG_VERSION");
    int major = 0;
    if (version >> major && major > 0) return {DataDirState::Kind::Cluster, major};
    return {DataDirState::Kind::NotACluster, 0};
}

void refuseShellCharacters(const fs::path& path, const std::string& what) {
    for (unsigned char c : path.string()) {
        if (c != '"' && c != '$' && c != '`' && c != '\\' && c >= 0x20 && c != 0x7f) continue;
        char shown[8];
        if (c < 0x20 || c == 0x7f) std::snprintf(shown, sizeof shown, "\\x%02x", c);
        else std::snprintf(shown, sizeof shown, "%c", c);
        std::string printable;
        for (unsigned char p : path.string()) printable += p < 0x20 || p == 0x7f ? '?' : static_cast<char>(p);
        throw Error(what + " " + printable + " holds " + shown +
                    ": PostgreSQL's pg_ctl passes it through /bin/sh, which would read it; choose a path without \", $, "
                    "`, \\ or control characters");
    }
}

void checkDataDirUsable(const fs::path& dir, const DataDirState& state, int binariesMajor) {
    if (state.kind == DataDirState::Kind::NotACluster)
        throw Error(dir.string() + " is not empty and is not a PostgreSQL data directory (it has no PG_VERSION). "
                    "ScaleLab will not initialize a cluster over existing files: choose an empty or new directory.");
    if (state.kind == DataDirState::Kind::Cluster && state.major != binariesMajor)
        throw Error(dir.string() + " holds a PostgreSQL " + std::to_string(state.major) +
                    " cluster, but the server programs found are PostgreSQL " + std::to_string(binariesMajor) +
                    ". Use matching programs (--pg-bindir /usr/lib/postgresql/" + std::to_string(state.major) +
                    "/bin) or another data directory.");
}

std::optional<PostmasterPid> parsePostmasterPid(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    if (lines.size() < 4) return std::nullopt;
    PostmasterPid p;
    try {
        p.pid = static_cast<pid_t>(std::stol(lines[0]));
        p.startTime = std::stol(lines[2]);
        p.port = std::stoi(lines[3]);
    } catch (const std::exception&) {
        return std::nullopt;
    }
    p.dataDir = lines[1];
    if (lines.size() > 4) p.socketDir = lines[4];
    if (lines.size() > 5) p.listenAddress = lines[5];
    if (lines.size() > 7) {
        p.status = lines[7];
        while (!p.status.empty() && p.status.back() == ' ') p.status.pop_back();
    }
    return p;
}

std::optional<PostmasterPid> readPostmasterPid(const fs::path& dataDir) {
    std::ifstream in(dataDir / "postmaster.pid");
    if (!in) return std::nullopt;
    std::stringstream text;
    text << in.rdbuf();
    return parsePostmasterPid(text.str());
}

namespace {

// Command name and state letter from /proc/PID/stat ("1234 (postgres) S ...").
std::pair<std::string, char> procNameAndState(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    std::getline(in, text);
    auto open = text.find('('), close = text.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close + 2 >= text.size()) return {"", '?'};
    return {text.substr(open + 1, close - open - 1), text[close + 2]};
}

} // namespace

bool processAlive(pid_t pid) {
    if (pid <= 0 || (kill(pid, 0) != 0 && errno != EPERM)) return false;
    char state = procNameAndState(pid).second;
    return state != 'Z' && state != 'X';
}

bool isLivePostgres(pid_t pid) {
    if (!processAlive(pid)) return false;
    std::string name = procNameAndState(pid).first;
    return name.rfind("postgres", 0) == 0 || name.rfind("postmaster", 0) == 0;
}

std::vector<pid_t> processesWorkingIn(const fs::path& dataDir) {
    std::vector<pid_t> found;
    std::error_code ec;
    fs::path target = fs::weakly_canonical(dataDir, ec);
    for (const auto& entry : fs::directory_iterator("/proc", ec)) {
        std::string name = entry.path().filename().string();
        if (name.empty() || !std::all_of(name.begin(), name.end(), ::isdigit)) continue;
        std::error_code readError;
        fs::path cwd = fs::read_symlink(entry.path() / "cwd", readError);
        if (readError || cwd != target) continue;
        pid_t pid = static_cast<pid_t>(std::stol(name));
        if (processAlive(pid)) found.push_back(pid);
    }
    return found;
}

void clearStaleLocks(const fs::path& dataDir, const fs::path& socketDir, std::chrono::milliseconds wait) {
    auto pm = readPostmasterPid(dataDir);
    if (!pm || isLivePostgres(pm->pid)) return;
    auto deadline = std::chrono::steady_clock::now() + wait;
    for (auto left = processesWorkingIn(dataDir); !left.empty(); left = processesWorkingIn(dataDir)) {
        if (std::chrono::steady_clock::now() > deadline)
            throw Error("the postmaster of " + dataDir.string() + " (pid " + std::to_string(pm->pid) +
                        ") is gone, but its process " + std::to_string(left.front()) +
                        " still works in that directory; stop it before starting the server again");
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    std::error_code ec;
    fs::remove(dataDir / "postmaster.pid", ec);
    for (const auto& entry : fs::directory_iterator(socketDir, ec)) {
        std::string name = entry.path().filename().string();
        if (name.rfind(".s.PGSQL.", 0) != 0 || name.size() < 5 || name.substr(name.size() - 5) != ".lock") continue;
        std::ifstream lock(entry.path());
        long pid = 0;
        if (lock >> pid && !isLivePostgres(static_cast<pid_t>(pid))) {
            fs::remove(entry.path(), ec);
            fs::remove(entry.path().parent_path() / name.substr(0, name.size() - 5), ec);
        }
    }
}

} // namespace scalelab
