#pragma once
// The kernel's SMT control, /sys/devices/system/cpu/smt/control: read it, and write it (root).
// Switching for a run, with the promise that it is undone, is MachineLease's (MachineSwitch.h).
#include "topo/CpuHotplug.h"

#include <filesystem>
#include <optional>
#include <string>

namespace scalelab {

class SmtControl {
public:
    explicit SmtControl(std::filesystem::path controlFile = sysfsCpuDir() / "smt" / "control");

    // "on", "off", "forceoff", "notsupported", "notimplemented"; nullopt without the file.
    std::optional<std::string> state() const;
    // Why SMT cannot be switched here ("" when it can): no file, not writable, state fixed.
    std::string whyNotSwitchable() const;
    // Writes "on" or "off" and reads it back. Throws Error saying what the kernel kept.
    void set(bool on) const;
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

} // namespace scalelab
