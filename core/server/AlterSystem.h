#pragma once
// Server settings changed the way that persists: ALTER SYSTEM (postgresql.auto.conf) and a
// reload. A setting that only a restart can apply is reported; restarting is the caller's
// (the embedded server's) business.
#include "server/ServerSettings.h"

#include <set>
#include <string>
#include <vector>

namespace scalelab {

// Checks every name first (an unknown or fixed one changes nothing); writes each value; if the
// server rejects one, puts back what the earlier ones had and throws Error in the server's
// words. Then reloads and, when no restart is needed, waits until new sessions see the values.
// restartPossible = false refuses, before changing anything, settings that need a restart.
AppliedSettings alterSystem(const std::string& conninfo, const std::vector<Setting>& settings, bool restartPossible,
                            const std::string& serverName);
// ALTER SYSTEM RESET for each name, then as above.
AppliedSettings resetSettings(const std::string& conninfo, const std::vector<std::string>& names, bool restartPossible);
// What postgresql.auto.conf holds, as the server reads it.
std::vector<Setting> alteredSettings(const std::string& conninfo);
// The names of every setting the server has (pg_settings). Throws Error in the server's words.
std::set<std::string> settingNames(const std::string& conninfo);

} // namespace scalelab
