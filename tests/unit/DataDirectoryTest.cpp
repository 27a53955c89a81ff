#include "server/DataDirectory.h"
#include "server/EmbeddedServer.h"
#include "util/TempDir.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>

namespace fs = std::filesystem;
using namespace scalelab;
using Kind = DataDirState::Kind;

namespace {
std::string usabilityError(const fs::path& dir, int binariesMajor) {
    try {
        checkDataDirUsable(dir, inspectDataDir(dir), binariesMajor);
    } catch (const std::exception& e) {
        return e.what();
    }
    return "(usable)";
}
} // namespace

TEST(DataDirectory, TellsMissingEmptyClusterAndForeignDirectoriesApart) {
    TempDir tmp("scalelab-dd");
    EXPECT_EQ(inspectDataDir(tmp.path() / "missing").kind, Kind::Missing);
    EXPECT_EQ(inspectDataDir(tmp.path()).kind, Kind::Empty);
    fs::create_directories(tmp.path() / "cluster");
    std::ofstream(tmp.path() / "cluster/PG_VERSION") << "14\n";
    EXPECT_EQ(inspectDataDir(tmp.path() / "cluster").kind, Kind::Cluster);
    EXPECT_EQ(inspectDataDir(tmp.path() / "cluster").major, 14);
    EXPECT_EQ(inspectDataDir(tmp.path()).kind, Kind::NotACluster);
}

TEST(DataDirectory, RefusesAForeignDirectoryAndAnotherMajorVersion) {
    TempDir tmp("scalelab-dd");
    std::ofstream(tmp.path() / "notes.txt") << "my files\n";
    EXPECT_EQ(usabilityError(tmp.path(), 15),
              tmp.path().string() + " is not empty and is not a PostgreSQL data directory (it has no PG_VERSION). "
              "ScaleLab will not initialize a cluster over existing files: choose an empty or new directory.");
    fs::create_directories(tmp.path() / "old");
    std::ofstream(tmp.path() / "old/PG_VERSION") << "13\n";
    EXPECT_EQ(usabilityError(tmp.path() / "old", 15),
              (tmp.path() / "old").string() + " holds a PostgreSQL 13 cluster, but the server programs found are "
              "PostgreSQL 15. Use matching programs (--pg-bindir /usr/lib/postgresql/13/bin) or another data directory.");
    EXPECT_EQ(usabilityError(tmp.path() / "old", 13), "(usable)");
    EXPECT_EQ(usabilityError(tmp.path() / "new", 15), "(usable)");
}

TEST(DataDirectory, ParsesPostmasterPid) {
    auto pm = parsePostmasterPid("4325\n/tmp/x\n1764486719\n34231\n/tmp/scalelab-0-ff28930c\n\n  5432001    32768\nready   \n");
    ASSERT_TRUE(pm);
    EXPECT_EQ(pm->pid, 4325);
    EXPECT_EQ(pm->dataDir, "/tmp/x");
    EXPECT_EQ(pm->port, 34231);
    EXPECT_EQ(pm->socketDir, "/tmp/scalelab-0-ff28930c");
    EXPECT_EQ(pm->listenAddress, "");
    EXPECT_EQ(pm->status, "ready");
    EXPECT_FALSE(parsePostmasterPid("4325\n/tmp/x\n"));
    EXPECT_FALSE(parsePostmasterPid("abc\n/tmp/x\n1\n2\n"));
}

TEST(DataDirectory, ThisProcessIsAliveButNotAPostgres) {
    EXPECT_TRUE(processAlive(getpid()));
    EXPECT_FALSE(isLivePostgres(getpid()));
    EXPECT_FALSE(processAlive(0));
}
