#pragma once
// One throwaway embedded server for a whole test binary (the binary runs as one ctest
// entry): initdb and start once, then every test connects to it.
#include "ServerRequirement.h"
#include "ThrowawayServer.h"

#include "server/EmbeddedServer.h"
#include "util/TempDir.h"

#include <gtest/gtest.h>
#include <pqxx/pqxx>

#include <cctype>
#include <memory>
#include <string>

namespace scalelab::test {

class SharedServer {
public:
    // Starts the server on first use with `settings` applied; later calls return it.
    static EmbeddedServer& get(const std::vector<Setting>& settings = {}) {
        static SharedServer instance(settings);
        return *instance.server_;
    }

private:
    explicit SharedServer(const std::vector<Setting>& settings) : dir_("scalelab-dbtest") {
        server_ = std::make_unique<EmbeddedServer>(throwawayOptions(dir_.path()));
        server_->start();
        server_->applySettings(settings);
    }
    TempDir dir_;
    std::unique_ptr<EmbeddedServer> server_;  // destroyed (stopped) before dir_ is removed
};

// Drops database `name` on `server`, its sessions too, when it exists.
inline void dropDatabase(EmbeddedServer& server, const std::string& name) {
    pqxx::connection c(server.connectionString("postgres"));
    pqxx::nontransaction tx(c);
    tx.exec("DROP DATABASE IF EXISTS " + tx.quote_name(name) + " WITH (FORCE)");
}

// A new database `name` on `server` (dropped first if a crashed run left it), empty or a copy
// of `copyOf`, which nobody may be connected to. Returns its conninfo.
inline std::string freshDatabase(EmbeddedServer& server, const std::string& name, const std::string& copyOf = {}) {
    dropDatabase(server, name);
    pqxx::connection c(server.connectionString("postgres"));
    pqxx::nontransaction tx(c);
    tx.exec("CREATE DATABASE " + tx.quote_name(name) + (copyOf.empty() ? "" : " TEMPLATE " + tx.quote_name(copyOf)));
    return server.connectionString(name);
}

// The running test's own database, a copy of a template the suite made once: what one test
// changes no other test sees, in any order (--gtest_shuffle). Dropped at the end of the test.
class TestDatabase {
public:
    TestDatabase(EmbeddedServer& server, const std::string& copyOf) : server_(server) {
        static int made = 0;
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        name_ = "t" + std::to_string(++made) + "_";
        for (char ch : std::string(info ? info->name() : "test"))
            if (name_.size() < 48) name_ += std::isalnum(static_cast<unsigned char>(ch)) ? static_cast<char>(std::tolower(ch)) : '_';
        conninfo_ = freshDatabase(server, name_, copyOf);
    }
    ~TestDatabase() {
        try {
            dropDatabase(server_, name_);
        } catch (const std::exception&) {
            // The server went away (a test that stops it): its data directory goes with it.
        }
    }
    TestDatabase(const TestDatabase&) = delete;
    TestDatabase& operator=(const TestDatabase&) = delete;
    const std::string& conninfo() const { return conninfo_; }

private:
    EmbeddedServer& server_;
    std::string name_, conninfo_;
};

} // namespace scalelab::test
