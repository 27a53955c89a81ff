#include "topo/MachineSwitch.h"

#include "topo/CpuHotplug.h"
#include "topo/SmtControl.h"
#include "util/Error.h"
#include "util/JsonParse.h"
#include "util/Redact.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>

namespace scalelab {
namespace fs = std::filesystem;
namespace {

constexpr const char* kStateFile = "switched.json";
constexpr const char* kLockFile = "lock";

// ---- what a signal handler needs: fixed storage, no allocation ------------------------
// Entries "path\0value\0" in restore order, then the state file's path.
char gPlan[1 << 16];
size_t gPlanEntries = 0;
char gPlanStateFile[4096];
std::atomic<bool> gPlanArmed{false};

void restoreAndReraise(int sig) {
    if (gPlanArmed.exchange(false)) {
        const char* p = gPlan;
        for (size_t i = 0; i < gPlanEntries; ++i) {
            const char* path = p;
            p += strlen(p) + 1;
            const char* value = p;
            p += strlen(p) + 1;
            int fd = open(path, O_WRONLY | O_TRUNC);
            if (fd >= 0) {
                (void)!write(fd, value, strlen(value));
                close(fd);
            }
        }
        unlink(gPlanStateFile);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

void armPlan(const SwitchRecord& r, const MachineSwitchDirs& dirs) {
    gPlanArmed.store(false);
    std::string plan;
    size_t entries = 0;
    auto add = [&](const fs::path& path, const std::string& value) {
        plan += path.string();
        plan += '\0';
        plan += value;
        plan += '\0';
        ++entries;
    };
    if (r.smtWas) add(dirs.cpuDir / "smt" / "control", *r.smtWas);
    std::vector<int> cpus = r.offlined;
    std::sort(cpus.begin(), cpus.end());
    CpuHotplug hotplug(dirs.cpuDir);
    for (int cpu : cpus) add(hotplug.onlineFile(cpu), "1");
    std::string stateFile = (dirs.stateDir / kStateFile).string();
    if (r.empty() || plan.size() > sizeof gPlan || stateFile.size() >= sizeof gPlanStateFile) return;
    std::memcpy(gPlan, plan.data(), plan.size());
    gPlanEntries = entries;
    std::snprintf(gPlanStateFile, sizeof gPlanStateFile, "%s", stateFile.c_str());
    gPlanArmed.store(true);
}

void disarmPlan() { gPlanArmed.store(false); }

// ---- processes ------------------------------------------------------------------------
unsigned long long processStart(long pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto close = text.rfind(')');
    if (close == std::string::npos) return 0;
    std::istringstream fields(text.substr(close + 1));
    std::string f;
    for (int i = 0; i < 20 && fields >> f; ++i) {
        if (i == 19) return std::strtoull(f.c_str(), nullptr, 10);  // field 22: starttime
    }
    return 0;
}

// A record without its process's start time is not one ScaleLab wrote (it always records it):
// its pid proves nothing, since pids are reused, and a live one must not make it the owner for
// ever (issue 60.9).
bool processRunning(long pid, unsigned long long start) {
    if (pid <= 0 || start == 0) return false;
    if (kill(static_cast<pid_t>(pid), 0) != 0 && errno != EPERM) return false;
    return processStart(pid) == start;
}

std::string thisCommandLine() {
    std::ifstream in("/proc/self/cmdline");
    std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::replace(raw.begin(), raw.end(), '\0', ' ');
    while (!raw.empty() && raw.back() == ' ') raw.pop_back();
    return raw.size() > 200 ? raw.substr(0, 200) + "..." : raw;
}

std::string utcNow() {
    char buf[32];
    std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

// ---- the state directory and file ---------------------------------------------------------
// The directory must be a real directory of root's (or of this user's, for tests) that no one
// else can write: a planted symlink or a file someone else wrote is never followed or trusted.
void checkStateDir(const fs::path& dir) {
    struct stat st {};
    if (lstat(dir.c_str(), &st) != 0) throw Error("cannot read " + dir.string() + ": " + strerror(errno));
    if (!S_ISDIR(st.st_mode))
        throw Error(dir.string() + " is not a directory (ScaleLab's switch state lives there): remove it");
    if (st.st_uid != 0 && st.st_uid != geteuid())
        throw Error(dir.string() + " belongs to uid " + std::to_string(st.st_uid) + ", not to root: remove it");
    if (st.st_mode & (S_IWGRP | S_IWOTH)) throw Error(dir.string() + " is writable by others: remove it");
}

void makeStateDir(const fs::path& dir) {
    if (mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST)
        throw Error("cannot create " + dir.string() + " for ScaleLab's switch state: " + strerror(errno) +
                    " (switching the machine needs root)");
    checkStateDir(dir);
}

SwitchRecord parseRecord(const std::string& text, const fs::path& file) {
    auto bad = [&](const std::string& why) {
        return Error(file.string() + " is not a ScaleLab switch state file (" + why + "): remove it");
    };
    if (jsonDepth(text) > kMaxJsonDepth) throw bad("JSON nested too deep");
    nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) throw bad("not a JSON object");
    SwitchRecord r;
    try {
        r.pid = j.at("pid").get<long>();
        r.processStart = j.value("process_start", 0ULL);
        r.command = j.value("command", "");
        r.since = j.value("since", "");
        if (j.contains("smt_control_was")) r.smtWas = j.at("smt_control_was").get<std::string>();
        if (j.contains("smt_control_set")) r.smtNow = j.at("smt_control_set").get<std::string>();
        if (j.contains("offline_cpus")) r.offlined = j.at("offline_cpus").get<std::vector<int>>();
    } catch (const nlohmann::json::exception& e) {
        throw bad(e.what());
    }
    if (r.pid <= 0) throw bad("no pid");
    if (r.smtWas && *r.smtWas != "on" && *r.smtWas != "off") throw bad("smt_control_was is '" + *r.smtWas + "'");
    for (int cpu : r.offlined)
        if (cpu < 0 || cpu > 65535) throw bad("CPU " + std::to_string(cpu) + " in offline_cpus");
    return r;
}

std::optional<SwitchRecord> readRecord(const MachineSwitchDirs& dirs) {
    struct stat dst {};
    if (lstat(dirs.stateDir.c_str(), &dst) != 0) return std::nullopt;  // nothing ever switched here
    checkStateDir(dirs.stateDir);
    fs::path file = dirs.stateDir / kStateFile;
    // O_NONBLOCK: a FIFO planted as the state file would block the open for ever (issue 60.9);
    // it is then refused below as not a regular file.
    int fd = open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT) return std::nullopt;
        throw Error("cannot read " + file.string() + ": " + strerror(errno));
    }
    struct stat st {};
    std::string text;
    bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (st.st_uid == 0 || st.st_uid == geteuid()) &&
              st.st_size < (1 << 20);
    if (ok) {
        char buf[4096];
        ssize_t n;
        while ((n = read(fd, buf, sizeof buf)) > 0) text.append(buf, static_cast<size_t>(n));
    }
    close(fd);
    if (!ok) throw Error(file.string() + " is not a file of root's: ScaleLab does not trust it; remove it");
    return parseRecord(text, file);
}

void writeRecord(const MachineSwitchDirs& dirs, const SwitchRecord& r) {
    fs::path file = dirs.stateDir / kStateFile;
    if (r.empty()) {
        unlink(file.c_str());
        return;
    }
    nlohmann::json j = {{"pid", r.pid}, {"process_start", r.processStart}, {"command", r.command}, {"since", r.since}};
    if (r.smtWas) j["smt_control_was"] = *r.smtWas;
    if (r.smtNow) j["smt_control_set"] = *r.smtNow;
    if (!r.offlined.empty()) j["offline_cpus"] = r.offlined;
    std::string text = j.dump(2) + "\n";
    fs::path tmp = dirs.stateDir / (std::string(kStateFile) + ".new");
    unlink(tmp.c_str());
    int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) throw Error("cannot write " + tmp.string() + ": " + strerror(errno));
    bool ok = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) && fsync(fd) == 0;
    close(fd);
    if (!ok || rename(tmp.c_str(), file.c_str()) != 0) {
        unlink(tmp.c_str());
        throw Error("cannot write " + file.string() + ": " + strerror(errno) + " (nothing was switched)");
    }
    int dfd = open(dirs.stateDir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
}

// Puts back what `r` says was switched: SMT first (it brings its siblings back), then each
// CPU still offline. Throws Error listing what the kernel refused.
void undo(const SwitchRecord& r, const fs::path& cpuDir) {
    std::vector<std::string> failures;
    bool held = false;
    auto halfway = [&] {  // the test hook, after the first thing put back
        if (!held) testHold("restore");
        held = true;
    };
    if (r.smtWas) {
        SmtControl control(cpuDir / "smt" / "control");
        try {
            if (control.state() != r.smtWas) control.set(*r.smtWas == "on");
        } catch (const Error& e) {
            failures.push_back(e.what());
        }
        halfway();
    }
    std::vector<int> cpus = r.offlined;
    std::sort(cpus.begin(), cpus.end());
    CpuHotplug hotplug(cpuDir);
    for (int cpu : cpus) {
        if (hotplug.isOnline(cpu) == true) continue;
        // A CPU the kernel does not have (a planted or damaged state file) has nothing to put
        // back: it must not fail every later command (issue 60.9).
        if (!fs::exists(cpuDir / ("cpu" + std::to_string(cpu)))) continue;
        try {
            hotplug.setOnline(cpu, true);
        } catch (const Error& e) {
            failures.push_back(e.what());
        }
        halfway();
    }
    if (!failures.empty()) {
        std::string all;
        for (const auto& f : failures) all += (all.empty() ? "" : "; ") + f;
        throw Error(all);
    }
}

// The recorded command and time are the state file's words: shown without their control
// characters (a planted escape sequence must not reach the terminal, issue 60.9).
std::string owner(const SwitchRecord& r) {
    return "ScaleLab pid " + std::to_string(r.pid) + (r.command.empty() ? "" : " (`" + terminalSafe(r.command) + "`)") +
           (r.since.empty() ? "" : ", since " + terminalSafe(r.since));
}

// The lock file, opened as a plain file of this user's: a symbolic link (O_NOFOLLOW: ELOOP) or
// anything else planted there is said for what it is, not as "needs root" (issue 60.9).
int openLock(const fs::path& lock) {
    int fd = open(lock.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
    if (fd < 0 && errno == ELOOP)
        throw Error(lock.string() + " is a symbolic link: ScaleLab never follows one there; remove it");
    if (fd < 0) return fd;
    struct stat st {};
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (st.st_uid != 0 && st.st_uid != geteuid())) {
        close(fd);
        throw Error(lock.string() + " is not a file of root's: ScaleLab does not trust it; remove it");
    }
    return fd;
}

std::string lockHolder(int fd) {
    char buf[512] = {};
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    std::string s = n > 0 ? std::string(buf, static_cast<size_t>(n)) : "";
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    return s.empty() ? "another ScaleLab process" : s;
}

} // namespace

MachineSwitchDirs MachineSwitchDirs::standard() {
    const char* state = std::getenv("SCALELAB_STATE_DIR");
    return {state && *state ? fs::path(state) : fs::path("/run/scalelab"), sysfsCpuDir()};
}

namespace {
// "CPU 3", "CPUs 1-3"
std::string cpusText(const std::vector<int>& cpus) {
    CpuSet set;
    for (int cpu : cpus) set.add(cpu);
    return (cpus.size() == 1 ? "CPU " : "CPUs ") + set.toList();
}
} // namespace

std::string SwitchRecord::describe() const {
    std::string s;
    if (smtWas) s = "SMT switched " + smtNow.value_or(*smtWas == "on" ? "off" : "on") + " (was " + *smtWas + ")";
    if (!offlined.empty()) s += (s.empty() ? "" : "; ") + cpusText(offlined) + " taken offline";
    return s.empty() ? "nothing switched" : s;
}

std::string SwitchRecord::undoText() const {
    std::string s;
    if (smtWas) s = "SMT " + *smtWas + " again";
    if (!offlined.empty()) s += (s.empty() ? "" : "; ") + cpusText(offlined) + " online again";
    return s;
}

std::optional<PendingSwitch> readPendingSwitch(const MachineSwitchDirs& dirs) {
    auto r = readRecord(dirs);
    if (!r) return std::nullopt;
    return PendingSwitch{*r, processRunning(r->pid, r->processStart)};
}

std::vector<std::string> recoverAbandonedSwitch(const MachineSwitchDirs& dirs) {
    std::optional<PendingSwitch> p;
    try {
        p = readPendingSwitch(dirs);
    } catch (const Error& e) {
        return {"warning: " + std::string(e.what())};
    }
    if (!p || p->ownerRunning) return {};
    fs::path lock = dirs.stateDir / kLockFile;
    int fd = -1;
    try {
        fd = openLock(lock);
    } catch (const Error& e) {
        return {"warning: " + owner(p->record) + " ended without undoing its switches: " + p->record.describe() +
                ", and it cannot be restored: " + e.what()};
    }
    if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) != 0) {
        close(fd);
        return {};  // its owner (or another ScaleLab restoring it) is still at work
    }
    if (fd < 0)
        return {"warning: " + owner(p->record) + " ended without undoing its switches: " + p->record.describe() +
                ". A restore is pending: run any scalelab command as root (e.g. `sudo scalelab topology`) to put the "
                "machine back"};
    std::vector<std::string> lines;
    try {
        if (auto r = readRecord(dirs)) {  // again, under the lock: someone may have restored it meanwhile
            undo(*r, dirs.cpuDir);
            unlink((dirs.stateDir / kStateFile).c_str());
            lines.push_back(owner(*r) + " ended without undoing its switches (" + r->describe() + "); restored: " +
                            r->undoText());
        }
    } catch (const Error& e) {
        lines.push_back("error: " + owner(p->record) + " ended without undoing its switches (" + p->record.describe() +
                        ") and restoring them failed: " + e.what() + ". The state file " +
                        (dirs.stateDir / kStateFile).string() + " stays: the next command tries again");
    }
    close(fd);
    return lines;
}

MachineLease::MachineLease(MachineSwitchDirs dirs, std::function<void(const std::string&)> note)
    : dirs_(std::move(dirs)) {
    makeStateDir(dirs_.stateDir);
    fs::path lock = dirs_.stateDir / kLockFile;
    lockFd_ = openLock(lock);
    if (lockFd_ < 0)
        throw Error("cannot open " + lock.string() + ": " + strerror(errno) + " (switching the machine needs root)");
    if (flock(lockFd_, LOCK_EX | LOCK_NB) != 0) {
        std::string holder = lockHolder(lockFd_);
        close(lockFd_);
        lockFd_ = -1;
        throw Error(holder + " is switching this machine's CPUs now; two ScaleLab processes never switch one machine "
                             "at once: wait for it to end, or stop it");
    }
    record_.pid = getpid();
    record_.processStart = processStart(record_.pid);
    record_.command = thisCommandLine();
    record_.since = utcNow();
    // The holder's name in the lock file only names it in a refusal: a failed write is harmless.
    std::string holder = owner(record_) + "\n";
    (void)!ftruncate(lockFd_, 0);
    (void)!pwrite(lockFd_, holder.data(), holder.size(), 0);
    try {
        if (auto stale = readRecord(dirs_)) {
            undo(*stale, dirs_.cpuDir);
            unlink((dirs_.stateDir / kStateFile).c_str());
            if (note)
                note(owner(*stale) + " ended without undoing its switches (" + stale->describe() + "); restored: " +
                     stale->undoText());
        }
    } catch (...) {
        close(lockFd_);
        throw;
    }
}

MachineLease::~MachineLease() {
    try {
        restore();
    } catch (...) {
        // The state file stays: the next ScaleLab command tries again and says what it found.
    }
    disarmPlan();
    if (lockFd_ >= 0) close(lockFd_);
}

void MachineLease::save() {
    writeRecord(dirs_, record_);
    armPlan(record_, dirs_);
}

void MachineLease::switchSmt(bool on) {
    SmtControl control(dirs_.cpuDir / "smt" / "control");
    const std::string want = on ? "on" : "off";
    std::string why = control.whyNotSwitchable();
    if (!why.empty()) throw Error("cannot switch SMT " + want + " for real: " + why);
    std::string now = *control.state();
    if (now == want) return;  // nothing to switch, nothing to undo
    if (!record_.smtWas) record_.smtWas = now;
    record_.smtNow = want;
    save();  // before the kernel hears of it: a kill -9 from here on is recovered
    testHold("switch");
    control.set(on);
}

void MachineLease::takeOffline(const CpuSet& cpus) {
    CpuHotplug hotplug(dirs_.cpuDir);
    for (int cpu : cpus.pus()) {
        std::string why = hotplug.whyNotHotpluggable(cpu);
        if (!why.empty()) throw Error("cannot take CPU " + std::to_string(cpu) + " offline: " + why);
    }
    CpuSet online = hotplug.online().value_or(cpus);
    std::vector<int> todo = (cpus & online).pus();
    if (todo.empty()) return;
    std::sort(todo.rbegin(), todo.rend());
    for (int cpu : todo) record_.offlined.push_back(cpu);
    save();
    bool first = true;
    for (int cpu : todo) {
        hotplug.setOnline(cpu, false);
        if (first) testHold("switch");
        first = false;
    }
}

void MachineLease::restore() {
    if (record_.empty()) return;
    undo(record_, dirs_.cpuDir);
    disarmPlan();
    record_.smtWas.reset();
    record_.smtNow.reset();
    record_.offlined.clear();
    writeRecord(dirs_, record_);  // empty: removes the file
}

void installMachineRestoreOnSignals() {
    struct sigaction sa {};
    sa.sa_handler = restoreAndReraise;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
}

void testHold(const char* point) {
    const char* hold = std::getenv("SCALELAB_TEST_HOLD");
    if (!hold || std::strcmp(hold, point) != 0) return;
    std::fprintf(stderr, "scalelab: test hold at %s (pid %ld)\n", point, static_cast<long>(getpid()));
    std::fflush(stderr);
    sleep(120);
}

} // namespace scalelab
