// A real sweep driven through the GUI objects against the embedded server: 2 series x 2 client
// counts x 2 rounds of 2 s runs. The live charts fill, then the scaling chart shows 4 points
// with error bars, and the chart exports to PNG (1x, 2x) and SVG.
#include "FreshSettings.h"
#include "ServerRequirement.h"
#include "AnswerMessageBox.h"
#include "OpenAndWait.h"
#include "RunRecords.h"
#include "ThrowawayServer.h"

#include "bridge/SweepController.h"
#include "charts/ScalingChart.h"
#include "charts/ScalingChartView.h"
#include "charts/TimelineChartView.h"
#include "live/LiveMetrics.h"
#include "pages/LivePage.h"
#include "pages/MainWindow.h"
#include "pages/ResultsPage.h"
#include "pages/SetupPage.h"
#include "sweep/SweepRunner.h"
#include "util/TempDir.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QImage>
#include <QLineEdit>
#include <QPushButton>
#include <QCheckBox>
#include <QLabel>
#include <QLineSeries>
#include <QListWidget>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <set>

using namespace scalelab;
using namespace scalelab::ui;

namespace {

// One series, clients 1 and 2, two rounds of 1 s of `SELECT 1` against `dataDir`.
nlohmann::json oneStatementPlan(const std::string& dataDir, const std::filesystem::path& scratch) {
    std::string script = (scratch / "one.sql").string();
    std::ofstream(script) << "SELECT 1;\n";
    return {{"version", 1},
            {"target", {{"data_dir", dataDir}}},
            {"workload", {{"files", script}, {"vacuum", "none"}}},
            {"series", {{{"label", "A"}}}},
            {"clients", {1, 2}},
            {"threads", 1},
            {"duration", 1},
            {"repetitions", 2},
            {"seed", 4}};
}

// The rest of a one-series form typed in: `clients`, runs of `seconds` without warm-up, one round,
// series A with no setting.
void oneRoundOfSeriesA(SetupPage* setup, const QString& clients, int seconds) {
    setup->clientsEdit()->setText(clients);
    setup->durationSpin()->setValue(seconds);
    setup->warmupSpin()->setValue(0);
    setup->repetitionsSpin()->setValue(1);
    setup->seriesTable()->setRowCount(0);
    setup->addSeries(QStringLiteral("A"), QString());
}

// The sweep of `plan` into `path`, stopped after its first run, as Stop or Ctrl-C leaves one.
void sweepStoppedAfterFirstRun(const SweepPlan& plan, const QString& path) {
    struct StopAfterFirst : SweepObserver {
        SweepRunner* runner = nullptr;
        void onRunFinished(const RunRecord&) override { runner->stop(); }
    } stopper;
    auto store = ExperimentStore::create(path.toStdString());
    SweepRunner runner(plan, *store, &stopper, false);
    stopper.runner = &runner;
    runner.run();
}

} // namespace

class GuiSweepTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { scalelab::test::startWithFreshSettings(); }

    void aSweepFillsTheLiveAndScalingChartsAndExports() {
        SCALELAB_QREQUIRE_SERVER();
        test::ThrowawayServer server;
        TempDir files("scalelab-gui");
        MainWindow window;
        SetupPage* setup = window.setupPage();
        setup->dataDirEdit()->setText(QString::fromStdString(server.dir.path().string()));
        setup->builtinCombo()->setCurrentText(QStringLiteral("select-only"));
        setup->scalesEdit()->setText(QStringLiteral("1"));
        setup->clientsEdit()->setText(QStringLiteral("1,2"));
        setup->durationSpin()->setValue(2);
        setup->warmupSpin()->setValue(0);
        setup->repetitionsSpin()->setValue(2);
        setup->seriesTable()->setRowCount(0);
        setup->addSeries(QStringLiteral("A"), QString());
        setup->addSeries(QStringLiteral("B"), QString(), QStringLiteral("work_mem=2MB"));
        QVERIFY2(setup->startButton()->isEnabled(), qPrintable(setup->problems().join(QLatin1Char('\n'))));

        for (QAction* a : window.exportActions()) QVERIFY2(!a->isEnabled(), "nothing to export before a chart has points");
        QSignalSpy finished(window.controller(), &SweepController::finished);
        QSignalSpy samples(window.controller(), &SweepController::sample);
        // `gui --metrics-listen`: the window's sweep feeds the Prometheus endpoint's publisher too.
        auto publisher = std::make_shared<MetricsPublisher>();
        window.controller()->publishTo(publisher);
        QString path = QString::fromStdString((files.path() / "gui.slab").string());
        window.startSweepInto(path);
        QVERIFY(window.controller()->running());
        QVERIFY(finished.wait(180000));
        QCOMPARE(finished.first().first().toString(), QString());
        QVERIFY(samples.count() >= 8);
        LiveMetrics live = publisher->snapshot();
        QCOMPARE(live.experiment, std::string("gui"));
        QCOMPARE(live.runsFinished[RunStatus::Completed], uint64_t(8));
        QVERIFY(live.transactions > 0);
        QVERIFY(live.sweep && live.sweep->state == SweepState::Finished && live.sweep->done == 8);
        QVERIFY2(live.lastRun && live.lastRun->tps, "the last run's result");
        QVERIFY(window.livePage()->tpsChart()->pointCount() > 0);
        QVERIFY(window.livePage()->cpuChart()->pointCount() > 0);

        QCOMPARE(window.livePage()->statusLabel()->text(), QStringLiteral("The sweep finished"));
        QVERIFY(window.livePage()->messages()->count() > 0);
        QVERIFY2(QRegularExpression(QStringLiteral("^\\d\\d:\\d\\d:\\d\\d ")).match(window.livePage()->messages()->item(0)->text()).hasMatch(),
                 qPrintable(window.livePage()->messages()->item(0)->text()));
        for (QAction* a : window.exportActions()) QVERIFY(a->isEnabled());

        ResultsPage* results = window.resultsPage();
        // Each series keeps its colour: as the sweep drew it, with the USL fit, and reloaded.
        auto colorOf = [&](const QString& name) {
            for (QAbstractSeries* series : results->chart()->chart()->series())
                if (series->name() == name) return qobject_cast<QLineSeries*>(series)->color();
            return QColor();
        };
        QCOMPARE(colorOf(QStringLiteral("A")), seriesColor(0));
        QCOMPARE(colorOf(QStringLiteral("B")), seriesColor(1));
        for (QCheckBox* box : results->findChildren<QCheckBox*>())
            if (box->text() == QStringLiteral("USL fit")) box->setChecked(true);
        QCOMPARE(colorOf(QStringLiteral("B")), seriesColor(1));
        QVERIFY(test::openAndWait(window, path));
        QCOMPARE(colorOf(QStringLiteral("A")), seriesColor(0));
        QCOMPARE(colorOf(QStringLiteral("B")), seriesColor(1));
        QCOMPARE(results->data().series.size(), 2);
        QCOMPARE(results->data().pointCount(), 4);
        QCOMPARE(results->chart()->errorBarCount(), 4);
        QCOMPARE(results->runsModel()->rowCount(), 8);
        QVERIFY(results->runsView()->isColumnHidden(RunsTableModel::Offered));  // no rate, one scale: nothing to say
        QVERIFY(results->runsView()->isColumnHidden(RunsTableModel::Scale));
        QCOMPARE(results->comparisonTable()->rowCount(), 2);
        QCOMPARE(results->peakTable()->rowCount(), 2);

        // Excluding a run changes the point it belonged to, and the file.
        QSignalSpy edited(results, &ResultsPage::runsEdited);
        results->runsModel()->setData(results->runsModel()->index(0, RunsTableModel::Excluded), Qt::Checked, Qt::CheckStateRole);
        QVERIFY(edited.wait());  // written off the GUI thread
        int ones = 0;
        for (const auto& s : results->data().series)
            for (const auto& p : s.points) ones += p.n == 1;
        QCOMPARE(ones, 1);
        QVERIFY(ExperimentStore::open(path.toStdString(), true)->runs()[0].excluded);

        QString png = QString::fromStdString((files.path() / "chart.png").string());
        QString png2 = QString::fromStdString((files.path() / "chart@2x.png").string());
        QString svg = QString::fromStdString((files.path() / "chart.svg").string());
        window.exportChart(png, 1);
        window.exportChart(png2, 2);
        window.exportChart(svg, 1);
        QImage image(png), image2(png2);
        QCOMPARE(image.size(), QSize(1200, 800));
        QCOMPARE(image2.size(), QSize(2400, 1600));
        std::set<QRgb> colors;
        for (int y = 0; y < image.height(); y += 7)
            for (int x = 0; x < image.width(); x += 7) colors.insert(image.pixel(x, y));
        QVERIFY2(colors.size() > 10, "the PNG is blank");
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray text = f.readAll();
        QVERIFY(text.contains("<svg"));
        QVERIFY(text.contains(">A<") || text.contains(">A "));
        QVERIFY(text.contains(">B<") || text.contains(">B "));
    }

    // Issue 35, "sweeps over rate and scale run end to end (window)": the lists typed into the
    // form make the grid, every run keeps its rate and scale, and the Results page offers both
    // axes.
    void aRateAndScaleSweepTypedIntoTheFormRunsTheGrid() {
        SCALELAB_QREQUIRE_SERVER();
        test::ThrowawayServer server;
        TempDir files("scalelab-gui-grid");
        MainWindow window;
        SetupPage* setup = window.setupPage();
        setup->dataDirEdit()->setText(QString::fromStdString(server.dir.path().string()));
        setup->builtinCombo()->setCurrentText(QStringLiteral("select-only"));
        setup->scalesEdit()->setText(QStringLiteral("1, 2"));
        setup->ratesEdit()->setText(QStringLiteral("50, 100"));
        oneRoundOfSeriesA(setup, QStringLiteral("2"), 1);
        QVERIFY2(setup->startButton()->isEnabled(), qPrintable(setup->problems().join(QLatin1Char('\n'))));
        QVERIFY2(setup->estimateLabel()->text().startsWith(QStringLiteral("4 runs")), qPrintable(setup->estimateLabel()->text()));

        QSignalSpy finished(window.controller(), &SweepController::finished);
        QString path = QString::fromStdString((files.path() / "grid.slab").string());
        window.startSweepInto(path);
        QVERIFY(finished.wait(180000));
        QCOMPARE(finished.first().first().toString(), QString());
        std::set<std::pair<double, int64_t>> cells;
        for (const RunRecord& r : ExperimentStore::open(path.toStdString(), true)->runs()) {
            QCOMPARE(r.status, RunStatus::Completed);
            cells.insert({offeredRateOf(r), r.detail.value("data_scale", int64_t{0})});
        }
        QCOMPARE(cells, (std::set<std::pair<double, int64_t>>{{50, 1}, {100, 1}, {50, 2}, {100, 2}}));
        ResultsPage* results = window.resultsPage();
        // The page reads the file off the GUI thread: the last run arrives just after `finished`.
        QTRY_COMPARE_WITH_TIMEOUT(results->runsModel()->rowCount(), 4, 10000);
        QVERIFY(!results->axisCombo()->isHidden());
        QCOMPARE(results->axisCombo()->count(), 3);  // clients, offered rate, data scale
        QVERIFY(!results->runsView()->isColumnHidden(RunsTableModel::Offered));
        QVERIFY(!results->runsView()->isColumnHidden(RunsTableModel::Scale));
        results->axisCombo()->setCurrentIndex(results->axisCombo()->findData(QStringLiteral("rate")));
        QCOMPARE(results->data().series.size(), 2);  // A at scale 1, A at scale 2
        QCOMPARE(results->data().pointCount(), 4);
    }

    // TPROC-C chosen on the Setup page (issue 36): the sweep loads its warehouse on the embedded
    // server, the Live page draws NOPM beside tps, and the Results page offers NOPM as a metric.
    void aTproccSweepStartedFromTheWindowHasNopmLiveAndInTheResults() {
        SCALELAB_QREQUIRE_SERVER();
        test::ThrowawayServer server;
        TempDir files("scalelab-gui-tprocc");
        MainWindow window;
        SetupPage* setup = window.setupPage();
        setup->dataDirEdit()->setText(QString::fromStdString(server.dir.path().string()));
        setup->builtinCombo()->setCurrentIndex(SetupPage::kTproccItem);
        setup->warehousesSpin()->setValue(1);
        setup->ratesEdit()->clear();  // the window restores the last test's form: its rates too
        oneRoundOfSeriesA(setup, QStringLiteral("2"), 2);
        QVERIFY2(setup->startButton()->isEnabled(), qPrintable(setup->problems().join(QLatin1Char('\n'))));

        QSignalSpy finished(window.controller(), &SweepController::finished);
        QString path = QString::fromStdString((files.path() / "tprocc.slab").string());
        window.startSweepInto(path);
        QVERIFY(finished.wait(180000));
        QCOMPARE(finished.first().first().toString(), QString());
        std::vector<RunRecord> runs = ExperimentStore::open(path.toStdString(), true)->runs();
        QCOMPARE(runs.size(), size_t{1});
        QCOMPARE(runs[0].status, RunStatus::Completed);
        QCOMPARE(offeredRateOf(runs[0]), 0.0);
        QCOMPARE(runs[0].detail.value("data_warehouses", 0), 1);
        std::optional<double> nopm = metricOf(runs[0], RunMetric::Nopm);
        QVERIFY(nopm && *nopm > 0);
        QCOMPARE(runs[0].failures, uint64_t{0});

        LivePage* live = window.livePage();
        QVERIFY(live->showsNopm());
        QVERIFY(live->timeline().has(QStringLiteral("nopm")));
        QVERIFY(live->timeline().maxOf(QStringLiteral("nopm")) > 0);

        ResultsPage* results = window.resultsPage();
        QTRY_COMPARE_WITH_TIMEOUT(results->runsModel()->rowCount(), 1, 10000);
        QVERIFY(results->metricCombo()->findData(QStringLiteral("nopm")) >= 0);
    }

    // A sweep that fails before storing a run leaves no empty file behind and no entry in Open
    // Recent, and the Live page says it failed (it stayed at "[settling]").
    void aSweepThatFailsAtOnceLeavesNoFileAndSaysSo() {
        TempDir files("scalelab-gui");
        std::string notADirectory = (files.path() / "plain-file").string();
        std::ofstream(notADirectory) << "not a data directory\n";
        MainWindow window;
        SetupPage* setup = window.setupPage();
        setup->dataDirEdit()->setText(QString::fromStdString(notADirectory));
        setup->durationSpin()->setValue(1);
        QVERIFY2(setup->startButton()->isEnabled(), qPrintable(setup->problems().join(QLatin1Char('\n'))));
        QSignalSpy finished(window.controller(), &SweepController::finished);
        QString path = QString::fromStdString((files.path() / "failed.slab").string());
        window.startSweepInto(path);
        QVERIFY(finished.wait(60000));
        QString error = finished.first().first().toString();
        QVERIFY(!error.isEmpty());
        QCOMPARE(window.livePage()->statusLabel()->text(), QStringLiteral("The sweep failed: %1").arg(error));
        QVERIFY(!QFileInfo::exists(path));
        QVERIFY(!QSettings().value(QStringLiteral("files/recent")).toStringList().contains(path));
        QVERIFY(window.experimentPath().isEmpty());
    }

    // Resume takes the plan from the file: nothing to retype, no "replace it?" question.
    void resumeContinuesTheFilesPlanWithoutRetyping() {
        SCALELAB_QREQUIRE_SERVER();
        test::ThrowawayServer server;
        TempDir files("scalelab-gui");
        nlohmann::json plan = oneStatementPlan(server.dir.path().string(), files.path());
        QString path = QString::fromStdString((files.path() / "resume.slab").string());
        sweepStoppedAfterFirstRun(parsePlan(plan), path);
        QCOMPARE(ExperimentStore::open(path.toStdString(), true)->finishedRunIndexes().size(), size_t{1});
        MainWindow window;
        // An experiment of imported runs has no plan to continue: said, nothing started.
        QString imported = QString::fromStdString((files.path() / "imported.slab").string());
        ExperimentStore::create(imported.toStdString())->saveRun(test::completedRun("A", 1, 1, 100), {});
        QString refused = QStringLiteral("(no answer)");
        window.resumeExperiment(imported, [&refused](const QString& e) { refused = e; });
        QTRY_VERIFY_WITH_TIMEOUT(refused.contains(QStringLiteral("holds no sweep plan")), 30000);
        QVERIFY(!window.controller()->running());

        QSignalSpy finished(window.controller(), &SweepController::finished);
        QString error = QStringLiteral("(no answer)");
        window.resumeExperiment(path, [&error](const QString& e) { error = e; });
        QTRY_COMPARE_WITH_TIMEOUT(error, QString(), 30000);
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.first().first().toString(), QString());
        QCOMPARE(ExperimentStore::open(path.toStdString(), true)->finishedRunIndexes().size(), size_t{4});
        QTRY_COMPARE_WITH_TIMEOUT(window.resultsPage()->data().pointCount(), 2, 10000);  // read off the GUI thread
        QCOMPARE(window.experimentPath(), path);
    }
    // Issue 60.1: a plan stored in an experiment may have been written by anyone who could write
    // the file or the shared store; its \shell ran on whoever resumed it. What it would run is
    // shown first, and nothing runs unless the user accepts.
    void resumingAStoredPlanShowsWhatItRunsAndRunsNothingUnlessAccepted() {
        TempDir files("scalelab-gui-planted");
        std::filesystem::path marker = files.path() / "planted-ran";
        std::string script = (files.path() / "planted.sql").string();
        std::ofstream(script) << "\\shell touch " << marker.string() << "\nSELECT 1;\n";
        nlohmann::json plan = oneStatementPlan((files.path() / "data").string(), files.path());
        plan["workload"]["files"] = script;
        plan["target"]["pg_bindir"] = "/opt/elsewhere/bin";
        QString path = QString::fromStdString((files.path() / "planted.slab").string());
        ExperimentStore::create(path.toStdString())->savePlan(plan, 4);
        MainWindow window;
        test::SeenMessageBox seen;
        test::answerNextMessageBox(QStringLiteral("Cancel"), &seen);
        QString error = QStringLiteral("(no answer)");
        window.resumeExperiment(path, [&error](const QString& e) { error = e; });
        QTRY_VERIFY_WITH_TIMEOUT(seen.seen, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(error, QString(), 10000);
        QVERIFY2(seen.text.contains(QStringLiteral("line 1: \\shell touch ") + QString::fromStdString(marker.string())),
                 qPrintable(seen.text));
        QVERIFY2(seen.text.contains(QStringLiteral("$.target.pg_bindir: runs PostgreSQL's programs from /opt/elsewhere/bin")),
                 qPrintable(seen.text));
        QVERIFY(seen.buttons.contains(QStringLiteral("Run them")));
        QVERIFY(!window.controller()->running());
        QTest::qWait(200);
        QVERIFY(!std::filesystem::exists(marker));
        QVERIFY(!ExperimentStore::open(path.toStdString(), true)->runs().size());
    }

    // Issue 32.7: Start into an existing experiment asked the file dialog's "replace?", then
    // failed with "--resume continues the same plan only". The window says what the file
    // holds and offers its own choices: resume this plan's sweep, resume the file's own plan,
    // or a new file; never a command line option, never a replaced file.
    void startingIntoAnExistingExperimentOffersTheWindowsOwnChoices() {
        SCALELAB_QREQUIRE_SERVER();
        test::ThrowawayServer server;
        TempDir files("scalelab-gui-existing");
        MainWindow window;
        QVERIFY(window.setupPage()->setPlanJson(oneStatementPlan(server.dir.path().string(), files.path())));
        std::optional<SweepPlan> shown = window.setupPage()->plan();
        QVERIFY2(shown, qPrintable(window.setupPage()->problems().join(QLatin1Char('\n'))));
        QString path = QString::fromStdString((files.path() / "existing.slab").string());
        sweepStoppedAfterFirstRun(*shown, path);  // the form's own plan
        auto noOption = [](const QString& text) { return !text.contains(QStringLiteral("--")); };

        test::SeenMessageBox same;
        test::answerNextMessageBox(QStringLiteral("Cancel"), &same);
        window.startSweepAsking(path);
        QTRY_VERIFY_WITH_TIMEOUT(same.seen, 30000);
        QVERIFY2(same.text.startsWith(QStringLiteral("existing.slab holds this plan's sweep already (1 run measured).")),
                 qPrintable(same.text));
        QCOMPARE(same.buttons, (QStringList{QStringLiteral("Resume the sweep"), QStringLiteral("New file..."), QStringLiteral("Cancel")}));
        QVERIFY(noOption(same.text));
        QVERIFY(!window.controller()->running());

        // Another plan in the form: the file's own plan can be resumed, shown on the Setup page.
        window.setupPage()->durationSpin()->setValue(2);
        test::SeenMessageBox other;
        test::answerNextMessageBox(QStringLiteral("Resume its plan"), &other);
        QSignalSpy finished(window.controller(), &SweepController::finished);
        window.startSweepAsking(path);
        QTRY_VERIFY_WITH_TIMEOUT(other.seen, 30000);
        QVERIFY2(other.text.startsWith(QStringLiteral("existing.slab holds the sweep of another plan (1 run measured).")),
                 qPrintable(other.text));
        QVERIFY(noOption(other.text));
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.first().first().toString(), QString());
        QCOMPARE(ExperimentStore::open(path.toStdString(), true)->finishedRunIndexes().size(), size_t{4});
        QCOMPARE(window.setupPage()->durationSpin()->value(), 1.0);

        // A file of imported runs: a sweep goes into a new file.
        QString imported = QString::fromStdString((files.path() / "imported.slab").string());
        ExperimentStore::create(imported.toStdString())->saveRun(test::completedRun("A", 1, 1, 100), {});
        test::SeenMessageBox runsOnly;
        test::answerNextMessageBox(QStringLiteral("Cancel"), &runsOnly);
        window.startSweepAsking(imported);
        QTRY_VERIFY_WITH_TIMEOUT(runsOnly.seen, 30000);
        QVERIFY2(runsOnly.text.startsWith(QStringLiteral("imported.slab holds imported runs (1), not a sweep.")),
                 qPrintable(runsOnly.text));
        QCOMPARE(runsOnly.buttons, (QStringList{QStringLiteral("New file..."), QStringLiteral("Cancel")}));
        QCOMPARE(ExperimentStore::open(imported.toStdString(), true)->runs().size(), size_t{1});
    }
};

QTEST_MAIN(GuiSweepTest)
#include "GuiSweepTest.moc"
