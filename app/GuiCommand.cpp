#include "GuiCommand.h"

#include "charts/ChartExport.h"
#include "bridge/SweepController.h"
#include "charts/ScalingChart.h"
#include "models/ScalingData.h"
#include "pages/MainWindow.h"
#include "pages/ResultsPage.h"
#include "pages/SetupPage.h"
#include "SafeApplication.h"
#include "store/ExperimentStore.h"
#include "sweep/SweepPlan.h"
#include "topo/Topology.h"
#include "util/Error.h"

#include <QApplication>
#include <QDir>
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
    try {
        if (!a.sweepPlan.empty()) plan = loadPlanFile(a.sweepPlan);
        if (!a.open.empty()) ExperimentStore::open(a.open, true);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "scalelab: error: %s\n", e.what());
        return 1;
    }
    ui::SafeApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("ScaleLab"));
    QApplication::setOrganizationName(QStringLiteral("ScaleLab"));
    ui::MainWindow window;
    window.resize(1400, 900);
    window.show();
    auto shoot = [&] {
        if (a.screenshots.empty()) return;
        QDir().mkpath(QString::fromStdString(a.screenshots));
        const char* names[] = {"setup", "live", "results"};
        for (int i = 0; i < window.tabs()->count(); ++i) {
            window.tabs()->setCurrentIndex(i);
            QApplication::processEvents();
            QString file = QString::fromStdString(a.screenshots) + QStringLiteral("/%1.png").arg(QLatin1String(names[i]));
            window.grab().save(file);
            std::fprintf(stderr, "scalelab: wrote %s\n", file.toLocal8Bit().constData());
        }
        QApplication::quit();
    };
    if (plan) {
        if (!window.setupPage()->setPlanJson(plan->json)) {
            std::fprintf(stderr, "scalelab: error: %s: the window cannot show this plan: %s\n", a.sweepPlan.c_str(),
                         window.setupPage()->problems().join(QStringLiteral("; ")).toLocal8Bit().constData());
            return 1;
        }
        QObject::connect(window.controller(), &ui::SweepController::finished, &window, [&](const QString& error) {
            if (!error.isEmpty()) std::fprintf(stderr, "scalelab: error: %s\n", error.toLocal8Bit().constData());
            window.tabs()->setCurrentWidget(window.resultsPage());
            QTimer::singleShot(500, &window, shoot);
        });
        window.startSweepInto(QString::fromStdString(a.sweepOutput));
    } else {
        if (!a.open.empty()) window.openExperiment(QString::fromStdString(a.open));
        if (!a.screenshots.empty()) QTimer::singleShot(500, &window, shoot);
    }
    return app.exec();
}

void renderChart(const std::string& experiment, const std::string& png, const std::string& svg, const std::string& metric,
                 int width, int height, int scale) {
    auto app = QApplication::instance() ? nullptr : headlessApp();
    auto store = ExperimentStore::open(experiment, true);
    std::vector<std::string> order;
    for (const auto& s : store->series()) order.push_back(s.label);
    ui::ScalingData data =
        ui::buildScalingData(store->runs(), order, parseRunMetric(metric), ui::ErrorBars::ConfidenceInterval, 0.95, false);
    if (data.series.isEmpty()) throw Error(experiment + " has no completed runs to chart");
    data.markers = ui::markerViews(machineMarkers(store->runs(), store->provenance(), thisMachine()));
    ui::ScalingChart chart;
    chart.setData(data, false);
    QSize size(width, height);
    if (!png.empty()) ui::exportChartPng(&chart, QString::fromStdString(png), size, scale);
    if (!svg.empty()) ui::exportChartSvg(&chart, QString::fromStdString(svg), size, QString::fromStdString(experiment));
}

} // namespace scalelab::app
