// A server host's log, followed live (docs/hosts.md): the agent ("local", the scalelab program
// itself, started as over ssh) runs the embedded server; while the sweep runs, its new log lines
// reach the observer during the run that wrote them, each once, and a series' setting change
// shows as the server logged it.
#include "ServerRequirement.h"

#include "store/ExperimentStore.h"
#include "sweep/SweepRunner.h"
#include "util/TempDir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>

using namespace scalelab;

namespace {

struct LogWatcher : SweepObserver {
    std::mutex mutex;
    std::vector<std::string> lines;   // as they came
    std::vector<size_t> atRunEnd;     // lines.size() when each run finished
    size_t duringFirstRun = 0;        // lines that came while the first run ran
    bool firstRunStarted = false, firstRunFinished = false;
    void onProgress(const SweepProgress& p) override {
        std::lock_guard<std::mutex> lock(mutex);
        if (p.state == SweepState::Running) firstRunStarted = true;
    }
    void onRunFinished(const RunRecord&) override {
        std::lock_guard<std::mutex> lock(mutex);
        firstRunFinished = true;
        atRunEnd.push_back(lines.size());
    }
    void onServerLog(const std::vector<std::string>& batch) override {  // the follower's thread
        std::lock_guard<std::mutex> lock(mutex);
        for (const auto& line : batch) {
            if (firstRunStarted && !firstRunFinished && line.find("LOG:  follow me ") != std::string::npos) ++duringFirstRun;
            lines.push_back(line);
        }
    }
};

} // namespace

TEST(ServerHostLog, TheServerHostsLogComesAsItIsWritten) {
    SCALELAB_REQUIRE_SERVER();
    TempDir work("scalelab-host-log");
    // The agent's server runs as the postgres user when this is root: it must reach its data.
    std::filesystem::permissions(work.path(), std::filesystem::perms::others_exec, std::filesystem::perm_options::add);
    // Each transaction writes one line to the server log (RAISE LOG), numbered by its
    // transaction id; \sleep keeps the rate low enough that no second's burst is cut.
    std::string script = (work.path() / "log.sql").string();
    std::ofstream(script) << "DO $$ BEGIN RAISE LOG 'follow me %', txid_current(); END $$;\n\\sleep 100 ms\n";
    nlohmann::json plan = {
        {"version", 1},
        {"target", {{"host", {{"host", "local"}, {"scalelab", SCALELAB_BINARY}}}, {"data_dir", (work.path() / "host-cluster").string()}}},
        {"workload", {{"files", script}, {"vacuum", "none"}}},
        {"series", {{{"label", "A"}}, {{"label", "B"}, {"settings", {{"work_mem", "3MB"}}}}}},
        {"clients", {1}},
        {"duration", 3},
        {"order", "sequential"},
        {"seed", 7}};
    auto store = ExperimentStore::create((work.path() / "log.slab").string());
    LogWatcher watcher;
    SweepRunner runner(parsePlan(plan), *store, &watcher, false);
    runner.run();

    std::lock_guard<std::mutex> lock(watcher.mutex);
    std::string all;
    for (const auto& line : watcher.lines) all += line + "\n";
    EXPECT_GT(watcher.duringFirstRun, 0u) << "no line of the first run came while it ran:\n" << all;
    std::set<std::string> seen;
    size_t followed = 0;
    for (const auto& line : watcher.lines) {
        auto at = line.find("LOG:  follow me ");  // not the STATEMENT lines that repeat the script
        if (at == std::string::npos) continue;
        ++followed;
        EXPECT_TRUE(seen.insert(line.substr(at)).second) << "came twice: " << line;
    }
    EXPECT_GE(followed, 10u) << all;  // two runs of 3 s at about 10 transactions a second
    EXPECT_NE(all.find("parameter \"work_mem\" changed to \"3MB\""), std::string::npos) << all;
    EXPECT_EQ(all.find("lines left out"), std::string::npos) << all;
}
