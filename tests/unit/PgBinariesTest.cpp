#include "server/EmbeddedServer.h"
#include "server/PgBinaries.h"
#include "util/TempDir.h"

#include <gtest/gtest.h>

#include <fstream>

namespace fs = std::filesystem;
using namespace scalelab;

namespace {

// A directory of stand-in programs: `postgres --version` prints the given version.
void fakeBindir(const fs::path& dir, const std::string& version, bool withInitdb = true) {
    fs::create_directories(dir);
    for (std::string prog : {"initdb", "pg_ctl", "postgres"}) {
        if (prog == "initdb" && !withInitdb) continue;
        std::ofstream(dir / prog) << "#!/bin/sh\necho 'postgres (PostgreSQL) " << version << "'\n";
        fs::permissions(dir / prog, fs::perms::owner_all);
    }
}

std::string failureMessage(const PgSearch& search) {
    try {
        findPgBinaries(search);
    } catch (const std::exception& e) {
        return e.what();
    }
    return "(found)";
}

} // namespace

TEST(PgBinaries, ParsesTheVersionLineOfPostgres) {
    EXPECT_EQ(parsePostgresVersion("postgres (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)\n"), "15.18");
    EXPECT_EQ(parsePostgresVersion("postgres (PostgreSQL) 17devel"), "17");
    EXPECT_EQ(parsePostgresVersion("bash: postgres: not found"), "");
    EXPECT_EQ(majorOf("15.18"), 15);
    EXPECT_EQ(majorOf("9.6.24"), 9);
}

TEST(PgBinaries, FailureSaysWhereItLookedAndWhatToInstall) {
    TempDir tmp("scalelab-bin");
    fakeBindir(tmp.path() / "versions/14/bin", "14.1", /*withInitdb=*/false);
    fs::create_directories(tmp.path() / "emptypath");
    PgSearch search;
    search.pgConfig = "pg_config";
    search.versionedRoot = tmp.path() / "versions";
    search.path = (tmp.path() / "emptypath").string();

    EXPECT_EQ(failureMessage(search),
              "no PostgreSQL server programs found (ScaleLab needs initdb, pg_ctl and postgres). Looked at:\n"
              "  - pg_config: not found in PATH\n"
              "  - " + (tmp.path() / "versions/14/bin").string() + ": no initdb there\n"
              "  - PATH (" + (tmp.path() / "emptypath").string() + "): no directory with initdb, pg_ctl and postgres\n"
              "Install the server: sudo apt-get install postgresql-15 (Debian 12), "
              "or point ScaleLab at a build with --pg-bindir DIR or SCALELAB_PG_BINDIR.");
}

TEST(PgBinaries, AnExplicitDirectoryIsTheOnlyPlaceLookedAt) {
    TempDir tmp("scalelab-bin");
    fakeBindir(tmp.path() / "path", "16.2");
    PgSearch search;
    search.explicitBindir = tmp.path() / "nowhere";
    search.path = (tmp.path() / "path").string();
    EXPECT_EQ(failureMessage(search), "the PostgreSQL bindir you gave, " + (tmp.path() / "nowhere").string() +
                                          ", cannot be used: no initdb, pg_ctl, postgres there");
}

TEST(PgBinaries, PrefersTheNewestVersionedDirectoryOverPath) {
    TempDir tmp("scalelab-bin");
    fakeBindir(tmp.path() / "versions/13/bin", "13.9");
    fakeBindir(tmp.path() / "versions/16/bin", "16.2");
    fakeBindir(tmp.path() / "path", "12.1");
    PgSearch search;
    search.versionedRoot = tmp.path() / "versions";
    search.path = (tmp.path() / "path").string();
    PgBinaries bin = findPgBinaries(search);
    EXPECT_EQ(bin.bindir, tmp.path() / "versions/16/bin");
    EXPECT_EQ(bin.version, "16.2");
    EXPECT_EQ(bin.major, 16);
    EXPECT_EQ(bin.foundBy, "newest under " + (tmp.path() / "versions").string());
}

TEST(PgBinaries, UsesTheBindirThatPgConfigReports) {
    TempDir tmp("scalelab-bin");
    fakeBindir(tmp.path() / "server", "14.7");
    fs::create_directories(tmp.path() / "tools");
    std::ofstream(tmp.path() / "tools/pg_config") << "#!/bin/sh\necho " << (tmp.path() / "server").string() << "\n";
    fs::permissions(tmp.path() / "tools/pg_config", fs::perms::owner_all);
    fakeBindir(tmp.path() / "versions/16/bin", "16.2");
    PgSearch search;
    search.versionedRoot = tmp.path() / "versions";
    search.path = (tmp.path() / "tools").string();
    PgBinaries bin = findPgBinaries(search);
    EXPECT_EQ(bin.bindir, tmp.path() / "server");
    EXPECT_EQ(bin.describe(), "PostgreSQL 14.7 from " + (tmp.path() / "server").string() + " (pg_config --bindir)");
}
