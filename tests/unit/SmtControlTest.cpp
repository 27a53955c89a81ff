// Real SMT switching against a fake sysfs file (the path is injectable).
#include "server/EmbeddedServer.h"
#include "topo/SmtControl.h"
#include "util/Error.h"
#include "util/TempDir.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>

using namespace scalelab;

namespace {

struct FakeSysfs {
    TempDir dir{"scalelab-smt"};
    std::filesystem::path control = dir.path() / "control";
    explicit FakeSysfs(const std::string& state) { std::ofstream(control) << state << "\n"; }
    std::string read() const {
        std::ifstream in(control);
        std::string s;
        in >> s;
        return s;
    }
};

} // namespace

TEST(SmtControl, SwitchesOffAndRestoresWhenTheScopeEnds) {
    FakeSysfs sysfs("on");
    SmtControl control(sysfs.control);
    {
        SmtSwitch off(control, false);
        EXPECT_EQ(sysfs.read(), "off");
        EXPECT_EQ(off.originalState(), "on");
    }
    EXPECT_EQ(sysfs.read(), "on");
}

TEST(SmtControl, RestoresWhenAnExceptionUnwinds) {
    FakeSysfs sysfs("on");
    SmtControl control(sysfs.control);
    try {
        SmtSwitch off(control, false);
        throw std::runtime_error("the run failed");
    } catch (const std::runtime_error&) {
    }
    EXPECT_EQ(sysfs.read(), "on");
}

TEST(SmtControl, RestoresWhenASignalEndsTheProcess) {
    FakeSysfs sysfs("off");
    pid_t child = fork();
    if (child == 0) {
        installSmtRestoreOnSignals();
        SmtControl control(sysfs.control);
        SmtSwitch on(control, true);
        raise(SIGTERM);
        _exit(0);  // not reached
    }
    int status = 0;
    waitpid(child, &status, 0);
    EXPECT_TRUE(WIFSIGNALED(status));
    EXPECT_EQ(WTERMSIG(status), SIGTERM);
    EXPECT_EQ(sysfs.read(), "off");
}

TEST(SmtControl, SaysWhySmtCannotBeSwitched) {
    FakeSysfs sysfs("notsupported");
    EXPECT_EQ(SmtControl(sysfs.control).whyNotSwitchable(), "SMT is 'notsupported' here and cannot be switched");
    SmtControl missing(sysfs.dir.path() / "nothing");
    EXPECT_FALSE(missing.state());
    EXPECT_EQ(missing.whyNotSwitchable(),
              "the kernel offers no SMT control (" + (sysfs.dir.path() / "nothing").string() + " is missing)");
    try {
        SmtSwitch s(missing, false);
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()).rfind("cannot switch SMT off for real: the kernel offers no SMT control", 0), 0u);
    }
}
