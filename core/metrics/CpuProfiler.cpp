#include "metrics/CpuProfiler.h"

#include "metrics/ProcessCpu.h"
#include "util/Clock.h"
#include "util/Error.h"
#include "util/Format.h"
#include "util/PipedProcess.h"
#include "util/Subprocess.h"
#include "util/TempDir.h"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <mutex>
#include <set>
#include <fstream>
#include <sstream>

namespace scalelab {
namespace {

std::string perfInPath() {
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "/usr/bin:/bin");
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        if (dir.empty()) continue;
        std::string candidate = dir + "/perf";
        if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    return {};
}

int perfParanoia() {
    std::ifstream in("/proc/sys/kernel/perf_event_paranoid");
    int level = 2;  // the kernel's default where the file cannot be read
    in >> level;
    return level;
}

std::string procText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string firstLines(const std::string& text, size_t lines) {
    std::istringstream in(text);
    std::string line, out;
    for (size_t i = 0; i < lines && std::getline(in, line); ++i) out += (out.empty() ? "" : " / ") + line;
    return out;
}

} // namespace

std::string perfRefusal() {
    std::string perf = perfInPath();
    if (perf.empty())
        return "perf is not installed (Debian: apt-get install linux-perf), and a CPU profile is recorded with it";
    // Whether a perf runs for this kernel does not change while ScaleLab runs: asked once per
    // program (each run's sampler asks again otherwise, a process start each).
    static std::mutex ranMutex;
    static std::set<std::string> ran;
    std::lock_guard<std::mutex> lock(ranMutex);
    if (!ran.count(perf)) {
        ProcessOptions quick;
        quick.timeout = std::chrono::seconds(10);
        ProcessResult version = runProcess({perf, "--version"}, quick);
        if (!version.ok())
            return perf + " does not run (" + firstLines(version.output, 2) +
                   "); Debian's perf needs the linux-perf package of the running kernel";
        ran.insert(perf);
    }
    if (::geteuid() != 0 && perfParanoia() > 2)
        return "kernel.perf_event_paranoid is " + std::to_string(perfParanoia()) +
               ", which lets no user but root profile: allow profiling your own processes with "
               "`sysctl kernel.perf_event_paranoid=2`, or run ScaleLab as root";
    return {};
}

std::string cpuProfileRefusal(pid_t postmaster) {
    if (std::string why = perfRefusal(); !why.empty()) return why;
    if (postmaster <= 0)
        return "the server does not run on this machine (or runs in a container): perf cannot see its processes "
               "from here";
    struct stat st {};
    if (::stat(("/proc/" + std::to_string(postmaster)).c_str(), &st) != 0)
        return "the server's postmaster (pid " + std::to_string(postmaster) + ") is not running";
    if (::geteuid() != 0 && st.st_uid != ::geteuid())
        return "the server's processes belong to another user (uid " + std::to_string(st.st_uid) +
               ") and perf profiles only your own unless run as root";
    return {};
}

CpuProfiler::CpuProfiler(pid_t postmaster, double hz) : postmaster_(postmaster), hz_(hz) {
    std::string why = cpuProfileRefusal(postmaster);
    if (!why.empty()) throw Error("cannot record a CPU profile: " + why);
    perfPath_ = perfInPath();
    // Kernel frames need root or perf_event_paranoid 1 or less; above that, user frames only.
    kernelFrames_ = ::geteuid() == 0 || perfParanoia() <= 1;
}

CpuProfiler::~CpuProfiler() {
    if (perf_) ::kill(perf_->pid(), SIGINT);
}

void CpuProfiler::start() {
    // Started again (the counted window begins after the warm-up): what was recorded so far is
    // dropped unread; folding it would hold up the sample at the warm-up's end.
    if (perf_) {
        ::kill(perf_->pid(), SIGINT);
        perf_->wait(std::chrono::seconds(30));
        perf_.reset();
    }
    dir_.reset();
    startError_.clear();
    stderr_.clear();
    kinds_.clear();
    std::string pids;
    for (const ProcStat& p : serverProcessStats("/proc", postmaster_)) {
        pids += (pids.empty() ? "" : ",") + std::to_string(p.pid);
        kinds_[p.pid] = postgresProcessKind(procText("/proc/" + std::to_string(p.pid) + "/cmdline"));
    }
    if (pids.empty()) {
        startError_ = "the server's postmaster (pid " + std::to_string(postmaster_) + ") is gone";
        return;
    }
    try {
        dir_ = std::make_unique<TempDir>("scalelab-profile");
        std::vector<std::string> argv = {perfPath_, "record", "-F", formatNumber("%g", hz_), "-e",
                                         kernelFrames_ ? "cpu-clock" : "cpu-clock:u", "-g", "-p", pids, "-o",
                                         (dir_->path() / "perf.data").string()};
        perf_ = std::make_unique<PipedProcess>(
            argv, [](const std::string&) {}, [] {},
            [this](const std::string& line) {
                std::lock_guard<std::mutex> lock(stderrMutex_);
                if (stderr_.size() < 50) stderr_.push_back(line);
            });
        startS_ = static_cast<double>(monotonicNs()) / 1e9;
    } catch (const Error& e) {
        startError_ = e.what();
        perf_.reset();
    }
}

CpuProfile CpuProfiler::stop() {
    CpuProfile p;
    if (!perf_) {
        p.unavailable = startError_.empty() ? "the profiler was not started" : startError_;
        startError_.clear();
        return p;
    }
    p.seconds = static_cast<double>(monotonicNs()) / 1e9 - startS_;
    ::kill(perf_->pid(), SIGINT);
    int rc = perf_->wait(std::chrono::seconds(30));
    perf_.reset();
    std::string said;
    {
        std::lock_guard<std::mutex> lock(stderrMutex_);
        for (const auto& line : stderr_) said += (said.empty() ? "" : " / ") + line;
    }
    const std::string data = (dir_->path() / "perf.data").string();
    struct stat st {};
    // perf ends with 130 (128 + SIGINT) or 0 when it stops on SIGINT having written its file.
    if ((rc != 0 && rc != 128 + SIGINT) || ::stat(data.c_str(), &st) != 0) {
        p.unavailable = "perf record failed (exit " + std::to_string(rc) + "): " + said;
        dir_.reset();
        return p;
    }
    ProcessOptions options;
    options.timeout = std::chrono::seconds(300);
    // The samples are perf script's stdout; its warnings (lost samples, missing symbols) go to
    // a file of their own, said only when nothing else explains an empty profile.
    options.stderrFile = (dir_->path() / "perf-script.err").string();
    ProcessResult script = runProcess({perfPath_, "script", "-i", data, "-F", "pid,ip,sym,dso"}, options);
    std::ifstream errFile(options.stderrFile);
    std::string warnings((std::istreambuf_iterator<char>(errFile)), std::istreambuf_iterator<char>());
    dir_.reset();
    if (!script.ok()) {
        p.unavailable = "perf script failed: " + firstLines(warnings + script.output, 3);
        return p;
    }
    try {
        p.folded = foldPerfScript(script.output, kinds_);
    } catch (const Error& e) {
        p.unavailable = std::string("perf script's output did not read: ") + e.what();
        return p;
    }
    for (const auto& [stack, n] : p.folded) p.samples += n;
    if (p.samples == 0) {
        p.folded.clear();
        p.unavailable = "perf recorded no samples of the server's processes (they used no CPU, or perf could not "
                        "see them)" + (warnings.empty() ? std::string() : ": " + firstLines(warnings, 2));
        return p;
    }
    p.hz = hz_;
    p.source = "perf record -F " + formatNumber("%g", hz_) + " -e " + (kernelFrames_ ? "cpu-clock" : "cpu-clock:u") +
               " -g" + (kernelFrames_ ? "" : " (user frames only: perf_event_paranoid above 1)");
    return p;
}

} // namespace scalelab
