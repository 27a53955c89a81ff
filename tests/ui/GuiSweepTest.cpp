// A real sweep driven through the GUI objects against the embedded server: 2 series x 2 client
// counts x 2 rounds of 2 s runs. The live charts fill, then the scaling chart shows 4 points
// with error bars, and the chart exports to PNG (1x, 2x) and SVG.
#include "ServerRequirement.h"
#include "ThrowawayServer.h"

#include "bridge/SweepController.h"
#include "charts/ScalingChart.h"
#include "charts/TimelineChart.h"
#include "pages/LivePage.h"
#include "pages/MainWindow.h"
#include "pages/ResultsPage.h"
#include "pages/SetupPage.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QImage>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QtTest>

#include <set>

using namespace scalelab;
using namespace scalelab::ui;

class GuiSweepTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void aSweepFillsTheLiveAndScalingChartsAndExports() {
        std::string missing = test::missingServerPrograms();
        if (!missing.empty()) {
            if (test::runningInCi()) QFAIL(missing.c_str());
            QSKIP(missing.c_str());
        }
        test::ThrowawayServer server;
        TempDir files("scalelab-gui");
        MainWindow window;
        SetupPage* setup = window.setupPage();
        setup->dataDirEdit()->setText(QString::fromStdString(server.dir.path().string()));
        setup->builtinCombo()->setCurrentText(QStringLiteral("select-only"));
        setup->scaleSpin()->setValue(1);
        setup->clientsEdit()->setText(QStringLiteral("1,2"));
        setup->durationSpin()->setValue(2);
        setup->warmupSpin()->setValue(0);
        setup->repetitionsSpin()->setValue(2);
        setup->seriesTable()->setRowCount(0);
        setup->addSeries(QStringLiteral("A"), QString());
        setup->addSeries(QStringLiteral("B"), QString(), QStringLiteral("work_mem=2MB"));
        QVERIFY2(setup->startButton()->isEnabled(), qPrintable(setup->problems().join('\n')));

        QSignalSpy finished(window.controller(), &SweepController::finished);
        QSignalSpy samples(window.controller(), &SweepController::sample);
        QString path = QString::fromStdString((files.path() / "gui.slab").string());
        window.startSweepInto(path);
        QVERIFY(window.controller()->running());
        QVERIFY(finished.wait(180000));
        QCOMPARE(finished.first().first().toString(), QString());
        QVERIFY(samples.count() >= 8);
        QVERIFY(window.livePage()->tpsChart()->pointCount() > 0);
        QVERIFY(window.livePage()->cpuChart()->pointCount() > 0);

        ResultsPage* results = window.resultsPage();
        QCOMPARE(results->data().series.size(), 2);
        QCOMPARE(results->data().pointCount(), 4);
        QCOMPARE(results->chart()->errorBarCount(), 4);
        QCOMPARE(results->runsModel()->rowCount(), 8);
        QCOMPARE(results->comparisonTable()->rowCount(), 2);
        QCOMPARE(results->peakTable()->rowCount(), 2);

        // Excluding a run changes the point it belonged to, and the file.
        results->runsModel()->setData(results->runsModel()->index(0, RunsTableModel::Excluded), Qt::Checked, Qt::CheckStateRole);
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
};

QTEST_MAIN(GuiSweepTest)
#include "GuiSweepTest.moc"
