#pragma once
// The kernel's CPU hotplug files under /sys/devices/system/cpu: which CPUs are present and
// online, and taking one offline or bringing it back (root). The directory is injectable so
// that tests can use a fake one; SCALELAB_SYSFS_CPU overrides the default for whole commands.
#include "topo/CpuSet.h"

#include <filesystem>
#include <optional>
#include <string>

namespace scalelab {

// /sys/devices/system/cpu, or $SCALELAB_SYSFS_CPU when set (tests).
std::filesystem::path sysfsCpuDir();

class CpuHotplug {
public:
    explicit CpuHotplug(std::filesystem::path cpuDir = sysfsCpuDir());

    std::optional<CpuSet> online() const;   // nullopt without the file
    std::optional<CpuSet> present() const;
    // Why `cpu` cannot be taken offline ("" when it can): no online file (the kernel keeps
    // it, as it does CPU 0 on most x86 kernels), not writable (root), not present.
    std::string whyNotHotpluggable(int cpu) const;
    // Writes 1 or 0 to cpuN/online and reads it back. Throws Error saying what the kernel kept.
    void setOnline(int cpu, bool on) const;
    // cpuN/online: the kernel can take this CPU offline (CPU 0 on most x86 kernels has none).
    std::filesystem::path onlineFile(int cpu) const;
    bool hasOnlineFile(int cpu) const;
    // What cpuN/online reads now; nullopt without the file.
    std::optional<bool> isOnline(int cpu) const;
    const std::filesystem::path& dir() const { return dir_; }

private:
    std::filesystem::path dir_;
};

} // namespace scalelab
