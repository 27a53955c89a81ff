// A worker's meta commands: \set, \sleep, \if and its branches, \shell and \setshell, the
// pipeline commands.
#include "load/worker/WorkerClient.h"

#include "load/LoadRun.h"
#include "util/ShellCommand.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cstring>
#include <numeric>
#include <ctime>

#include <climits>
#include <sstream>

namespace scalelab {

// One meta command. False when the client must stop here for now (sleeping, waiting for the
// pipeline's results, aborted).
// A meta command as pgbench --debug shows it: its words, one space apart; \set with its
// variable and \if or \elif alone (pgbench keeps their expressions apart from the words).
std::string Worker::debugWords(const Command& cmd) {
    std::string out;
    std::string word;
    std::istringstream words(cmd.firstLine);
    int n = 0;
    int keep = cmd.kind == Command::Kind::Set ? 2 : cmd.kind == Command::Kind::If || cmd.kind == Command::Kind::Elif ? 1 : INT_MAX;
    while (n < keep && words >> word) out += (n++ ? " " : "") + word;
    return out;
}

bool Worker::runMeta(Client& c, const Command& cmd, bool entering) {
    if (spec_.debug) debugLine("client %d executing %s", c.id, debugWords(cmd).c_str());
    EvalContext ctx{c.vars, spec_.workload.vars, c.rng, c.script, static_cast<int>(c.command), stderr, {}};
    ScriptValue value;
    switch (cmd.kind) {
    case Command::Kind::Set:
        if (!evaluate(cmd.expr, ctx, value)) {
            abortInCommand(c, "set", "evaluation of meta-command failed: " + ctx.error);
            return false;
        }
        if (!cmd.setNameValid && !c.vars.defined(cmd.setVar)) {
            abortInCommand(c, "set", "assignment of meta-command failed: set: invalid variable name: \"" + cmd.setName + "\"");
            return false;
        }
        c.vars.setValue(cmd.setVar, value);
        ++c.command;
        return true;
    case Command::Kind::Sleep: {
        int64_t amount = cmd.sleepAmount;
        if (cmd.sleepVar >= 0) {
            const char* text = c.vars.text(cmd.sleepVar);
            if (!text) {
                abortInCommand(c, "sleep", "execution of meta-command failed: sleep: undefined variable \"" +
                                               spec_.workload.vars.name(cmd.sleepVar) + "\"");
                return false;
            }
            amount = std::atoi(text);
            if (amount == 0 && !std::isdigit(static_cast<unsigned char>(text[0]))) {
                abortInCommand(c, "sleep", std::string("execution of meta-command failed: sleep: invalid sleep time \"") + text +
                                               "\" for variable \"" + spec_.workload.vars.name(cmd.sleepVar) + "\"");
                return false;
            }
        }
        ++c.command;
        wakeAt(c, monotonicNs() + amount * cmd.sleepUnitUs * 1000, false);
        return false;
    }
    case Command::Kind::If:
    case Command::Kind::Elif: {
        if (cmd.kind == Command::Kind::Elif && !entering) {
            c.command = static_cast<size_t>(cmd.endif) + 1;  // a branch before it ran
            return true;
        }
        if (!evaluate(cmd.expr, ctx, value)) {
            abortInCommand(c, cmd.kind == Command::Kind::If ? "if" : "elif", "evaluation of meta-command failed: " + ctx.error);
            return false;
        }
        if (valueTruth(value)) {
            ++c.command;
        } else {
            c.command = static_cast<size_t>(cmd.next);
            c.entering = true;
        }
        return true;
    }
    case Command::Kind::Else:
        c.command = entering ? c.command + 1 : static_cast<size_t>(cmd.endif) + 1;
        return true;
    case Command::Kind::Endif:
        ++c.command;
        return true;
    case Command::Kind::SetShell:
    case Command::Kind::Shell:
        if (!runShell(c, cmd)) return false;
        ++c.command;
        return true;
    case Command::Kind::StartPipeline:
        if (spec_.mode == QueryMode::Simple) {
            abortInCommand(c, "startpipeline", "cannot use pipeline mode with the simple query protocol");
            return false;
        }
        if (PQpipelineStatus(c.conn) != PQ_PIPELINE_OFF) {
            abortInCommand(c, "startpipeline", "already in pipeline mode");
            return false;
        }
        if (PQenterPipelineMode(c.conn) != 1) {
            abortInCommand(c, "startpipeline", "failed to enter pipeline mode");
            return false;
        }
        ++c.command;
        return true;
    case Command::Kind::SyncPipeline:
    case Command::Kind::EndPipeline: {
        const char* name = cmd.kind == Command::Kind::SyncPipeline ? "syncpipeline" : "endpipeline";
        if (PQpipelineStatus(c.conn) != PQ_PIPELINE_ON) {
            abortInCommand(c, name, "not in pipeline mode");
            return false;
        }
        if (PQpipelineSync(c.conn) != 1) {
            abortInCommand(c, name, "failed to send a pipeline sync");
            return false;
        }
        ++c.syncs;
        int flushed = PQflush(c.conn);
        if (flushed < 0) {
            lose(c, PQerrorMessage(c.conn));
            return false;
        }
        setNeedFlush(c, flushed == 1);
        if (cmd.kind == Command::Kind::SyncPipeline) {
            ++c.command;
            return true;
        }
        c.sqlstate[0] = '\0';
        c.query = 0;
        c.phase = Client::Phase::Draining;  // read every result up to the last sync
        // Results that came while the client slept are already read from the socket.
        if (!PQisBusy(c.conn)) processResults(c);
        return false;
    }
    case Command::Kind::Sql: break;
    }
    return true;
}

// pgbench's runShellCommand(): the words joined by spaces, ":name" replaced by the variable;
// \setshell reads one integer from the command's output.
bool Worker::runShell(Client& c, const Command& cmd) {
    const char* name = cmd.kind == Command::Kind::SetShell ? "setshell" : "shell";
    const char* program = cmd.shellWords[0].c_str();  // pgbench's messages name the command run
    std::string command;
    for (size_t k = 0; k < cmd.shellWords.size(); ++k) {
        const char* word = cmd.shellWords[k].c_str();
        if (cmd.shellVars[k] >= 0) {
            word = c.vars.text(cmd.shellVars[k]);
            if (!word) {
                abortInCommand(c, name, std::string("execution of meta-command failed: ") + program + ": undefined variable \"" +
                                            cmd.shellWords[k] + "\"");
                return false;
            }
        }
        if (k > 0) command += ' ';
        command += word;
    }
    if (command.size() >= 1023) {  // pgbench's SHELL_COMMAND_SIZE
        abortInCommand(c, name, std::string("execution of meta-command failed: ") + program + ": shell command is too long");
        return false;
    }
    // Our own output first, then the command's (pgbench flushes before it forks). Not
    // fflush(NULL): that takes the lock of every stream, stdin's too, and a load-host agent's
    // stop watcher holds stdin's lock while it waits for a line: the run hung (issue 31.7).
    std::fflush(stdout);
    std::fflush(stderr);
    if (cmd.kind == Command::Kind::Shell) {
        ShellRun run = runShellCommand(command);  // system(), with default signals in the child
        if (!run.started || run.status != 0) {
            abortInCommand(c, name, std::string("execution of meta-command failed: ") + program + ": could not launch shell command");
            return false;
        }
        return true;
    }
    ShellRun run = runShellCommandForLine(command, 64);  // popen(), one fgets() of 64 bytes, pclose()
    if (!run.started) {
        abortInCommand(c, name, std::string("execution of meta-command failed: ") + program + ": could not launch shell command");
        return false;
    }
    if (!run.gotLine) {
        abortInCommand(c, name, std::string("execution of meta-command failed: ") + program + ": could not read result of shell command");
        return false;
    }
    if (run.status < 0) {
        abortInCommand(c, name, std::string("execution of meta-command failed: ") + program + ": could not run shell command");
        return false;
    }
    const char* res = run.line.c_str();
    char* end = nullptr;
    long v = std::strtol(res, &end, 10);
    while (*end && std::isspace(static_cast<unsigned char>(*end))) ++end;
    if (res[0] == '\0' || *end != '\0') {
        std::string out = res;
        abortInCommand(c, name, std::string("execution of meta-command failed: ") + name +
                                    ": shell command must return an integer (not \"" + out + "\")");
        return false;
    }
    if (!cmd.setNameValid && !c.vars.defined(cmd.setVar)) {
        abortInCommand(c, name, "execution of meta-command failed: setshell: invalid variable name: \"" + cmd.setName + "\"");
        return false;
    }
    c.vars.setValue(cmd.setVar, ScriptValue::integer(static_cast<int>(v)));  // pgbench keeps an int
    return true;
}

} // namespace scalelab
