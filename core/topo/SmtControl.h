#pragma once
// Real SMT switching through the kernel's /sys/devices/system/cpu/smt/control (root only).
// A SmtSwitch puts the original state back when it goes out of scope, when an exception
// unwinds through it, and (after installSmtRestoreOnSignals) on SIGINT, SIGTERM and SIGHUP.
#include <filesystem>
#include <optional>
#include <string>

namespace scalelab {

class SmtControl {
public:
    explicit SmtControl(std::filesystem::path controlFile = "/sys/devices/system/cpu/smt/control");

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

class SmtSwitch {
public:
    // Switches SMT to `on` (when it is not already) and remembers the state to restore.
    SmtSwitch(const SmtControl& control, bool on);
    ~SmtSwitch();  // restores; never throws
    SmtSwitch(const SmtSwitch&) = delete;
    SmtSwitch& operator=(const SmtSwitch&) = delete;
    const std::string& originalState() const { return original_; }

private:
    const SmtControl& control_;
    std::string original_;
};

// A signal that ends ScaleLab while a SmtSwitch is active first writes the original state
// back (with async-signal-safe calls only), then lets the signal take its course.
void installSmtRestoreOnSignals();

} // namespace scalelab
