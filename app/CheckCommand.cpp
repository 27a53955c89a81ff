#include "CheckCommand.h"
#include "CommandErrors.h"
#include "LoadCommands.h"
#include "Target.h"

#include "load/data/TpccCheck.h"

#include <cstdio>
#include <memory>
#include <string>

namespace scalelab::app {
namespace {

struct CheckArgs {
    TargetArgs target;
    std::string workload;
};

// One line per condition: its number, its rule, and "holds", the rows that break it, or why it
// does not apply. Exit status 1 when any applicable condition does not hold.
int runCheck(const CheckArgs& args) {
    return runCommand([&] {
        Target target = openTarget(args.target);
        std::vector<tpcc::ConditionResult> results = tpcc::checkConsistency(target.conninfo);
        std::printf("TPC-C consistency conditions (clause 3.3.2) over TPROC-C's tables:\n");
        int broken = 0;
        for (const auto& r : results) {
            std::string verdict;
            if (!r.violations) verdict = "not applicable: " + r.notApplicable;
            else if (*r.violations == 0) verdict = "holds";
            else {
                // "1 district", "3 districts": every noun of `per` is a plural in s.
                std::string noun = *r.violations == 1 ? r.per.substr(0, r.per.size() - 1) : r.per;
                verdict = "DOES NOT HOLD for " + std::to_string(*r.violations) + " " + noun;
                ++broken;
            }
            std::printf("%3d  %-66s %s\n", r.number, r.rule.c_str(), verdict.c_str());
        }
        if (broken) {
            std::printf("%d condition%s do%s not hold\n", broken, broken == 1 ? "" : "s", broken == 1 ? "es" : "");
            return 1;
        }
        std::printf("every condition that applies holds\n");
        return 0;
    });
}

} // namespace

Command addCheckCommand(CommandLine& line) {
    auto check = std::make_shared<CheckArgs>();
    auto* cmd = line.app.add_subcommand("check", "Check a workload's data after runs: TPC-C's consistency conditions for TPROC-C");
    addTargetOptions(cmd, check->target);
    cmd->add_option("--workload", check->workload, "tprocc: TPC-C's twelve consistency conditions (clause 3.3.2)")
        ->required()
        ->check(CLI::IsMember({"tprocc"}));
    return {cmd, [check] { return runCheck(*check); }};
}

} // namespace scalelab::app
