// System metrics against captured /proc files (tests/data/proc, two snapshots each). The
// expected percentages are worked out by hand in the comments.
#include "metrics/CpuStat.h"
#include "metrics/DiskStats.h"
#include "metrics/Pressure.h"
#include "metrics/ProcessCpu.h"
#include "metrics/MachineReading.h"
#include "metrics/MetricsJson.h"
#include "metrics/SystemSampler.h"
#include "load/LoadRun.h"
#include "sweep/RunRecordOf.h"
#include "util/TempDir.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

using namespace scalelab;

namespace {

std::string data(const std::string& name) {
    std::ifstream in(std::string(SCALELAB_TEST_DATA) + "/proc/" + name);
    std::stringstream s;
    s << in.rdbuf();
    EXPECT_FALSE(s.str().empty()) << name;
    return s.str();
}

std::vector<ProcStat> pidStats(const std::string& name) {
    std::vector<ProcStat> out;
    std::istringstream in(data(name));
    for (std::string line; std::getline(in, line);)
        if (auto p = parsePidStat(line)) out.push_back(*p);
    return out;
}

bool onlySda(const std::string& name, const void*) { return name == "sda"; }

} // namespace

TEST(CpuStat, PercentagesOfTheIntervalForTheTotalAndEachPu) {
    // total: user +80, system +40, idle +60, iowait +20 = 200 ticks
    //   -> user 40%, system 20%, idle 30%, iowait 10%
    CpuSample s = cpuBetween(parseCpuStat(data("stat.1")), parseCpuStat(data("stat.2")));
    EXPECT_DOUBLE_EQ(s.total.user, 40.0);
    EXPECT_DOUBLE_EQ(s.total.system, 20.0);
    EXPECT_DOUBLE_EQ(s.total.idle, 30.0);
    EXPECT_DOUBLE_EQ(s.total.iowait, 10.0);
    EXPECT_DOUBLE_EQ(s.total.steal, 0.0);
    EXPECT_DOUBLE_EQ(s.total.busy(), 60.0);
    // cpu1 went offline and cpu2 came online between the snapshots: only cpu0 is reported.
    // cpu0: user +60, system +20, idle +20, iowait 60 -> 50 went backwards: counts 0.
    //   100 ticks -> user 60%, system 20%, idle 20%, iowait 0%
    ASSERT_EQ(s.perPu.size(), 1u);
    EXPECT_EQ(s.perPu[0].first, 0);
    EXPECT_DOUBLE_EQ(s.perPu[0].second.user, 60.0);
    EXPECT_DOUBLE_EQ(s.perPu[0].second.system, 20.0);
    EXPECT_DOUBLE_EQ(s.perPu[0].second.idle, 20.0);
    EXPECT_DOUBLE_EQ(s.perPu[0].second.iowait, 0.0);
}

TEST(CpuStat, AnOldKernelWithoutStealAndGuestColumns) {
    // user +50, system +25, idle +20, iowait +5 = 100 ticks; no steal column: 0.
    CpuUsage u = cpuBetween(parseCpuStat(data("stat-old-kernel.1")), parseCpuStat(data("stat-old-kernel.2"))).total;
    EXPECT_DOUBLE_EQ(u.user, 50.0);
    EXPECT_DOUBLE_EQ(u.system, 25.0);
    EXPECT_DOUBLE_EQ(u.idle, 20.0);
    EXPECT_DOUBLE_EQ(u.iowait, 5.0);
    EXPECT_DOUBLE_EQ(u.steal, 0.0);
}

TEST(DiskStats, RatesLikeIostatOverTwoSeconds) {
    // sda over 2 s: reads +100 -> 50 r/s; writes +300 -> 150 w/s;
    // sectors read +2048 (1 MiB) -> 0.5 MB/s; written +6144 (3 MiB) -> 1.5 MB/s;
    // await (200 + 600 ms) / 400 I/Os = 2 ms; busy +1000 ms of 2000 -> 50% util.
    auto before = parseDiskStats(data("diskstats.1")), after = parseDiskStats(data("diskstats.2"));
    auto disks = disksBetween(before, after, 2.0, DiskFilter{}, onlySda, nullptr);
    ASSERT_EQ(disks.size(), 1u) << "loop0 and the partition sda1 are left out by default";
    const DiskSample& d = disks[0];
    EXPECT_EQ(d.name, "sda");
    EXPECT_DOUBLE_EQ(d.readsPerSec, 50.0);
    EXPECT_DOUBLE_EQ(d.writesPerSec, 150.0);
    EXPECT_DOUBLE_EQ(d.readMBps, 0.5);
    EXPECT_DOUBLE_EQ(d.writeMBps, 1.5);
    EXPECT_DOUBLE_EQ(d.awaitMs, 2.0);
    EXPECT_DOUBLE_EQ(d.utilPct, 50.0);

    DiskFilter withPartitions;
    withPartitions.partitions = true;
    EXPECT_EQ(disksBetween(before, after, 2.0, withPartitions, onlySda, nullptr).size(), 2u);
    DiskFilter justLoop;
    justLoop.only = {"loop0"};
    auto loop = disksBetween(before, after, 2.0, justLoop, onlySda, nullptr);
    ASSERT_EQ(loop.size(), 1u);
    EXPECT_DOUBLE_EQ(loop[0].readsPerSec, 20.0);  // +40 over 2 s
}

TEST(ProcessCpu, TheServerTreeKeepsTheTimeOfChildrenThatExited) {
    // t1: postmaster 200+100 own + 50+25 reaped = 375; child 101: 400; child 102: 15 -> 790
    // t2: postmaster 201+101 + 62+31 (102 exited after 2+1 more ticks and was reaped) = 395;
    //     101: 470; new child 103: 10 -> 875. bash (pid 55) is not the server's.
    // 85 ticks in 1 s at 100 ticks/s = 85% of one PU.
    auto t1 = pidStats("server-stat.1"), t2 = pidStats("server-stat.2");
    ASSERT_EQ(t1.size(), 4u);
    EXPECT_EQ(t1[2].ppid, 100) << "the name '(postgres: checkpointer (x))' holds spaces and parentheses";
    EXPECT_EQ(serverTreeTicks(100, t1), 790u);
    EXPECT_EQ(serverTreeTicks(100, t2), 875u);
    EXPECT_DOUBLE_EQ(cpuPercent(790, 875, 1.0, 100), 85.0);
    EXPECT_DOUBLE_EQ(cpuPercent(875, 790, 1.0, 100), 0.0);  // a counter going backwards is no negative use
}

TEST(Pressure, ShareOfTheIntervalStalled) {
    // some +500,000 us, full +100,000 us over 2 s -> 25% and 5%.
    auto a = parsePressure(data("pressure-io.1")), b = parsePressure(data("pressure-io.2"));
    ASSERT_TRUE(a && b);
    PressureSample s = pressureBetween(*a, *b, 2.0);
    EXPECT_DOUBLE_EQ(s.somePct, 25.0);
    EXPECT_DOUBLE_EQ(s.fullPct, 5.0);
    EXPECT_FALSE(parsePressure(""));
}

TEST(SystemSampler, FlagsALoadGeneratorThatUsesOver90PercentOfItsPus) {
    MetricsSources src;
    src.root = std::string(SCALELAB_TEST_DATA);  // no proc/stat there: empty CPU data
    src.loadGenerator = 1;
    src.loadGeneratorPus = 2;
    SystemSampler sampler(src);
    SystemSnapshot a, b;
    a.seconds = 10;
    b.seconds = 11;
    a.loadGeneratorTicks = 1000;
    b.loadGeneratorTicks = 1185;  // 185% of one PU = 92.5% of two
    SystemSample s = sampler.between(a, b);
    EXPECT_DOUBLE_EQ(*s.loadGeneratorCpuPct, 185.0);
    EXPECT_TRUE(s.clientBound);
    b.loadGeneratorTicks = 1170;  // 85% of two PUs
    EXPECT_FALSE(sampler.between(a, b).clientBound);
}

TEST(CpuStat, StealIsNotBusy) {
    CpuUsage u;
    u.user = 40, u.system = 10, u.steal = 20, u.idle = 25, u.iowait = 5;
    EXPECT_DOUBLE_EQ(u.busy(), 50.0);
}

TEST(ServerCounters, AResetIsMarkedNotAZero) {
    ServerCounterSnapshot a, b;
    a.xactCommit = 1000, b.xactCommit = 1500;
    a.statsReset = b.statsReset = "2026-11-30 08:00:00+00";
    EXPECT_FALSE(countersWereReset(a, b));
    b.statsReset = "2026-11-30 08:00:05+00";
    EXPECT_TRUE(countersWereReset(a, b));
    b.statsReset = a.statsReset;
    b.xactCommit = 20;  // went backwards
    EXPECT_TRUE(countersWereReset(a, b));

    MetricsSources src;
    src.root = std::string(SCALELAB_TEST_DATA);
    SystemSampler sampler(src);
    SystemSnapshot sa, sb;
    sa.seconds = 1, sb.seconds = 2;
    sa.counters = a, sb.counters = b;
    SystemSample s = sampler.between(sa, sb);
    EXPECT_TRUE(s.serverCountersReset);
    EXPECT_FALSE(s.server.has_value());
    sb.counters->xactCommit = 1500;
    s = sampler.between(sa, sb);
    EXPECT_FALSE(s.serverCountersReset);
    ASSERT_TRUE(s.server.has_value());
    EXPECT_DOUBLE_EQ(s.server->commits, 500.0);
}

// Found by fuzz_proc: a line that is not the kernel's made std::stoi/stoull throw out of the
// metrics thread. Such lines are skipped; the kernel's lines around them still count.
TEST(ProcParsers, LinesThatAreNotTheKernelsAreSkipped) {
    CpuStatSnapshot cpu = parseCpuStat("cpu  100 0 50 800 10 0 5\ncpu\xe1 1 2 3 4\ncpuX 1 2 3 4\ncpu0 7 0 3 90\n");
    EXPECT_EQ(cpu.total.user, 100u);
    ASSERT_EQ(cpu.perPu.size(), 1u);
    EXPECT_EQ(cpu.perPu[0].first, 0);
    EXPECT_EQ(cpu.perPu[0].second.user, 7u);
    auto pressure = parsePressure("some avg10=0.00 avg60=0.00 avg300=0.00 total=\nsome avg10=0.00 total=1234\n");
    ASSERT_TRUE(pressure.has_value());
    EXPECT_EQ(pressure->someUs, 1234u);
    EXPECT_FALSE(parsePressure("some total=x\n").has_value());
}

// Issue 60.5: with every descriptor in use, /proc/stat could not be opened and the run reported
// its CPU as 0.00 and completed. A file that cannot be read is a missing figure with its reason,
// carried to the run's record (no CPU figure, the system-missing flag) and its JSON (null, and
// "missing" saying why). Reproduced as the issue had it: no descriptor left.
TEST(SystemSampler, AProcFileThatCannotBeReadIsAMissingFigureNeverZero) {
    rlimit saved{};
    ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &saved), 0);
    std::set<int> open;
    for (const auto& e : std::filesystem::directory_iterator("/proc/self/fd")) open.insert(std::stoi(e.path().filename().string()));
    int lowestFree = 0;
    while (open.count(lowestFree) && fcntl(lowestFree, F_GETFD) != -1) ++lowestFree;  // the listing's own is free again
    rlimit tight = saved;
    tight.rlim_cur = static_cast<rlim_t>(lowestFree);  // the next descriptor would be past the limit: none free
    // Only the reads while no descriptor is free: the sanitizers' own checks need one (UBSan's
    // vptr check opens a pipe), so the rest of the reading is tested on files below.
    std::string why;
    ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &tight), 0);
    std::string text = readProcFile("/proc/stat", why);
    setrlimit(RLIMIT_NOFILE, &saved);
    EXPECT_EQ(why, "cannot read /proc/stat: Too many open files");
    EXPECT_EQ(text, "");
    // A /proc whose files cannot be read (directories where the files should be: read() fails).
    TempDir root("scalelab-unreadable-proc");
    for (const char* f : {"proc/stat", "proc/diskstats", "proc/500/stat"}) std::filesystem::create_directories(root.path() / f);
    MachineReading r = readMachine(root.path().string(), 500);
    EXPECT_EQ(r.missing["cpu"], "cannot read " + (root.path() / "proc/stat").string() + ": Is a directory");
    EXPECT_EQ(r.missing["disks"], "cannot read " + (root.path() / "proc/diskstats").string() + ": Is a directory");
    EXPECT_EQ(r.missing["server"], "cannot read " + (root.path() / "proc/500/stat").string() + ": Is a directory");
    EXPECT_FALSE(r.missing.count("pressure")) << "no PSI files: a kernel without PSI, as before";
    MachineReading back = machineReadingFromJson(nlohmann::json::parse(toJson(r).dump()));
    EXPECT_EQ(back.missing, r.missing) << "an agent's reading says what it could not read";

    MetricsSources src;
    src.root = std::string(SCALELAB_TEST_DATA);
    SystemSampler sampler(src);
    SystemSnapshot a, b;
    a.seconds = 1, b.seconds = 2;
    a.cpu = parseCpuStat("cpu  100 0 50 800 10 0 5 0\n");
    b.missing["cpu"] = "cannot read /proc/stat: Too many open files";
    SystemSample s = sampler.between(a, b);
    EXPECT_FALSE(s.cpuMeasured());
    nlohmann::json j = toJson(s);
    EXPECT_TRUE(j["cpu"].is_null());
    EXPECT_EQ(j["missing"]["cpu"], "cannot read /proc/stat: Too many open files");

    LoadResult result;
    result.status = RunStatus::Completed;
    result.system = s;
    RunRecord rec = recordOf(result, "A", 1);
    EXPECT_FALSE(rec.cpuBusyPct) << "missing, not 0";
    EXPECT_TRUE(rec.flags.has(RunFlag::SystemMissing));
    EXPECT_EQ(rec.flags.joined(), "system-missing");
}
