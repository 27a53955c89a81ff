// Switches to the machine (SMT control, CPUs offline) against a fake sysfs CPU directory and
// a private state directory: recorded before they happen, undone when the lease ends, on an
// exception, on a signal, and by the next command after a kill -9. The real kernel does the
// same in the vm tests (tests/vm).
#include "ErrorOf.h"

#include "topo/CpuHotplug.h"
#include "topo/MachineSwitch.h"
#include "topo/SmtControl.h"
#include "util/Error.h"
#include "util/TempDir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>

using namespace scalelab;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
    std::ifstream in(p);
    std::string s;
    in >> s;
    return s;
}

// /sys/devices/system/cpu of a 2-core, 2-thread machine: smt/control, online, present and
// cpuN/online for CPUs 1-3 (CPU 0 has none, as on x86).
struct FakeMachine {
    TempDir dir{"scalelab-switch"};
    MachineSwitchDirs dirs{dir.path() / "state", dir.path() / "cpu"};
    explicit FakeMachine(const std::string& smt = "on") {
        fs::create_directories(dirs.cpuDir / "smt");
        std::ofstream(dirs.cpuDir / "smt" / "control") << smt << "\n";
        std::ofstream(dirs.cpuDir / "online") << "0-3\n";
        std::ofstream(dirs.cpuDir / "present") << "0-3\n";
        for (int cpu = 1; cpu < 4; ++cpu) {
            fs::create_directories(dirs.cpuDir / ("cpu" + std::to_string(cpu)));
            std::ofstream(dirs.cpuDir / ("cpu" + std::to_string(cpu)) / "online") << "1\n";
        }
    }
    std::string smt() const { return slurp(dirs.cpuDir / "smt" / "control"); }
    std::string online(int cpu) const { return slurp(dirs.cpuDir / ("cpu" + std::to_string(cpu)) / "online"); }
    fs::path stateFile() const { return dirs.stateDir / "switched.json"; }
    nlohmann::json state() const {
        std::ifstream in(stateFile());
        return nlohmann::json::parse(in);
    }
};

using test::errorOf;

// A child that switches as `act` says, reports through a pipe that it has, then waits to be killed.
pid_t switchThenWait(const std::function<void()>& act) {
    int fds[2];
    if (pipe(fds) != 0) return -1;
    pid_t child = fork();
    if (child == 0) {
        close(fds[0]);
        act();
        (void)!write(fds[1], "x", 1);
        pause();
        _exit(0);
    }
    close(fds[1]);
    char c;
    EXPECT_EQ(read(fds[0], &c, 1), 1);
    close(fds[0]);
    return child;
}

} // namespace

TEST(MachineSwitch, RecordsTheSwitchBeforeItAndRestoresWhenTheLeaseEnds) {
    FakeMachine m;
    {
        MachineLease lease(m.dirs);
        lease.switchSmt(false);
        EXPECT_EQ(m.smt(), "off");
        nlohmann::json j = m.state();
        EXPECT_EQ(j["pid"], getpid());
        EXPECT_EQ(j["smt_control_was"], "on");
        EXPECT_EQ(lease.record().describe(), "SMT switched off (was on)");
    }
    EXPECT_EQ(m.smt(), "on");
    EXPECT_FALSE(fs::exists(m.stateFile()));
}

TEST(MachineSwitch, NothingIsRecordedWhenSmtIsAlreadyAsAsked) {
    FakeMachine m("off");
    MachineLease lease(m.dirs);
    lease.switchSmt(false);
    EXPECT_TRUE(lease.record().empty());
    EXPECT_FALSE(fs::exists(m.stateFile()));
}

TEST(MachineSwitch, RestoresWhenAnExceptionUnwinds) {
    FakeMachine m;
    try {
        MachineLease lease(m.dirs);
        lease.takeOffline(CpuSet{2, 3});
        EXPECT_EQ(m.online(2), "0");
        EXPECT_EQ(m.online(3), "0");
        EXPECT_EQ(m.state()["offline_cpus"], nlohmann::json({3, 2}));
        throw std::runtime_error("the run failed");
    } catch (const std::runtime_error&) {
    }
    EXPECT_EQ(m.online(2), "1");
    EXPECT_EQ(m.online(3), "1");
    EXPECT_FALSE(fs::exists(m.stateFile()));
}

TEST(MachineSwitch, RestoresWhenASignalEndsTheProcess) {
    FakeMachine m;
    pid_t child = fork();
    if (child == 0) {
        installMachineRestoreOnSignals();
        MachineLease lease(m.dirs);
        lease.switchSmt(false);
        lease.takeOffline(CpuSet{1});
        raise(SIGTERM);
        _exit(0);  // not reached
    }
    int status = 0;
    waitpid(child, &status, 0);
    EXPECT_TRUE(WIFSIGNALED(status));
    EXPECT_EQ(WTERMSIG(status), SIGTERM);
    EXPECT_EQ(m.smt(), "on");
    EXPECT_EQ(m.online(1), "1");
    EXPECT_FALSE(fs::exists(m.stateFile()));
}

TEST(MachineSwitch, AfterKillNineTheNextCommandRestoresAndSaysSo) {
    FakeMachine m;
    pid_t child = switchThenWait([&] {
        auto* lease = new MachineLease(m.dirs);  // never destroyed: the kill ends it
        lease->switchSmt(false);
    });
    kill(child, SIGKILL);
    waitpid(child, nullptr, 0);
    EXPECT_EQ(m.smt(), "off");
    ASSERT_TRUE(fs::exists(m.stateFile()));
    auto pending = readPendingSwitch(m.dirs);
    ASSERT_TRUE(pending);
    EXPECT_FALSE(pending->ownerRunning);
    EXPECT_EQ(pending->record.pid, child);

    std::vector<std::string> said = recoverAbandonedSwitch(m.dirs);
    ASSERT_EQ(said.size(), 1u);
    EXPECT_NE(said[0].find("ScaleLab pid " + std::to_string(child)), std::string::npos) << said[0];
    EXPECT_NE(said[0].find("ended without undoing its switches (SMT switched off (was on)); restored: SMT on again"),
              std::string::npos)
        << said[0];
    EXPECT_EQ(m.smt(), "on");
    EXPECT_FALSE(fs::exists(m.stateFile()));
    EXPECT_TRUE(recoverAbandonedSwitch(m.dirs).empty());  // nothing left to do, nothing said
}

TEST(MachineSwitch, ANewLeaseRestoresWhatAKilledOneLeftBeforeItSwitches) {
    FakeMachine m;
    pid_t child = switchThenWait([&] { (new MachineLease(m.dirs))->takeOffline(CpuSet{3}); });
    kill(child, SIGKILL);
    waitpid(child, nullptr, 0);
    EXPECT_EQ(m.online(3), "0");
    std::vector<std::string> notes;
    {
        MachineLease lease(m.dirs, [&](const std::string& s) { notes.push_back(s); });
        EXPECT_EQ(m.online(3), "1");
        ASSERT_EQ(notes.size(), 1u);
        EXPECT_NE(notes[0].find("CPU 3 taken offline); restored: CPU 3 online again"), std::string::npos) << notes[0];
    }
}

TEST(MachineSwitch, TwoProcessesNeverSwitchAtOnce) {
    FakeMachine m;
    pid_t child = switchThenWait([&] { (new MachineLease(m.dirs))->switchSmt(false); });
    std::string refused = errorOf([&] { MachineLease second(m.dirs); });
    EXPECT_NE(refused.find("ScaleLab pid " + std::to_string(child)), std::string::npos) << refused;
    EXPECT_NE(refused.find("is switching this machine's CPUs now"), std::string::npos) << refused;
    // While its owner runs, the switch is its own: no one restores it behind its back.
    EXPECT_TRUE(recoverAbandonedSwitch(m.dirs).empty());
    EXPECT_EQ(m.smt(), "off");
    auto pending = readPendingSwitch(m.dirs);
    ASSERT_TRUE(pending);
    EXPECT_TRUE(pending->ownerRunning);
    kill(child, SIGKILL);
    waitpid(child, nullptr, 0);
    EXPECT_EQ(recoverAbandonedSwitch(m.dirs).size(), 1u);
    EXPECT_EQ(m.smt(), "on");
}

TEST(MachineSwitch, APidReusedByAnotherProcessIsNotTheOwner) {
    FakeMachine m;
    fs::create_directories(m.dirs.stateDir);
    // This test's own pid, with a start time that is not this process's: the owner is gone.
    std::ofstream(m.stateFile()) << nlohmann::json{{"pid", getpid()}, {"process_start", 1}, {"smt_control_was", "on"}};
    std::ofstream(m.dirs.cpuDir / "smt" / "control") << "off\n";
    auto pending = readPendingSwitch(m.dirs);
    ASSERT_TRUE(pending);
    EXPECT_FALSE(pending->ownerRunning);
    EXPECT_EQ(recoverAbandonedSwitch(m.dirs).size(), 1u);
    EXPECT_EQ(m.smt(), "on");
}

TEST(MachineSwitch, AStateFileThatIsNotScaleLabsIsNeitherTrustedNorActedOn) {
    FakeMachine m;
    fs::create_directories(m.dirs.stateDir);
    std::ofstream(m.stateFile()) << R"({"pid": 99999999, "smt_control_was": "on; reboot"})";
    std::ofstream(m.dirs.cpuDir / "smt" / "control") << "off\n";
    std::vector<std::string> said = recoverAbandonedSwitch(m.dirs);
    ASSERT_EQ(said.size(), 1u);
    EXPECT_NE(said[0].find("is not a ScaleLab switch state file (smt_control_was is 'on; reboot'): remove it"),
              std::string::npos)
        << said[0];
    EXPECT_EQ(m.smt(), "off");
}

TEST(MachineSwitch, AStateDirectoryOthersCanWriteOrASymlinkIsRefused) {
    FakeMachine m;
    fs::create_directories(m.dir.path() / "elsewhere");
    fs::create_directory_symlink(m.dir.path() / "elsewhere", m.dirs.stateDir);
    EXPECT_NE(errorOf([&] { MachineLease lease(m.dirs); }).find("is not a directory"), std::string::npos);
    fs::remove(m.dirs.stateDir);
    fs::create_directories(m.dirs.stateDir);
    chmod(m.dirs.stateDir.c_str(), 0777);
    EXPECT_NE(errorOf([&] { MachineLease lease(m.dirs); }).find("is writable by others: remove it"), std::string::npos);
    EXPECT_EQ(m.smt(), "on");
}

TEST(MachineSwitch, SaysWhySmtOrACpuCannotBeSwitched) {
    FakeMachine m("notsupported");
    EXPECT_EQ(SmtControl(m.dirs.cpuDir / "smt" / "control").whyNotSwitchable(),
              "SMT is 'notsupported' here and cannot be switched");
    MachineLease lease(m.dirs);
    EXPECT_EQ(errorOf([&] { lease.switchSmt(false); }),
              "cannot switch SMT off for real: SMT is 'notsupported' here and cannot be switched");
    CpuHotplug hotplug(m.dirs.cpuDir);
    EXPECT_EQ(hotplug.whyNotHotpluggable(0), "the kernel cannot take CPU 0 offline (" +
                                                 (m.dirs.cpuDir / "cpu0" / "online").string() + " is missing)");
    EXPECT_EQ(hotplug.whyNotHotpluggable(7), "CPU 7 is not present");
    EXPECT_EQ(errorOf([&] { lease.takeOffline(CpuSet{0, 1}); }).rfind("cannot take CPU 0 offline: the kernel cannot", 0), 0u);
    EXPECT_EQ(m.online(1), "1");  // refused before anything was switched
    EXPECT_FALSE(fs::exists(m.stateFile()));
    ASSERT_TRUE(hotplug.online());
    EXPECT_EQ(hotplug.online()->toList(), "0-3");
}

// Issue 60.9: five tamperings of the state directory (root-planted). Each is said, none hangs,
// and what can be put back is put back.
TEST(MachineSwitch, AFifoAsTheStateFileIsRefusedWithoutWaiting) {
    FakeMachine m;
    fs::create_directories(m.dirs.stateDir);
    ASSERT_EQ(mkfifo(m.stateFile().c_str(), 0600), 0);
    std::vector<std::string> said = recoverAbandonedSwitch(m.dirs);  // opened without O_NONBLOCK, this hung
    ASSERT_EQ(said.size(), 1u);
    EXPECT_NE(said[0].find("is not a file of root's: ScaleLab does not trust it; remove it"), std::string::npos) << said[0];
}

TEST(MachineSwitch, ASymlinkedLockIsSaidForWhatItIs) {
    FakeMachine m;
    fs::create_directories(m.dirs.stateDir);
    std::ofstream(m.dirs.cpuDir / "smt" / "control") << "off\n";
    std::ofstream(m.stateFile()) << nlohmann::json{{"pid", 99999999}, {"process_start", 1}, {"smt_control_was", "on"}};
    fs::create_symlink(m.dir.path() / "elsewhere", m.dirs.stateDir / "lock");
    std::vector<std::string> said = recoverAbandonedSwitch(m.dirs);
    ASSERT_EQ(said.size(), 1u);
    EXPECT_NE(said[0].find("lock is a symbolic link: ScaleLab never follows one there; remove it"), std::string::npos)
        << said[0];
    EXPECT_EQ(said[0].find("run any scalelab command as root"), std::string::npos) << "root was told to be root";
    EXPECT_NE(errorOf([&] { MachineLease lease(m.dirs); }).find("is a symbolic link"), std::string::npos);
    EXPECT_FALSE(fs::exists(m.dir.path() / "elsewhere"));
}

TEST(MachineSwitch, ALivePidWithoutAStartTimeIsNotTheOwner) {
    FakeMachine m;
    fs::create_directories(m.dirs.stateDir);
    std::ofstream(m.dirs.cpuDir / "smt" / "control") << "off\n";
    std::ofstream(m.stateFile()) << nlohmann::json{{"pid", getpid()}, {"smt_control_was", "on"}};
    auto pending = readPendingSwitch(m.dirs);
    ASSERT_TRUE(pending);
    EXPECT_FALSE(pending->ownerRunning) << "any live pid made it the owner for ever";
    EXPECT_EQ(recoverAbandonedSwitch(m.dirs).size(), 1u);
    EXPECT_EQ(m.smt(), "on");
}

TEST(MachineSwitch, TheRecordedCommandIsShownWithoutItsControlCharacters) {
    FakeMachine m;
    fs::create_directories(m.dirs.stateDir);
    std::ofstream(m.stateFile()) << nlohmann::json{
        {"pid", 99999999}, {"process_start", 1}, {"command", "scalelab \x1b]0;owned\x07\x1b[2J"}, {"smt_control_was", "on"}};
    std::vector<std::string> said = recoverAbandonedSwitch(m.dirs);
    ASSERT_EQ(said.size(), 1u);
    EXPECT_EQ(said[0].find('\x1b'), std::string::npos) << said[0];
    EXPECT_EQ(said[0].find('\x07'), std::string::npos) << said[0];
}

TEST(MachineSwitch, ACpuTheKernelDoesNotHaveDoesNotFailEveryLaterCommand) {
    FakeMachine m;
    fs::create_directories(m.dirs.stateDir);
    std::ofstream(m.dirs.cpuDir / "cpu3" / "online") << "0\n";
    std::ofstream(m.stateFile()) << nlohmann::json{{"pid", 99999999}, {"process_start", 1}, {"offline_cpus", {3, 4000}}};
    std::vector<std::string> said = recoverAbandonedSwitch(m.dirs);
    ASSERT_EQ(said.size(), 1u);
    EXPECT_NE(said[0].find("restored"), std::string::npos) << said[0];
    EXPECT_EQ(m.online(3), "1");
    EXPECT_FALSE(fs::exists(m.stateFile()));
    EXPECT_TRUE(recoverAbandonedSwitch(m.dirs).empty());
}
