#include "server/ServerSettings.h"
#include "server/ServerUser.h"

#include <gtest/gtest.h>

using namespace scalelab;

namespace {
std::string settingsError(const std::string& text) {
    try {
        parseSetting(text);
    } catch (const std::exception& e) {
        return e.what();
    }
    return "(parsed)";
}
} // namespace

TEST(ServerSettings, ParsesNameEqualsValue) {
    EXPECT_EQ(parseSetting("shared_buffers=1GB"), (Setting{"shared_buffers", "1GB"}));
    EXPECT_EQ(parseSetting("Work_Mem = 64MB"), (Setting{"work_mem", " 64MB"}));
    EXPECT_EQ(parseSetting("search_path=a,b"), (Setting{"search_path", "a,b"}));
    EXPECT_EQ(parseSetting("auto_explain.log_min_duration=0"), (Setting{"auto_explain.log_min_duration", "0"}));
    EXPECT_EQ(parseSetting("fsync="), (Setting{"fsync", ""}));
}

TEST(ServerSettings, RejectsTextThatIsNotASetting) {
    EXPECT_EQ(settingsError("fsync"), "server setting 'fsync' has no '=': write it as name=value, e.g. shared_buffers=1GB");
    EXPECT_EQ(settingsError("=off"), "server setting '=off' has no name before '='");
    EXPECT_EQ(settingsError("a;drop=1"), "server setting name 'a;drop' may hold only letters, digits, '_' and '.'");
}

TEST(ServerSettings, PostmasterContextNeedsARestartInternalCannotChange) {
    EXPECT_EQ(effectOfContext("postmaster"), SettingEffect::Restart);
    EXPECT_EQ(effectOfContext("internal"), SettingEffect::Fixed);
    for (const char* ctx : {"sighup", "superuser-backend", "backend", "superuser", "user"})
        EXPECT_EQ(effectOfContext(ctx), SettingEffect::Reload) << ctx;
    EXPECT_THROW(effectOfContext("bogus"), std::exception);
}

TEST(ServerUser, NotRootRunsTheServerAsItself) { EXPECT_FALSE(serverUserFor(false, "postgres")); }

TEST(ServerUser, RootWithoutTheAccountFailsClearly) {
    try {
        serverUserFor(true, "scalelab-no-such-user");
        FAIL() << "expected an error";
    } catch (const std::exception& e) {
        EXPECT_EQ(std::string(e.what()),
                  "ScaleLab runs as root, and PostgreSQL refuses to run as root, but there is no "
                  "'scalelab-no-such-user' system user to run it as. Install the server package "
                  "(apt-get install postgresql-15 creates that user) or run ScaleLab as a normal user.");
    }
}

TEST(ServerUser, LooksUpAnAccount) {
    auto root = lookupUser("root");
    ASSERT_TRUE(root);
    EXPECT_EQ(root->uid, 0u);
    EXPECT_FALSE(lookupUser("scalelab-no-such-user"));
}
