#include "SweepCommands.h"
#include "CommandLine.h"
#include "CommandErrors.h"

#include "Interrupts.h"
#include "MetricsListen.h"

#include "stats/PointAxis.h"
#include "store/ExperimentStore.h"
#include "sweep/SweepPreflight.h"
#include "sweep/SweepObserverTee.h"
#include "sweep/SweepRunner.h"
#include "util/Error.h"
#include "util/Format.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <set>
#include <thread>

namespace scalelab::app {
namespace {

// "-" for a value the run does not have (NaN), else the number in `format`.
std::string orMissing(double v, const char* format) {
    if (std::isnan(v)) return "-";
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}


std::string clock(double s) {
    int t = static_cast<int>(s + 0.5);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%d:%02d:%02d", t / 3600, t / 60 % 60, t % 60);
    return buf;
}

// Progress on a terminal: one line redrawn in place; elsewhere: a line per change.
class ConsoleObserver : public SweepObserver {
public:
    explicit ConsoleObserver(bool quiet) : tty_(isatty(STDERR_FILENO)), quiet_(quiet) {}
    void onProgress(const SweepProgress& p) override {
        if (quiet_ || p.state == SweepState::Settling || p.state == SweepState::Preparing) return;
        line(p, "");
        if (!tty_ || p.state == SweepState::Finished || p.state == SweepState::Stopped) std::fputc('\n', stderr);
    }
    void onSample(const SweepProgress& p, const LoadSample& s) override {
        if (quiet_ || !tty_) return;
        char buf[64];
        std::snprintf(buf, sizeof buf, "  %.0f tps%s", s.tps, s.warmup ? " (warm-up)" : "");
        line(p, buf);
    }
    void onRunFinished(const RunRecord& r) override {
        if (r.status == RunStatus::Completed) ++completed;
        if (r.status == RunStatus::Failed) ++failed;
        if (quiet_) return;
        if (tty_) std::fputc('\n', stderr);
        std::fprintf(stderr, "  %s, %s, round %d: %s, %s tps, p95 %s ms%s%s\n", terminalSafe(r.series).c_str(),
                     runPointText(r.clients, offeredRateOf(r)).c_str(), r.repetition, runStatusName(r.status), orMissing(r.tps, "%.1f").c_str(), orMissing(r.latency.p95Ms, "%.3f").c_str(),
                     r.error.empty() ? "" : ": ", terminalSafe(r.error).c_str());
    }
    // This sweep's runs (a resumed one's earlier runs are not counted), for its exit status.
    int completed = 0, failed = 0;
    void onNote(const std::string& s) override {
        if (tty_) std::fputc('\n', stderr);
        std::fprintf(stderr, "scalelab: %s\n", terminalSafe(s, true).c_str());
    }

private:
    void line(const SweepProgress& p, const std::string& extra) {
        int width = 30, filled = p.total ? width * p.done / p.total : 0;
        std::string bar = std::string(static_cast<size_t>(filled), '#') + std::string(static_cast<size_t>(width - filled), '.');
        std::fprintf(stderr, "%s[%s] run %d/%d %s, %s, round %d, elapsed %s, eta %s%s%s", tty_ ? "\r\033[K" : "",
                     bar.c_str(), p.run, p.total, terminalSafe(p.series).c_str(), runPointText(p.clients, p.rate, p.scale).c_str(), p.repetition, clock(p.elapsedS).c_str(),
                     clock(p.etaS).c_str(), p.state == SweepState::Running ? "" : (std::string(" [") + sweepStateName(p.state) + "]").c_str(), extra.c_str());
        std::fflush(stderr);
    }
    bool tty_, quiet_;
};

} // namespace

int runSweepCommand(const SweepArgs& a) {
    return runCommand([&] {
        SweepPlan plan = loadPlanFile(a.plan);
        preflightSweep(plan);  // before the file is created
        if (!a.resume && ExperimentStore::exists(a.output))
            throw Error(a.output + " already exists: continue its sweep with --resume, or write to another experiment");
        // Listening before the file is created: a port in use leaves nothing behind.
        LiveEndpoint live = startLiveEndpoint(a.metricsListen, experimentLabelOf(a.output));
        std::unique_ptr<ExperimentStore> store =
            a.resume ? ExperimentStore::open(a.output) : ExperimentStore::create(a.output);
        ConsoleObserver console(a.quiet);
        SweepObserverTee observers({&console, live.publisher.get()});
        // A sweep that fails before its first run is stored (a setting the server refuses, a
        // server that cannot start) takes back the experiment it created: it holds nothing,
        // and a rerun must not be told that it exists (issue 31.14). A resumed one is kept.
        auto takeBackIfEmpty = [&] {
            if (a.resume || !store) return;
            bool empty = false;
            try {
                empty = store->runs().empty();
            } catch (const std::exception&) {
            }
            if (!empty) return;
            store.reset();  // closed (and unlocked) before it is removed
            try {
                ExperimentStore::remove(a.output);
            } catch (const std::exception&) {
            }
        };
        int rc = 0;
        try {
            SweepRunner runner(plan, *store, &observers, a.resume);
            runner.preflightDone();
            // Ctrl-C or SIGTERM: finish the run in progress cleanly (kept, marked stopped), then stop.
            InterruptToStop interrupts("stopping after the run in progress (kept, marked stopped)", [&runner] { runner.stop(); });
            runner.run();
            rc = interrupts.exitCode();  // 130 or 143 when stopped: the sweep is not finished
        } catch (...) {
            takeBackIfEmpty();
            throw;
        }
        if (rc) takeBackIfEmpty();
        if (!store) {
            std::fprintf(stderr, "scalelab: stopped before any run was stored; %s was not kept\n", a.output.c_str());
            return rc;
        }
        std::fprintf(stderr, "scalelab: experiment written to %s\n", a.output.c_str());
        // A sweep that measured nothing failed, whatever it stored (issue 60.10): a script
        // that exits 0 had every run failing.
        if (rc == 0 && console.completed == 0 && console.failed > 0) {
            std::fprintf(stderr, "scalelab: every run of this sweep failed (%d %s): nothing was measured; `scalelab runs %s` "
                                 "shows each run's error\n",
                         console.failed, console.failed == 1 ? "run" : "runs", a.output.c_str());
            rc = 1;
        }
        return rc;
    }, "\n");
}

int runRunsCommand(const std::string& experiment, const std::vector<long long>& exclude,
                   const std::vector<long long>& include) {
    return runCommand([&] {
        bool changing = !exclude.empty() || !include.empty();
        auto store = ExperimentStore::open(experiment, !changing);
        if (changing) {
            std::set<long long> known;
            for (const auto& r : store->runs()) known.insert(r.id);
            for (const auto* ids : {&exclude, &include})
                for (long long id : *ids)
                    if (!known.count(id)) throw Error(experiment + " has no run " + std::to_string(id));
            for (long long id : exclude) store->setExcluded(id, true);
            for (long long id : include) store->setExcluded(id, false);
        }
        // A value the run does not have is shown as "-", never as 0.
        // The offered rate (-R) where some run had one: "none" for an unthrottled run.
        std::vector<RunRecord> runs = store->runs();
        bool rated = std::any_of(runs.begin(), runs.end(), [](const RunRecord& r) { return offeredRateOf(r) > 0; });
        auto offered = [&](const RunRecord& r) {
            return !rated ? std::string() : offeredRateOf(r) > 0 ? " " + std::string(std::max(0, 10 - static_cast<int>(rateNumber(offeredRateOf(r)).size())), ' ') + rateNumber(offeredRateOf(r)) : std::string("       none");
        };
        std::printf("%5s %5s  %-20s %7s %5s  %-9s %11s%s %9s %9s  %s\n", "id", "index", "series", "clients", "round", "status",
                    "tps", rated ? "    offered" : "", "p95 ms", "failures", "flags");
        for (const auto& r : runs)
            std::printf("%5lld %5s  %-20s %7d %5d  %-9s %11s%s %9s %9llu  %s%s%s\n", static_cast<long long>(r.id),
                        r.runIndex ? std::to_string(*r.runIndex + 1).c_str() : "-", terminalSafe(r.series).c_str(), r.clients,
                        r.repetition, runStatusName(r.status), orMissing(r.tps, "%.1f").c_str(), offered(r).c_str(),
                        orMissing(r.latency.p95Ms, "%.3f").c_str(),
                        static_cast<unsigned long long>(r.failures),
                        r.flags.joined().c_str(),
                        r.excluded ? " excluded" : "", r.error.empty() ? "" : ("  " + terminalSafe(r.error)).c_str());
        // Notes are the user's own words: listed in full after the table.
        for (const auto& r : runs)
            if (!r.note.empty()) std::printf("note on run %lld: %s\n", static_cast<long long>(r.id), terminalSafe(r.note, true).c_str());
        return 0;
    });
}

int runNoteCommand(const std::string& experiment, std::optional<long long> run, std::optional<std::string> text) {
    return runCommand([&] {
        auto store = ExperimentStore::open(experiment, !text);
        if (text) {
            if (run) store->setRunNote(*run, *text);
            else store->setNote(*text);
            return 0;
        }
        bool any = false;
        if (!run) {
            std::string note = store->note();
            if (!note.empty()) std::printf("%s\n", terminalSafe(note, true).c_str()), any = true;
        }
        bool found = !run;
        for (const auto& r : store->runs()) {
            if (run && r.id != *run) continue;
            found = true;
            if (!r.note.empty()) std::printf("run %lld: %s\n", static_cast<long long>(r.id), terminalSafe(r.note, true).c_str()), any = true;
        }
        if (!found) throw Error(experiment + " has no run " + std::to_string(*run));
        if (!any) std::fprintf(stderr, "scalelab: no notes in %s\n", experiment.c_str());
        return 0;
    });
}


Command addSweepCommand(CommandLine& line) {
    auto sweep = std::make_shared<SweepArgs>();
    auto* sweepCmd = line.app.add_subcommand("sweep", "Run a sweep plan (series x clients x repetitions) into an experiment file");
    sweepCmd->add_option("plan", sweep->plan, "Sweep plan (JSON, docs/sweeps.md)")->required()->check(CLI::ExistingFile);
    sweepCmd->add_option("-o,--output", sweep->output, "Experiment to write: a file (.slab), postgresql://HOST/DB#NAME, "
                                                       "or NAME with --store")->required();
    sweepCmd->add_flag("--resume", sweep->resume, "Continue the interrupted sweep in the experiment file");
    sweepCmd->add_flag("-q,--quiet", sweep->quiet, "No progress output");
    sweepCmd->add_option("--metrics-listen", sweep->metricsListen, kMetricsListenHelp);
    line.takesStore(sweepCmd, {&sweep->output});
    return {sweepCmd, [sweep] { return runSweepCommand(*sweep); }};
}

Command addRunsCommand(CommandLine& line) {
    struct Args {
        std::string experiment;
        std::vector<long long> exclude, include;
    };
    auto a = std::make_shared<Args>();
    auto* runsCmd = line.app.add_subcommand("runs", "List the runs of an experiment file");
    runsCmd->add_option("experiment", a->experiment, kExperimentHelp)->required();
    runsCmd->add_option("--exclude", a->exclude, "Exclude these runs (ids) from points and statistics; they stay in the file");
    runsCmd->add_option("--include", a->include, "Include these excluded runs again");
    line.takesStore(runsCmd, {&a->experiment});
    return {runsCmd, [a] { return runRunsCommand(a->experiment, a->exclude, a->include); }};
}

Command addNoteCommand(CommandLine& line) {
    struct Args {
        std::string experiment, text;
        long long run = 0;
    };
    auto a = std::make_shared<Args>();
    auto* noteCmd = line.app.add_subcommand("note", "Show or set the note of an experiment, or of one of its runs");
    noteCmd->add_option("experiment", a->experiment, kExperimentHelp)->required();
    auto* textOpt = noteCmd->add_option("text", a->text, "The note (\"\" removes it); without it the notes are shown");
    auto* runOpt = noteCmd->add_option("--run", a->run, "The run (id, from `scalelab runs`) the note is on")
                       ->check(CLI::PositiveNumber);
    line.takesStore(noteCmd, {&a->experiment});
    return {noteCmd, [a, textOpt, runOpt] {
                return runNoteCommand(a->experiment, runOpt->count() ? std::optional<long long>(a->run) : std::nullopt,
                                      textOpt->count() ? std::optional<std::string>(a->text) : std::nullopt);
            }};
}

} // namespace scalelab::app
