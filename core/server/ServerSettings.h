#pragma once
// Server settings (GUCs) as the user gives them ("shared_buffers=1GB"), and what it
// takes for a change to act: a reload, a restart, or nothing can change it.
#include <string>
#include <vector>

namespace scalelab {

struct Setting {
    std::string name;
    std::string value;
    bool operator==(const Setting& o) const { return name == o.name && value == o.value; }
};

// "name=value" -> Setting. The name is lower-cased (GUC names are case-insensitive).
// Throws Error with the offending text when there is no '=' or no name.
Setting parseSetting(const std::string& text);

enum class SettingEffect {
    Reload,   // takes effect on pg_reload_conf() (for some, only in new sessions)
    Restart,  // context 'postmaster': only read when the server starts
    Fixed,    // context 'internal': chosen when PostgreSQL was built
};

// From pg_settings.context. Throws Error for a context this code does not know.
SettingEffect effectOfContext(const std::string& context);

struct AppliedSettings {
    std::vector<std::string> reloaded;     // names that acted through a reload
    std::vector<std::string> restartedFor; // names that needed the restart that was done
    bool restarted() const { return !restartedFor.empty(); }
};

} // namespace scalelab
