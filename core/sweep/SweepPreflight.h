#pragma once
// What is checked before a sweep writes anything or starts a run, for the command line and the
// window alike (SweepRunner::run calls it; `scalelab sweep` also before creating its file):
// every server setting the plan names exists in the PostgreSQL build that will get it (a
// misspelt one would otherwise fail its series only when that series starts, perhaps hours
// in), a server of the user's has connections free for the largest client count, and a series
// that changes the machine (real_smt, offline_cpus) can do so here (root, hotplug, SMT control).
#include "sweep/SweepPlan.h"

#include <map>
#include <set>
#include <string>

namespace scalelab {

// Throws Error naming the JSON path of the setting, or the connection numbers.
void preflightSweep(const SweepPlan& plan);

// The setting names of an embedded server's plan against its builds' own lists (the window
// checks them as the form changes, issue 61.2); `namesByBuild` keeps each build's list, keyed by
// its pg_bindir ("" for the default), for the next call. Throws Error as preflightSweep does,
// also when a build's programs cannot be found.
void checkEmbeddedSettingNames(const SweepPlan& plan, std::map<std::string, std::set<std::string>>& namesByBuild);

} // namespace scalelab
