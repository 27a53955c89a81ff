// JSON from outside (agents, load hosts, plans, experiment files and stores) is refused past
// kMaxJsonDepth levels before it is parsed (issue 60.4: 200,000 levels overflowed the stack).
#include "store/ExperimentStore.h"
#include "sweep/SweepPlan.h"
#include "util/Error.h"
#include "util/JsonParse.h"
#include "util/TempDir.h"

#include "ErrorOf.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <chrono>
#include <fstream>

using namespace scalelab;

namespace {
std::string nested(int depth, const std::string& inner = "1") {
    return std::string(depth, '[') + inner + std::string(depth, ']');
}
} // namespace

TEST(JsonParse, DepthCountsBracketsOutsideStrings) {
    EXPECT_EQ(jsonDepth("1"), 0);
    EXPECT_EQ(jsonDepth(R"({"a": [1, {"b": []}], "c": {}})"), 4);
    EXPECT_EQ(jsonDepth(R"(["[[[[", "\"[[[", "\\"])"), 1) << "brackets in strings, escaped quotes and backslashes";
    EXPECT_EQ(jsonDepth(nested(100)), 100);
    EXPECT_EQ(jsonDepth(nested(200000), 5), 6) << "stops counting once past the limit";
}

TEST(JsonParse, RefusesPastTheLimitInLinearTime) {
    EXPECT_EQ(parseJson(nested(kMaxJsonDepth)).dump().size(), nested(kMaxJsonDepth).size());
    EXPECT_EQ(test::errorOf([] { parseJson(nested(kMaxJsonDepth + 1)); }),
              "JSON nested deeper than 100 levels (ScaleLab's limit; nothing it writes comes near it)");
    EXPECT_EQ(test::errorOf([] { parseJson(nested(200000), false); }),
              "JSON nested deeper than 100 levels (ScaleLab's limit; nothing it writes comes near it)");
    EXPECT_TRUE(parseJsonOrDiscarded(nested(200000)).is_discarded());
    EXPECT_TRUE(parseJsonOrDiscarded("{").is_discarded());
    EXPECT_THROW(parseJson("{"), nlohmann::json::parse_error);
}

TEST(JsonParse, APlanFileNestedTooDeepIsRefusedWithItsName) {
    TempDir dir("scalelab-deep-plan");
    std::string path = (dir.path() / "deep.json").string();
    std::ofstream(path) << R"({"version": 1, "series": [{"label": "A"}], "clients": [1], "x": )" << nested(200000) << "}";
    EXPECT_EQ(test::errorOf([&] { loadPlanFile(path); }),
              path + ": JSON nested deeper than 100 levels (ScaleLab's limit; nothing it writes comes near it)");
}

// An experiment file whose plan, provenance or a run's detail was replaced by deep JSON: said
// to be damaged, with the file and what; every command that reads it (export, report, the
// window) reads through these.
TEST(JsonParse, AnExperimentFileWithDeepJsonIsDamagedNotACrash) {
    TempDir dir("scalelab-deep-slab");
    std::string path = (dir.path() / "deep.slab").string();
    {
        auto store = ExperimentStore::create(path);
        store->savePlan(nlohmann::json{{"version", 1}}, 1);
    }
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    std::string update = "UPDATE plan SET json = '" + nested(200000) + "'";
    ASSERT_EQ(sqlite3_exec(db, update.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
    EXPECT_EQ(test::errorOf([&] { ExperimentStore::open(path, true)->plan(); }),
              path + " is damaged: the plan is JSON nested deeper than 100 levels (ScaleLab's limit; nothing it writes "
                     "comes near it)");
}
