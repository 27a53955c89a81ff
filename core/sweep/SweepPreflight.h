#pragma once
// What is checked before a sweep writes anything or starts a run, for the command line and the
// window alike (SweepRunner::run calls it; `scalelab sweep` also before creating its file):
// every server setting the plan names exists in the PostgreSQL build that will get it (a
// misspelt one would otherwise fail its series only when that series starts, perhaps hours
// in), a server of the user's has connections free for the largest client count, and a series
// that changes the machine (real_smt, offline_cpus) can do so here (root, hotplug, SMT control).
#include "sweep/SweepPlan.h"

namespace scalelab {

// Throws Error naming the JSON path of the setting, or the connection numbers.
void preflightSweep(const SweepPlan& plan);

} // namespace scalelab
