#pragma once
// system() and popen() for pgbench's \shell and \setshell, but the command starts with an
// empty signal mask and default signal actions (util/ChildSignals.h): the worker thread that
// runs it has SIGINT and SIGTERM blocked, and system()/popen() would pass that on.
#include <string>

namespace scalelab {

struct ShellRun {
    bool started = false;  // false: /bin/sh could not be started (fork or pipe failed)
    int status = -1;       // the wait status, as system() and pclose() return it
    bool gotLine = false;  // captured: the command wrote something before it closed its output
    std::string line;      // captured: the first line, at most `maxLine` - 1 bytes (as fgets)
};

// /bin/sh -c `command`, its output shared with ours; waits for it (as system()).
ShellRun runShellCommand(const std::string& command);
// /bin/sh -c `command`, its first line of output read (as popen() and one fgets()), then the
// pipe closed and the command waited for (as pclose()).
ShellRun runShellCommandForLine(const std::string& command, int maxLine);

} // namespace scalelab
