#include "GuiCommand.h"
#include "CommandErrors.h"
#include "CommandLine.h"

#include "MetricsListen.h"
#include "ReportCommand.h"
#include "charts/ReportExport.h"

#include "bridge/SweepController.h"
#include "pages/LivePage.h"
#include "pages/MainWindow.h"
#include "pages/ResultsPage.h"
#include "pages/SetupPage.h"
#include "SafeApplication.h"
#include "stats/LatencyThroughput.h"
#include "stats/PointAxis.h"
#include "stats/Verdict.h"
#include "store/CombinedRuns.h"
#include "store/ExperimentStore.h"
#include "sweep/SweepPlan.h"
#include "util/Error.h"

#include <memory>
#include <QApplication>
#include <QDir>
#include <QScrollArea>
#include <QScrollBar>
#include <QTabWidget>
#include <QTimer>

#include <cstdio>
#include <cstdlib>
#include <optional>

namespace scalelab::app {
namespace {

// Qt needs an application object; with no display, render offscreen.
std::unique_ptr<QApplication> headlessApp() {
    if (!std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY") && !std::getenv("QT_QPA_PLATFORM"))
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
    static int argc = 1;
    static char name[] = "scalelab";
    static char* argv[] = {name, nullptr};
    return std::make_unique<QApplication>(argc, argv);
}

} // namespace

int runGui(int argc, char** argv, const GuiArgs& a) {
    if (!std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY") && !std::getenv("QT_QPA_PLATFORM")) {
        std::fprintf(stderr,
                     "scalelab: no display for the desktop window (DISPLAY and WAYLAND_DISPLAY are not set).\n"
                     "Everything it does is on the command line too: scalelab --help, or docs/sweeps.md.\n"
                     "Headless screenshots: xvfb-run scalelab gui --open EXP.slab --screenshots DIR\n");
        return 1;
    }
    // What the command line names is checked before the window opens: a refused plan or an
    // unreadable experiment ends with the message on stderr and exit status 1.
    std::optional<SweepPlan> plan;
    int width = 0, height = 0;
    if (!a.size.empty()) {
        char x = 0;
        char rest = 0;
        if (std::sscanf(a.size.c_str(), "%d%c%d%c", &width, &x, &height, &rest) != 3 || x != 'x' || width < 320 || height < 240) {
            std::fprintf(stderr, "scalelab: error: --size %s: give the window size as WIDTHxHEIGHT, at least 320x240\n",
                         a.size.c_str());
            return 2;
        }
    }
    try {
        if (!a.sweepPlan.empty()) plan = loadPlanFile(a.sweepPlan);
        if (!a.open.empty()) ExperimentStore::open(a.open, true);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "scalelab: error: %s\n", e.what());
        return 1;
    }
    LiveEndpoint live;
    try {
        live = startLiveEndpoint(a.metricsListen, "");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "scalelab: error: %s\n", e.what());
        return 1;
    }
    ui::SafeApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("ScaleLab"));
    QApplication::setOrganizationName(QStringLiteral("ScaleLab"));
    ui::MainWindow window;
    if (live.publisher) window.controller()->publishTo(live.publisher);
    window.showAtFirstSize(width > 0 ? std::optional<QSize>(QSize(width, height)) : std::nullopt);
    bool liveShot = false;  // the Live page during a run is taken (with --sweep)
    auto grabAs = [&](const char* name) {
        QDir().mkpath(QString::fromStdString(a.screenshots));
        QApplication::processEvents();
        QString file = QString::fromStdString(a.screenshots) + QStringLiteral("/%1.png").arg(QLatin1String(name));
        window.grab().save(file);
        std::fprintf(stderr, "scalelab: wrote %s\n", file.toLocal8Bit().constData());
    };
    auto shoot = [&] {
        if (a.screenshots.empty()) return;
        const char* names[] = {"setup", "live", "results", "overview"};
        for (int i = 0; i < window.tabs()->count(); ++i) {
            window.tabs()->setCurrentIndex(i);
            grabAs(names[i]);
        }
        // What a user scrolls or clicks to: the end of the Setup form, the Ratio chart.
        window.showPage(window.setupPage());
        if (QScrollArea* area = window.pageArea(window.tabs()->currentIndex())) {
            area->verticalScrollBar()->setValue(area->verticalScrollBar()->maximum());
            grabAs("setup-scrolled");
            area->verticalScrollBar()->setValue(0);
        }
        window.showPage(window.resultsPage());
        QTabWidget* charts = window.resultsPage()->chartTabs();
        // The Ratio chart, and why the curve bends: the Waits and CPU profile tabs.
        for (const auto& [tab, name] : {std::pair{"Ratio", "results-ratio"}, {"Waits", "results-waits"},
                                        {"CPU profile", "results-profile"}})
            for (int i = 0; i < charts->count(); ++i)
                if (charts->tabText(i).remove(QLatin1Char('&')) == QLatin1String(tab)) {
                    charts->setCurrentIndex(i);
                    grabAs(name);
                }
        charts->setCurrentIndex(0);
        QApplication::quit();
    };
    if (plan) {
        if (!window.setupPage()->setPlanJson(plan->json)) {
            std::fprintf(stderr, "scalelab: error: %s: the window cannot show this plan: %s\n", a.sweepPlan.c_str(),
                         window.setupPage()->problems().join(QStringLiteral("; ")).toLocal8Bit().constData());
            return 1;
        }
        // Shown, but refused for this machine (cores:64 on 2 cores): the same road as a plan the
        // parser refuses, never a window that starts nothing (and screenshots that never come).
        if (!window.setupPage()->problems().isEmpty() || !window.setupPage()->plan()) {
            std::fprintf(stderr, "scalelab: error: %s: %s\n", a.sweepPlan.c_str(),
                         window.setupPage()->problems().join(QStringLiteral("; ")).toLocal8Bit().constData());
            return 1;
        }
        // The Live page while a run is under way: a few seconds into the second run.
        QObject::connect(window.controller(), &ui::SweepController::sample, &window,
                         [&](const SweepProgress& p, const LoadSample& s) {
                             if (a.screenshots.empty() || liveShot || p.run < 2 || s.endS < 2) return;
                             liveShot = true;
                             grabAs("live-running");
                             // And its Waits tab, the run's events as they are sampled.
                             for (QTabWidget* tabs : window.livePage()->findChildren<QTabWidget*>())
                                 for (int i = 0; i < tabs->count(); ++i)
                                     if (tabs->tabText(i).remove(QLatin1Char('&')) == QLatin1String("Waits")) {
                                         int was = tabs->currentIndex();
                                         tabs->setCurrentIndex(i);
                                         grabAs("live-waits");
                                         tabs->setCurrentIndex(was);
                                     }
                         });
        QObject::connect(window.controller(), &ui::SweepController::finished, &window, [&](const QString& error) {
            if (!error.isEmpty()) std::fprintf(stderr, "scalelab: error: %s\n", error.toLocal8Bit().constData());
            window.showPage(window.resultsPage());
            QTimer::singleShot(500, &window, shoot);
        });
        window.startSweepInto(QString::fromStdString(a.sweepOutput));
    } else {
        // Screenshots once the pages show the experiment (it is read off the GUI thread).
        auto shootSoon = [&] {
            if (!a.screenshots.empty()) QTimer::singleShot(500, &window, shoot);
        };
        if (!a.open.empty()) {
            QObject::connect(&window, &ui::MainWindow::experimentOpened, &window, shootSoon);
            QObject::connect(&window, &ui::MainWindow::experimentOpenFailed, &window, shootSoon);
            window.openExperiment(QString::fromStdString(a.open));
        } else {
            shootSoon();
        }
    }
    return app.exec();
}

void renderExports(const ExportArgs& a) {
    auto app = QApplication::instance() ? nullptr : headlessApp();
    ui::ScalingView view;
    view.metric = parseRunMetric(a.metric);
    view.bars = ui::parseErrorBars(a.errorBars);
    view.confidence = a.confidence;
    view.logX = a.log2;
    view.usl = a.usl;
    view.axis = a.x.empty() ? naturalAxis(combineExperiments(a.experiment, a.with).runs) : parsePointAxis(a.x);
    if (view.usl && view.axis != PointAxis::Clients)
        throw Error("--usl describes scaling with clients; on the rate axis there is no such law (--x clients)");
    if (view.usl && !isThroughputMetric(view.metric))
        throw Error(std::string("--usl fits throughput (tps, logical_reads); ") + runMetricName(view.metric) +
                    " is not one, and the law does not describe it");
    for (const auto& s : a.series) view.series << QString::fromStdString(s);
    ui::OtherChart other;
    for (size_t i = 0; i + 1 < a.ratio.size(); i += 2) other.ratios.pairs.emplace_back(a.ratio[i], a.ratio[i + 1]);
    other.ratios.paired = a.paired;
    other.distributionAt = a.distribution;
    if (!a.rounds.empty()) other.rounds = parseLatencyPercentile(a.rounds, "--rounds");
    if (!a.latencyTps.empty()) other.againstThroughput = throughputY(parseLatencyPercentile(a.latencyTps, "--latency-tps"));
    if (!a.againstTps.empty()) other.againstThroughput = parseThroughputY(a.againstTps, "--against-tps");
    other.logLatency = a.logLatency;
    if (!a.png.empty() || !a.svg.empty())
        ui::writeChartFiles(a.experiment, view, a.png, a.svg, QSize(a.width, a.height), a.scale, a.with, other);
    if (!a.html.empty()) {
        ui::ReportChoice choice;
        if (!a.compare.empty()) choice.baseline = a.compare[0], choice.candidate = a.compare[1];
        choice.paired = a.paired;
        if (!a.equivalence.empty()) choice.equivalencePct = parseMarginPct(a.equivalence, "--equivalence");
        ui::writeHtmlReport(a.experiment, view, choice, a.html, a.with);
    }
}


Command addGuiCommand(CommandLine& line, int argc, char** argv) {
    auto gui = std::make_shared<GuiArgs>();
    auto* guiCmd = line.app.add_subcommand("gui", "Open the desktop window (the same as no arguments)");
    guiCmd->add_option("--open", gui->open, "An experiment to show: a file, a store location, or NAME with --store");
    auto* guiPlan = guiCmd->add_option("--sweep", gui->sweepPlan, "Run this plan through the window")->check(CLI::ExistingFile);
    guiCmd->add_option("--output", gui->sweepOutput, "Experiment file for --sweep")->needs(guiPlan);
    guiCmd->add_option("--screenshots", gui->screenshots, "Save a PNG of each page into this directory, then quit");
    guiCmd->add_option("--size", gui->size, "Window size WIDTHxHEIGHT (default: the last size, or 1400x900, no larger than the screen)");
    guiCmd->add_option("--metrics-listen", gui->metricsListen, kMetricsListenHelp);
    line.takesStore(guiCmd, {&gui->open, &gui->sweepOutput});
    return {guiCmd, [gui, argc, argv] {
                if (!gui->sweepPlan.empty() && gui->sweepOutput.empty()) {
                    std::fprintf(stderr, "scalelab: error: --sweep needs --output EXP.slab\n");
                    return kUsageError;
                }
                return runGui(argc, argv, *gui);
            }};
}

} // namespace scalelab::app
