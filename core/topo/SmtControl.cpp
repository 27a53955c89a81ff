#include "topo/SmtControl.h"

#include "util/Error.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <fstream>

namespace scalelab {
namespace {

// What a signal handler needs to restore SMT: fixed buffers, no allocation.
struct PendingRestore {
    char path[512];
    char state[16];
};
PendingRestore gPending;
std::atomic<bool> gPendingActive{false};

void restoreAndReraise(int sig) {
    if (gPendingActive.exchange(false)) {
        int fd = open(gPending.path, O_WRONLY);
        if (fd >= 0) {
            (void)!write(fd, gPending.state, strlen(gPending.state));
            close(fd);
        }
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

} // namespace

SmtControl::SmtControl(std::filesystem::path controlFile) : path_(std::move(controlFile)) {}

std::optional<std::string> SmtControl::state() const {
    std::ifstream in(path_);
    std::string s;
    if (!(in >> s)) return std::nullopt;
    return s;
}

std::string SmtControl::whyNotSwitchable() const {
    auto s = state();
    if (!s) return "the kernel offers no SMT control (" + path_.string() + " is missing)";
    if (*s != "on" && *s != "off") return "SMT is '" + *s + "' here and cannot be switched";
    if (access(path_.c_str(), W_OK) != 0) return "switching SMT needs root (" + path_.string() + " is not writable)";
    return "";
}

void SmtControl::set(bool on) const {
    const char* want = on ? "on" : "off";
    {
        std::ofstream out(path_);
        out << want;
        out.flush();
        if (!out) throw Error("cannot write '" + std::string(want) + "' to " + path_.string());
    }
    auto now = state();
    if (!now || *now != want)
        throw Error("asked the kernel to switch SMT " + std::string(want) + ", but " + path_.string() + " says '" +
                    now.value_or("nothing") + "'");
}

SmtSwitch::SmtSwitch(const SmtControl& control, bool on) : control_(control) {
    std::string why = control.whyNotSwitchable();
    if (!why.empty()) throw Error("cannot switch SMT " + std::string(on ? "on" : "off") + " for real: " + why);
    original_ = *control.state();
    std::snprintf(gPending.path, sizeof gPending.path, "%s", control.path().c_str());
    std::snprintf(gPending.state, sizeof gPending.state, "%s", original_.c_str());
    gPendingActive.store(true);
    if (original_ != (on ? "on" : "off")) control.set(on);
}

SmtSwitch::~SmtSwitch() {
    gPendingActive.store(false);
    try {
        if (control_.state() != original_) control_.set(original_ == "on");
    } catch (...) {
        // A destructor must not throw; the state left is visible in the run's provenance.
    }
}

void installSmtRestoreOnSignals() {
    struct sigaction sa {};
    sa.sa_handler = restoreAndReraise;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
}

} // namespace scalelab
