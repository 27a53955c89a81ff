#include "server/AlterSystem.h"

#include "util/Format.h"
#include "util/Error.h"

#include <pqxx/pqxx>

#include <chrono>
#include <optional>
#include <sstream>
#include <thread>

using namespace std::chrono_literals;

namespace scalelab {
namespace {

std::string quoteSettingName(pqxx::transaction_base& tx, const std::string& name) {
    std::string out;
    std::stringstream parts(name);
    for (std::string part; std::getline(parts, part, '.');) out += (out.empty() ? "" : ".") + tx.quote_name(part);
    return out;
}

// pg_reload_conf() only signals the postmaster. Wait until a new session sees the new
// configuration, so that whoever connects next measures with it.
void waitForReload(const std::string& conninfo, const std::string& loadedBefore) {
    auto deadline = std::chrono::steady_clock::now() + 10s;
    for (;;) {
        pqxx::connection probe(conninfo);
        pqxx::nontransaction ptx(probe);
        if (ptx.exec("SELECT pg_conf_load_time() > " + ptx.quote(loadedBefore) + "::timestamptz")[0][0].as<bool>())
            break;
        if (std::chrono::steady_clock::now() > deadline)
            throw Error("the server did not reload its configuration within 10 s; see its log");
        std::this_thread::sleep_for(20ms);
    }
}

} // namespace

AppliedSettings alterSystem(const std::string& conninfo, const std::vector<Setting>& settings, bool restartPossible,
                            const std::string& serverName) {
    AppliedSettings applied;
    if (settings.empty()) return applied;
    pqxx::connection c(conninfo);
    pqxx::nontransaction tx(c);

    // Check every name before changing anything: an unknown name changes nothing.
    std::vector<SettingEffect> effects;
    for (const auto& s : settings) {
        auto r = tx.exec("SELECT context FROM pg_settings WHERE name = " + tx.quote(s.name));
        if (r.empty()) {
            if (s.name.find('.') == std::string::npos)
                throw Error("unknown server setting '" + s.name + "': " + serverName + " has no such parameter");
            effects.push_back(SettingEffect::Reload);  // an extension's placeholder ("auto_explain.x")
            continue;
        }
        effects.push_back(effectOfContext(r[0][0].c_str()));
        if (effects.back() == SettingEffect::Fixed)
            throw Error("server setting '" + s.name + "' is fixed when PostgreSQL is built and cannot be changed");
        if (effects.back() == SettingEffect::Restart && !restartPossible)
            throw Error("server setting '" + s.name + "' takes effect only when the server restarts, which ScaleLab "
                        "can do for its embedded server only; set it on your server yourself");
    }

    // What postgresql.auto.conf held, to put back if the server rejects a value half-way.
    std::vector<std::optional<std::string>> previous;
    for (const auto& s : settings) {
        auto r = tx.exec("SELECT setting FROM pg_file_settings WHERE sourcefile LIKE '%/postgresql.auto.conf' AND name = " +
                         tx.quote(s.name) + " ORDER BY seqno DESC LIMIT 1");
        previous.push_back(r.empty() ? std::nullopt : std::optional<std::string>(r[0][0].c_str()));
    }
    std::string loadedBefore = tx.exec("SELECT pg_conf_load_time()")[0][0].c_str();

    for (size_t i = 0; i < settings.size(); ++i) {
        const auto& s = settings[i];
        try {
            tx.exec("ALTER SYSTEM SET " + quoteSettingName(tx, s.name) + " TO " + tx.quote(s.value));
        } catch (const pqxx::sql_error& e) {
            for (size_t j = 0; j < i; ++j) {
                const auto& undo = settings[j];
                tx.exec("ALTER SYSTEM " + (previous[j] ? "SET " + quoteSettingName(tx, undo.name) + " TO " + tx.quote(*previous[j])
                                                       : "RESET " + quoteSettingName(tx, undo.name)));
            }
            throw Error("server setting " + s.name + "=" + s.value + " rejected: " + firstLineOf(e.what()));
        }
        (effects[i] == SettingEffect::Restart ? applied.restartedFor : applied.reloaded).push_back(s.name);
    }
    tx.exec("SELECT pg_reload_conf()");
    c.disconnect();
    if (applied.restarted()) return applied;  // the caller restarts
    waitForReload(conninfo, loadedBefore);
    return applied;
}

AppliedSettings resetSettings(const std::string& conninfo, const std::vector<std::string>& names, bool restartPossible) {
    AppliedSettings applied;
    if (names.empty()) return applied;
    pqxx::connection c(conninfo);
    pqxx::nontransaction tx(c);
    std::string loadedBefore = tx.exec("SELECT pg_conf_load_time()")[0][0].c_str();
    for (const auto& name : names) {
        auto r = tx.exec("SELECT context FROM pg_settings WHERE name = " + tx.quote(name));
        bool restart = !r.empty() && effectOfContext(r[0][0].c_str()) == SettingEffect::Restart;
        if (restart && !restartPossible)
            throw Error("resetting server setting '" + name + "' needs a restart, which ScaleLab can do for its embedded server only");
        tx.exec("ALTER SYSTEM RESET " + quoteSettingName(tx, name));
        (restart ? applied.restartedFor : applied.reloaded).push_back(name);
    }
    tx.exec("SELECT pg_reload_conf()");
    c.disconnect();
    if (!applied.restarted()) waitForReload(conninfo, loadedBefore);
    return applied;
}

std::vector<Setting> alteredSettings(const std::string& conninfo) {
    pqxx::connection c(conninfo);
    pqxx::nontransaction tx(c);
    std::vector<Setting> out;
    for (const auto& row : tx.exec("SELECT name, setting FROM pg_file_settings "
                                   "WHERE sourcefile LIKE '%/postgresql.auto.conf' ORDER BY seqno"))
        out.push_back({row[0].c_str(), row[1].c_str()});
    return out;
}


std::set<std::string> settingNames(const std::string& conninfo) {
    try {
        pqxx::connection c(conninfo);
        pqxx::nontransaction tx(c);
        std::set<std::string> names;
        for (const auto& row : tx.exec("SELECT name FROM pg_settings")) names.insert(row[0].c_str());
        return names;
    } catch (const pqxx::failure& e) {
        throw Error("cannot read the server's settings: " + firstLineOf(e.what()));
    }
}

} // namespace scalelab
