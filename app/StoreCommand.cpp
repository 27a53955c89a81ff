// `scalelab experiments` and the whole-experiment copies of `import`: what a results store
// holds, and moving experiments between files and stores (docs/results-store.md).
#include "ReportCommand.h"
#include "CommandErrors.h"
#include "CommandLine.h"

#include "store/CopyExperiment.h"
#include "store/ExperimentStore.h"
#include "store/PgStore.h"

#include <memory>
#include <cstdio>
#include <cstring>
#include <fstream>

namespace scalelab::app {
namespace {

// An SQLite database (an experiment file, or something ExperimentStore will refuse by name).
bool isSqliteFile(const std::string& path) {
    char head[16] = {};
    std::ifstream in(path, std::ios::binary);
    return in.read(head, sizeof head) && std::memcmp(head, "SQLite format 3", 16) == 0;
}

} // namespace

bool importsAnExperiment(const ImportArgs& a) {
    bool any = false;
    for (const auto& f : a.files) any = any || isSqliteFile(f);
    if (!any) return false;
    if (a.files.size() != 1)
        throw UsageError("an experiment file is imported alone (one experiment per output); the others need their own import");
    if (a.append || a.again || !a.series.empty() || a.cores)
        throw UsageError("an experiment file is copied whole into a new experiment: --append, --again, --series, --cores "
                         "and --pus do not apply");
    CopyCount n = copyExperiment(a.files.front(), a.output);
    std::fprintf(stderr, "scalelab: copied %s from %s into %s\n", describe(n).c_str(), a.files.front().c_str(),
                 a.output.c_str());
    return true;
}

int runExperimentsCommand(const std::string& store, const std::vector<std::string>& remove) {
    return runCommand([&] {
        if (store.find('#') != std::string::npos)
            throw UsageError(store + " names one experiment; give the store alone (the text before '#')");
        for (const auto& name : remove) {
            deleteExperiment(storeLocation(store, name));
            std::fprintf(stderr, "scalelab: deleted %s\n", terminalSafe(name).c_str());
        }
        if (!remove.empty()) return 0;
        auto list = listExperiments(store);
        if (list.empty()) {
            std::fprintf(stderr, "scalelab: no experiments in %s\n", terminalSafe(redactPasswords(store)).c_str());
            return 0;
        }
        std::printf("%-28s %5s  %-20s  %-12s  %-30s  %s\n", "experiment", "runs", "created", "owner", "series", "note");
        for (const auto& e : list) {
            std::string series;
            for (const auto& s : e.series) series += (series.empty() ? "" : ", ") + s;
            std::string note = e.note.substr(0, e.note.find('\n'));
            // Names, series and notes are anyone's words in a shared store: no escape sequences.
            std::printf("%-28s %5lld  %-20s  %-12s  %-30s  %s%s\n", terminalSafe(e.name).c_str(), static_cast<long long>(e.runs),
                        terminalSafe(e.createdAt).c_str(), terminalSafe(e.owner.empty() ? "-" : e.owner).c_str(),
                        terminalSafe(series).c_str(), e.beingWritten ? "[being written] " : "", terminalSafe(note).c_str());
        }
        // How to name one of them to any other command.
        std::fprintf(stderr, "scalelab: name one with --store and its name, or as %s\n",
                     terminalSafe(storeLocation(store, list.front().name)).c_str());
        return 0;
    });
}


Command addExperimentsCommand(CommandLine& line) {
    struct Args {
        std::string store;
        std::vector<std::string> remove;
    };
    auto a = std::make_shared<Args>();
    auto* cmd = line.app.add_subcommand("experiments", "List the experiments in a PostgreSQL results store");
    cmd->add_option("store", a->store, "The store: postgresql://HOST/DB or \"host=... dbname=...\"")->required();
    cmd->add_option("--delete", a->remove, "Delete this experiment and all its runs (repeatable)");
    return {cmd, [a] { return runExperimentsCommand(a->store, a->remove); }};
}

} // namespace scalelab::app
