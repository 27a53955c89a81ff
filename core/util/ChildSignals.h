#pragma once
// Every child process starts with an empty signal mask and every signal at its default action.
// Why: a child inherits the mask of the thread that starts it, and a run or sweep blocks
// SIGINT, SIGTERM and SIGUSR1 in all its threads (app/Interrupts.h waits for them in one); an
// ssh wrapper or a \shell command started from there could not be interrupted or terminated
// (issue 31.8). Ignored signals (SIGPIPE) also survive exec; they are reset too.
#include <spawn.h>

namespace scalelab {

// For posix_spawn: sets POSIX_SPAWN_SETSIGMASK (empty) and POSIX_SPAWN_SETSIGDEF (all signals)
// on `attr`, keeping the flags already set.
void spawnWithDefaultSignals(posix_spawnattr_t& attr);

// For a forked child before exec: async-signal-safe (sigaction, sigprocmask only).
void resetSignalsInChild();

} // namespace scalelab
