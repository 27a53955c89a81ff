// Placement scenarios on synthetic machines we do not have. Each expectation is the PU
// sets written out by hand from the topology's numbering.
#include "topo/Placement.h"
#include "topo/Topology.h"
#include "util/Error.h"

#include <gtest/gtest.h>

using namespace scalelab;

namespace {

// "server S | client C" for one scenario, or the error.
std::string sets(const Topology& t, const std::string& scenario, bool separate = false) {
    try {
        Placement p = place(t.info(), parsePlacement(scenario, separate));
        return "server " + p.server.toList() + " | client " + p.client.toList();
    } catch (const std::exception& e) {
        return std::string("error: ") + e.what();
    }
}

// `text` with the topology's name in it replaced by "MACHINE": two machines' refusals compared.
std::string anonymous(const Topology& t, std::string text) {
    for (size_t at; (at = text.find(t.info().source)) != std::string::npos;) text.replace(at, t.info().source.size(), "MACHINE");
    return text;
}

// 2 packages x 4 cores x 2 PUs numbered as Linux does: PU n and n+8 are siblings.
const char* kLinuxNumbered = "pack:2 core:4 pu:2(indexes=0,8,1,9,2,10,3,11,4,12,5,13,6,14,7,15)";

} // namespace

TEST(Placement, OneSocketSixCoresTwoWaySmtLikeE5_2620) {
    Topology t = Topology::synthetic("pack:1 core:6 pu:2");
    EXPECT_EQ(t.info().summary(), "1 package, 6 cores, 12 PUs (2-way SMT)");
    EXPECT_EQ(sets(t, "smt-on"), "server 0-11 | client 0-11");
    EXPECT_EQ(sets(t, "smt-off"), "server 0,2,4,6,8,10 | client 0,2,4,6,8,10");
    EXPECT_EQ(sets(t, "cores:2"), "server 0,2 | client 0,2");
    EXPECT_EQ(sets(t, "cores:2+smt"), "server 0-3 | client 0-3");
    EXPECT_EQ(sets(t, "cores:3", true), "server 0,2,4 | client 6-11");
    EXPECT_EQ(sets(t, "smt-off", true),
              "error: placement smt-off separate: the server's cores (PUs 0-11) are all of synthetic: pack:1 core:6 pu:2's, "
              "so no PU is left for a separate load generator; give the server fewer cores (cores:N) or drop 'separate'");
    EXPECT_EQ(smtComparisonWarning(t.info()), "");
}

TEST(Placement, TwoSocketsFourCoresTwoWaySmtLikeE5620) {
    Topology t = Topology::synthetic("pack:2 core:4 pu:2");
    EXPECT_EQ(t.info().summary(), "2 packages, 8 cores, 16 PUs (2-way SMT)");
    EXPECT_EQ(sets(t, "smt-off"), "server 0,2,4,6,8,10,12,14 | client 0,2,4,6,8,10,12,14");
    EXPECT_EQ(sets(t, "cores:5"), "server 0,2,4,6,8 | client 0,2,4,6,8");  // the fifth core is package 1's first
    EXPECT_EQ(sets(t, "cores:4+smt", true), "server 0-7 | client 8-15");
    EXPECT_EQ(sets(t, "cores:9"), "error: placement cores:9 asks for 9 cores; synthetic: pack:2 core:4 pu:2 has 8");
    EXPECT_EQ(sets(t, "pus:0-3/12-15"), "server 0-3 | client 12-15");
    EXPECT_EQ(sets(t, "pus:1", true), "server 1 | client 2-15");  // PU 1's sibling 0 stays free of the client too
    EXPECT_EQ(sets(t, "pus:14-17"),
              "error: placement pus:14-17: PUs 16-17 are not on synthetic: pack:2 core:4 pu:2 (its PUs: 0-15)");
}

TEST(Placement, EightSocketsEightCoresTwoWaySmtLikeE7_8830) {
    Topology t = Topology::synthetic("pack:8 core:8 pu:2");
    EXPECT_EQ(t.info().summary(), "8 packages, 64 cores, 128 PUs (2-way SMT)");
    Placement off = place(t.info(), parsePlacement("smt-off"));
    EXPECT_EQ(off.server.count(), 64);
    for (int pu = 0; pu < 128; ++pu) EXPECT_EQ(off.server.contains(pu), pu % 2 == 0) << pu;
    EXPECT_EQ(sets(t, "cores:8+smt", true), "server 0-15 | client 16-127");
    EXPECT_EQ(sets(t, "cores:64+smt"), "server 0-127 | client 0-127");
}

TEST(Placement, TwoCoresWithoutSmtSaySmtOnAndOffAreTheSame) {
    Topology t = Topology::synthetic("pack:1 core:2 pu:1");
    EXPECT_EQ(t.info().summary(), "1 package, 2 cores, 2 PUs (no SMT)");
    EXPECT_EQ(sets(t, "smt-on"), sets(t, "smt-off"));
    EXPECT_EQ(sets(t, "cores:1", true), "server 0 | client 1");
    EXPECT_EQ(smtComparisonWarning(t.info()),
              "synthetic: pack:1 core:2 pu:1 has no SMT (2 cores, 2 PUs): SMT on and SMT off would run on the same PUs "
              "and measure the same thing. Compare core counts instead, e.g. cores:2 against cores:1.");
}

// With SMT switched off in the kernel, hwloc sees one PU per core: the machine still has SMT,
// and says so, from the kernel's control (what the live topology carries; set by hand here).
TEST(Placement, SmtSwitchedOffInTheKernelIsPresentNotAbsent) {
    Topology t = Topology::synthetic("pack:1 core:2 pu:1");
    TopologyInfo info = t.info();
    info.smtControl = "off";
    info.presentPus = 4;
    EXPECT_TRUE(info.smtPresent());
    EXPECT_FALSE(info.smtAvailable());
    EXPECT_EQ(info.summary(), "1 package, 2 cores, 2 PUs online of 4 (SMT present, switched off in the kernel)");
    EXPECT_EQ(smtComparisonWarning(info, true), "");  // the real switch turns it on for smt-on
    EXPECT_EQ(smtComparisonWarning(info).rfind("SMT is switched off in the kernel here (smt/control: off): emulated "
                                               "smt-on and smt-off would run on the same PUs",
                                               0),
              0u);
    info.smtControl = "forceoff";
    EXPECT_EQ(info.summary(), "1 package, 2 cores, 2 PUs online of 4 (SMT present, forced off in the kernel)");
    EXPECT_NE(smtComparisonWarning(info, true).find("only a boot without it brings SMT back"), std::string::npos);
    info.smtControl = "notsupported";
    info.presentPus = 2;
    EXPECT_FALSE(info.smtPresent());
    EXPECT_EQ(info.summary(), "1 package, 2 cores, 2 PUs (no SMT)");
}

// What hwloc really reports for an SMT machine (the vm tests' guest, 2 cores x 2 threads,
// saved with `scalelab topology --save-xml` there): the synthetic description that the
// placement tests use for such a machine must place exactly as it does.
TEST(Placement, TheSyntheticSmtMachinePlacesAsARealOneDoes) {
    Topology real = Topology::fromXml(SCALELAB_TEST_DATA "/topology-qemu-2c2t.xml");
    Topology synthetic = Topology::synthetic("pack:1 core:2 pu:2");
    EXPECT_EQ(real.info().summary(), "1 package, 2 cores, 4 PUs (2-way SMT)");
    ASSERT_EQ(real.info().cores.size(), 2u);
    EXPECT_EQ(real.info().cores[0].pus, (std::vector<int>{0, 1}));
    EXPECT_EQ(real.info().cores[1].pus, (std::vector<int>{2, 3}));
    for (const char* scenario : {"smt-on", "smt-off", "cores:1", "cores:1+smt", "cores:2", "cores:2+smt", "pus:0,2/1,3"})
        for (bool separate : {false, true})
            EXPECT_EQ(anonymous(real, sets(real, scenario, separate)),
                      anonymous(synthetic, sets(synthetic, scenario, separate)))
                << scenario << (separate ? " separate" : "");
    EXPECT_EQ(sets(real, "smt-off"), "server 0,2 | client 0,2");
    EXPECT_EQ(sets(real, "cores:1+smt", true), "server 0-1 | client 2-3");
    EXPECT_EQ(smtComparisonWarning(real.info()), "");
}

TEST(Placement, LinuxStyleNumberingKeepsSiblingsNAndNPlusCoresTogether) {
    Topology t = Topology::synthetic(kLinuxNumbered);
    EXPECT_EQ(t.info().cores[1].pus, (std::vector<int>{1, 9}));
    EXPECT_EQ(sets(t, "smt-off"), "server 0-7 | client 0-7");
    EXPECT_EQ(sets(t, "cores:2+smt"), "server 0-1,8-9 | client 0-1,8-9");
    EXPECT_EQ(sets(t, "cores:2", true), "server 0-1 | client 2-7,10-15");
    EXPECT_EQ(t.info().withSiblings(CpuSet{3}).toList(), "3,11");
}

TEST(Placement, UnknownFormsAreNamed) {
    EXPECT_THROW(parsePlacement("smt"), Error);
    try {
        parsePlacement("half");
    } catch (const Error& e) {
        EXPECT_STREQ(e.what(), "unknown placement 'half': expected smt-on, smt-off, cores:N, cores:N+smt, or pus:LIST[/LIST] (e.g. pus:0-3/4-7)");
    }
    EXPECT_THROW(parsePlacement("cores:0"), Error);
    EXPECT_THROW(parsePlacement("cores:two"), Error);
    EXPECT_THROW(parsePlacement("pus:/1"), Error);
}

TEST(Topology, SyntheticTopologiesNeverBindRealThreads) {
    Topology t = Topology::synthetic("pack:1 core:2 pu:2");
    try {
        t.bindThisThread(CpuSet{0});
        FAIL();
    } catch (const Error& e) {
        EXPECT_STREQ(e.what(), "cannot bind a thread with a topology of synthetic: pack:1 core:2 pu:2: only with this machine's");
    }
    EXPECT_THROW(Topology::synthetic("pack:two"), Error);
}

TEST(CpuSet, ReadsAndWritesListSyntax) {
    EXPECT_EQ(CpuSet::parse("0-5,12-17").toList(), "0-5,12-17");
    EXPECT_EQ(CpuSet::parse(" 3, 1,2 ").toList(), "1-3");
    EXPECT_EQ(CpuSet::parse("").toList(), "");
    EXPECT_EQ(CpuSet::parse("7").count(), 1);
    EXPECT_EQ((CpuSet::parse("0-7") - CpuSet::parse("2-3")).toList(), "0-1,4-7");
    EXPECT_EQ((CpuSet{1, 2} | CpuSet{5}).pus(), (std::vector<int>{1, 2, 5}));
    try {
        CpuSet::parse("0-3,x");
        FAIL();
    } catch (const Error& e) {
        EXPECT_STREQ(e.what(), "CPU list '0-3,x': 'x' is not a PU number or a range like 0-5");
    }
    EXPECT_THROW(CpuSet::parse("5-2"), Error);
    EXPECT_THROW(CpuSet::parse("1,,2"), Error);
}
