#pragma once
// Switches ScaleLab makes to the machine (SMT control, CPUs taken offline) and the promise
// that they are always undone.
//
// Before it changes anything, a MachineLease writes what it is about to change, with the
// original state and its pid, to a state file (/run/scalelab/switched.json, root's, 0644),
// and holds an exclusive lock (/run/scalelab/lock, flock) for as long as its switches last.
// It puts the machine back when it ends, when an exception unwinds, and on SIGINT, SIGTERM
// or SIGHUP (installMachineRestoreOnSignals). A kill -9 or a crash leaves the state file with
// the lock free: the next ScaleLab command (recoverAbandonedSwitch, first thing in main)
// restores the original state and says so. Two ScaleLab processes never switch at once: the
// second one's lease is refused, naming the first.
#include "topo/CpuSet.h"

#include <sys/types.h>

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace scalelab {

struct MachineSwitchDirs {
    std::filesystem::path stateDir;  // /run/scalelab, or $SCALELAB_STATE_DIR (tests)
    std::filesystem::path cpuDir;    // /sys/devices/system/cpu, or $SCALELAB_SYSFS_CPU (tests)
    static MachineSwitchDirs standard();
};

// What one ScaleLab process changed, as the state file keeps it.
struct SwitchRecord {
    long pid = 0;
    unsigned long long processStart = 0;  // /proc/PID/stat start time: a reused pid is not the owner
    std::string command;                  // the command line, for messages
    std::string since;                    // UTC, ISO 8601
    std::optional<std::string> smtWas;    // the SMT control's state before ("on" or "off")
    std::optional<std::string> smtNow;    // what ScaleLab switched it to
    std::vector<int> offlined;            // CPUs ScaleLab took offline
    bool empty() const { return !smtWas && offlined.empty(); }
    std::string describe() const;         // "SMT switched off (was on); CPUs 1,3 taken offline"
    std::string undoText() const;         // "SMT on again; CPUs 1,3 online again"
};

// The state a switch left, read without taking the lock (for `scalelab topology`, non-root).
struct PendingSwitch {
    SwitchRecord record;
    bool ownerRunning = false;
};
// nullopt when no state file. Throws Error when the file or its directory is not ScaleLab's.
std::optional<PendingSwitch> readPendingSwitch(const MachineSwitchDirs& dirs = MachineSwitchDirs::standard());

// Puts back what a ScaleLab process that is gone left switched (root), and returns what it
// says about it; empty when there was nothing to do. Never throws: a failure is a line too.
// Without the right to restore, it says that a restore is pending and what needs it.
std::vector<std::string> recoverAbandonedSwitch(const MachineSwitchDirs& dirs = MachineSwitchDirs::standard());

class MachineLease {
public:
    // Takes the machine's switch lock; throws Error naming the ScaleLab that holds it. Restores
    // (and tells `note`) what a gone ScaleLab left before it goes on.
    explicit MachineLease(MachineSwitchDirs dirs = MachineSwitchDirs::standard(),
                          std::function<void(const std::string&)> note = {});
    ~MachineLease();  // restores, never throws; the state file stays if anything could not be put back
    MachineLease(const MachineLease&) = delete;
    MachineLease& operator=(const MachineLease&) = delete;

    // Records, then switches SMT on or off through smt/control. Throws Error with the reason
    // when the control is missing, fixed or not writable.
    void switchSmt(bool on);
    // Records, then takes each CPU offline (highest first). Throws Error with the reason when
    // one cannot be; what was already taken offline is restored by the destructor.
    void takeOffline(const CpuSet& cpus);
    // Puts everything back and removes the state file. Throws Error when the kernel refuses.
    void restore();
    const SwitchRecord& record() const { return record_; }

private:
    void save();
    MachineSwitchDirs dirs_;
    SwitchRecord record_;
    int lockFd_ = -1;
};

// A signal that ends ScaleLab while a lease holds switches first writes the original states
// back (async-signal-safe calls only) and removes the state file, then takes its course.
void installMachineRestoreOnSignals();

// Test hook: with SCALELAB_TEST_HOLD=POINT, a switch pauses 120 s at POINT ("switch": state
// recorded, switching half done; "restore": restoring half done) so that a test can kill -9
// ScaleLab exactly there. Documented in docs/topology.md.
void testHold(const char* point);

} // namespace scalelab
