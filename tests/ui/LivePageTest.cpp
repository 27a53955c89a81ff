// The Live page's state follows the sweep: a new attempt of the same run (a retry, a resume
// after Stop) starts its own timeline; Pause says it waits for the run in progress; a new
// sweep starts with no messages of the last one.
#include "FreshSettings.h"
#include "charts/TimelineChartView.h"
#include "pages/LivePage.h"
#include "pages/PuStrip.h"
#include "pages/MainWindow.h"

#include "ChartTexts.h"

#include <QApplication>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>

#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QTableWidget>
#include <QtTest>

using namespace scalelab;
using namespace scalelab::ui;

namespace {
SweepProgress at(int run, SweepState state) {
    SweepProgress p;
    p.run = run;
    p.total = 4;
    p.series = "A";
    p.clients = 2;
    p.repetition = 1;
    p.state = state;
    return p;
}
// The window at 1024x700 showing its Live page; null when it was never exposed.
LivePage* livePageAtALaptopsSize(MainWindow& window) {
    window.resize(1024, 700);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window)) return nullptr;
    window.showPage(window.livePage());
    return window.livePage();
}
LoadSample sample(double end, double tps) {
    LoadSample s;
    s.endS = end;
    s.tps = tps;
    return s;
}
} // namespace

class LivePageTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { scalelab::test::startWithFreshSettings(); }

    // Issue 61.4 and 61.14: idle, the page says what it is for; elapsed and time left move every
    // second between progress reports; once the sweep ends the PU tiles show no figure.
    void theClockRunsAndTheTilesClearWhenTheSweepEnds() {
        LivePage page(Topology::synthetic("pack:1 core:2 pu:1").info());
        QVERIFY(page.statusLabel()->text().contains(QStringLiteral("start one with Start sweep on the Setup page")));
        page.startSweep();
        page.setRunning(true);
        SweepProgress p = at(1, SweepState::Running);
        p.elapsedS = 10;
        p.etaS = 100;
        page.showProgress(p);
        QVERIFY2(page.statusLabel()->text().contains(QStringLiteral("elapsed 0:00:10, about 0:01:40 left")),
                 qPrintable(page.statusLabel()->text()));
        QTRY_VERIFY2_WITH_TIMEOUT(page.statusLabel()->text().contains(QStringLiteral("elapsed 0:00:12")),
                                  qPrintable(page.statusLabel()->text()), 5000);
        QVERIFY(page.statusLabel()->text().contains(QStringLiteral("about 0:01:38 left")));
        LoadSample s = sample(1, 100);
        SystemSample sys;
        sys.cpu.perPu = {{0, CpuUsage{}}, {1, CpuUsage{}}};
        s.system = sys;
        page.addSample(p, s);
        QVERIFY(!page.puStrip()->busy().empty());
        page.setRunning(false);
        page.showFinished(QString());
        QVERIFY(page.puStrip()->busy().empty());
    }

    void aRetryOfTheSameRunStartsItsOwnTimeline() {
        LivePage page(Topology::synthetic("pack:1 core:2 pu:1").info());
        page.showProgress(at(3, SweepState::Running));
        page.addSample(at(3, SweepState::Running), sample(1, 100));
        page.addSample(at(3, SweepState::Running), sample(2, 110));
        QCOMPARE(page.timeline().size(), size_t{2});
        page.showProgress(at(3, SweepState::Preparing));  // failed; the same run again
        page.showProgress(at(3, SweepState::Running));
        QCOMPARE(page.timeline().size(), size_t{0});
        page.addSample(at(3, SweepState::Running), sample(1, 90));
        QCOMPARE(page.timeline().size(), size_t{1});
    }

    // Issue 62: the current run's waits as they are sampled, the last interval's and the run's
    // so far, largest first; an interval without a read is missing, never 0.
    void theWaitsTabShowsTheRunsWaitsAsTheyAreSampled() {
        LivePage page(Topology::synthetic("pack:1 core:2 pu:1").info());
        page.showProgress(at(1, SweepState::Running));
        QCOMPARE(page.waitsTable()->rowCount(), 0);
        QVERIFY(page.waitsNote()->text().contains(QStringLiteral("appear here while a run is sampled")));
        WaitTally first{kActivitySource, 10, {{"Lock:transactionid", 40}, {"CPU", 10}}};
        WaitTally second{kActivitySource, 20, {{"Lock:transactionid", 50}, {"CPU", 30}, {"LWLock:WALInsert", 5}}};
        LoadSample one = sample(1, 100);
        one.system = SystemSample{};
        one.system->waitsSoFar = first;
        page.addSample(at(1, SweepState::Running), one);
        QCOMPARE(page.waitsTable()->rowCount(), 2);
        QCOMPARE(page.waitsTable()->item(0, 2)->text(), QStringLiteral("Lock:transactionid"));
        QCOMPARE(page.waitsTable()->item(0, 0)->text(), QStringLiteral("-"));  // no interval before the first
        QCOMPARE(page.waitsTable()->item(0, 1)->text(), QStringLiteral("4.00"));
        LoadSample two = sample(2, 100);
        two.system = SystemSample{};
        two.system->waitsSoFar = second;
        two.system->waitSessions = waitSessionsBetween(first, second);
        page.addSample(at(1, SweepState::Running), two);
        QCOMPARE(page.waitsTable()->rowCount(), 3);
        QCOMPARE(page.waitsTable()->item(0, 2)->text(), QStringLiteral("Lock:transactionid"));
        QCOMPARE(page.waitsTable()->item(0, 0)->text(), QStringLiteral("1.00"));  // 10 in 10 reads
        QCOMPARE(page.waitsTable()->item(0, 1)->text(), QStringLiteral("2.50"));  // 50 in 20
        QCOMPARE(page.waitsTable()->item(1, 2)->text(), QStringLiteral("CPU"));
        QCOMPARE(page.waitsTable()->item(1, 0)->text(), QStringLiteral("2.00"));
        QVERIFY2(page.waitsNote()->text().startsWith(QStringLiteral("20 samples of pg_stat_activity")),
                 qPrintable(page.waitsNote()->text()));
        // From pg_wait_sampling the samples are its collector's rounds, and the note says what
        // the sessions' Client:ClientRead includes.
        LoadSample three = sample(3, 100);
        three.system = SystemSample{};
        three.system->waitsSoFar = WaitTally{kWaitSamplingSource, 400, {{"Lock:transactionid", 800}}};
        page.addSample(at(1, SweepState::Running), three);
        QVERIFY2(page.waitsNote()->text().startsWith(QStringLiteral("400 rounds of pg_wait_sampling's collector")),
                 qPrintable(page.waitsNote()->text()));
        QVERIFY(page.waitsNote()->text().contains(QStringLiteral("between transactions too")));
        // A window that started again (the warm-up ended) tells no interval.
        QVERIFY(waitSessionsBetween(second, first).empty());
    }

    // The CPU and disk charts are of one machine, which the page names (docs/hosts.md): a
    // server elsewhere must not be read from this machine's figures.
    void thePageSaysWhoseCpuTheChartsShow() {
        LivePage page(Topology::synthetic("pack:1 core:2 pu:1").info());
        QVERIFY(page.machineLabel()->isHidden());  // nothing known before a run
        SweepProgress p = at(1, SweepState::Running);
        p.metricsMachine = "vm1 (load generator, not the server)";
        page.showProgress(p);
        QVERIFY(!page.machineLabel()->isHidden());
        QCOMPARE(page.machineLabel()->text(), QStringLiteral("CPU, disk and PU figures are of vm1 (load generator, not the server)"));
        QCOMPARE(page.puStrip()->machine().puCount(), 2);  // this machine's PUs

        // A metrics host with 2 cores of 2 PUs: its PUs, with its siblings, and the label says whose.
        p.metricsMachine = "db1 (server)";
        p.metricsMachineCores = {CoreInfo{0, {0, 2}}, CoreInfo{0, {1, 3}}};
        page.showProgress(p);
        QCOMPARE(page.puStrip()->machine().puCount(), 4);
        QCOMPARE(page.puStrip()->machine().maxSmtWidth(), 2);
        QCOMPARE(page.puLabel()->text(), QStringLiteral("Busy % per PU of db1 (server) (SMT siblings side by side)"));
        // Back on this machine's figures: its own PUs again.
        p.metricsMachine = "vm1 (server and load generator)";
        p.metricsMachineCores.clear();
        page.showProgress(p);
        QCOMPARE(page.puStrip()->machine().puCount(), 2);
        QCOMPARE(page.puLabel()->text(), QStringLiteral("Busy % per PU (SMT siblings side by side)"));
    }

    void theWholeSweepTimelineKeepsEveryRunWithItsStartMarked() {
        LivePage page(Topology::synthetic("pack:1 core:2 pu:1").info());
        page.startSweep();
        SweepProgress first = at(1, SweepState::Running);
        first.elapsedS = 0;
        page.showProgress(first);
        page.addSample(first, sample(1, 100));
        page.addSample(first, sample(2, 110));
        SweepProgress second = at(2, SweepState::Running);
        second.elapsedS = 7;  // the settle pause and the reconnect lie between
        page.showProgress(at(2, SweepState::Settling));
        page.showProgress(second);
        page.addSample(second, sample(1, 300));
        QCOMPARE(page.timeline().size(), size_t{1});        // the current run only
        QCOMPARE(page.sweepTimeline().size(), size_t{3});   // every run
        QCOMPARE(page.sweepTimeline().boundaries(), (std::vector<double>{0, 7}));
        QCOMPARE(page.sweepTimeline().lastX(), 8.0);
        QCOMPARE(page.sweepTimeline().maxOf(QStringLiteral("tps")), 300.0);
        QVERIFY(page.sweepTpsChart()->pointCount() >= 3 + 6);  // tps, and two boundaries drawn
        page.startSweep();
        QCOMPARE(page.sweepTimeline().size(), size_t{0});
    }

    void pauseSaysItWaitsForTheRunInProgress() {
        LivePage page(Topology::synthetic("pack:1 core:2 pu:1").info());
        page.setRunning(true);
        page.showProgress(at(2, SweepState::Running));
        page.pauseButton()->click();
        QVERIFY2(page.statusLabel()->text().endsWith(QStringLiteral("[running; pausing after this run]")),
                 qPrintable(page.statusLabel()->text()));
        page.showProgress(at(2, SweepState::Paused));
        QVERIFY(page.statusLabel()->text().endsWith(QStringLiteral("[paused]")));
    }

    void aNewSweepStartsWithoutTheLastOnesMessages() {
        LivePage page(Topology::synthetic("pack:1 core:2 pu:1").info());
        page.addWarning(QStringLiteral("run 2 failed: the server died"));
        QCOMPARE(page.messages()->count(), 1);
        QVERIFY(page.messages()->item(0)->foreground().color() != QColor(Qt::black));  // marked
        page.startSweep();
        QCOMPARE(page.messages()->count(), 0);
        QCOMPARE(page.statusLabel()->text(), QStringLiteral("Starting the sweep"));
    }
    // Issue 32.9: commits/s (~3,000) lay flat under logical reads/s (~80,000) on one axis; the x
    // axis was 0-10 s for 5 s runs; at 1024 wide the ticks read "0 ... 5 ... 10" and the legend
    // "logical re..."; the charts stayed empty for ~2 s at each run start.
    void theRunChartsFitTheRunAndAreReadableAtALaptopsWidth() {
        MainWindow window;
        LivePage* page = livePageAtALaptopsSize(window);
        QVERIFY(page);
        SweepProgress p = at(1, SweepState::Running);
        p.runS = 5;
        page->showProgress(p);
        LoadSample first = sample(1, 3000);
        SystemSample system;
        system.server = ServerCounterRates{};
        system.server->commits = 3000;
        system.server->logicalReads = 80000;
        first.system = system;
        page->addSample(p, first);
        QApplication::processEvents();
        QList<TimelineChartView*> charts = page->runCharts();
        QCOMPARE(charts.size(), 6);
        // The first sample shows at once: a dot, before there are two to join.
        auto* tpsLine = qobject_cast<QLineSeries*>(charts[0]->chart()->series().first());
        QVERIFY(tpsLine && tpsLine->count() == 1 && tpsLine->pointsVisible());
        // The x axis is the run's 5 s, ticked in whole seconds.
        auto* x = qobject_cast<QValueAxis*>(charts[0]->chart()->axes(Qt::Horizontal).first());
        QCOMPARE(x->max(), 5.0);
        QCOMPARE(x->tickInterval(), 1.0);
        // Commits and reads each on an axis of their own size.
        QChart* server = charts[5]->chart();
        QList<QAbstractAxis*> ys = server->axes(Qt::Vertical);
        QCOMPARE(ys.size(), 2);
        auto* commits = qobject_cast<QXYSeries*>(server->series().at(0));
        auto* reads = qobject_cast<QXYSeries*>(server->series().at(1));
        auto axisMax = [](QXYSeries* s) {
            for (QAbstractAxis* a : s->attachedAxes())
                if (a->orientation() == Qt::Vertical) return qobject_cast<QValueAxis*>(a)->max();
            return -1.0;
        };
        QVERIFY2(axisMax(commits) >= 3000 && axisMax(commits) <= 10000, qPrintable(QString::number(axisMax(commits))));
        QVERIFY2(axisMax(reads) >= 80 && axisMax(reads) <= 200, qPrintable(QString::number(axisMax(reads))));  // in thousands
        QCOMPARE(ys.at(1)->titleText(), QStringLiteral("k reads/s"));
        if (qEnvironmentVariableIsSet("SCALELAB_TEST_SHOT")) window.grab().save(qEnvironmentVariable("SCALELAB_TEST_SHOT"));
        // Nothing shortened to "..." at 1024 wide: ticks, axis titles, legends.
        for (TimelineChartView* c : charts) {
            QStringList elided = test::elidedTexts(c->chart());
            QVERIFY2(elided.isEmpty(), qPrintable(c->chart()->title() + QStringLiteral(": ") + elided.join(QStringLiteral(" | "))));
        }
    }

    // TPROC-C's runs show NOPM beside tps (issue 36), on an axis of its own; other runs' charts
    // have no NOPM line, axis or legend entry.
    void tproccRunsShowNopmBesideTpsAndOtherRunsDoNot() {
        MainWindow window;
        LivePage* page = livePageAtALaptopsSize(window);
        QVERIFY(page);
        page->startSweep();
        QVERIFY(!page->showsNopm());
        SweepProgress p = at(1, SweepState::Running);
        p.runS = 5;
        p.scriptSet = "tprocc";
        page->showProgress(p);
        QVERIFY(page->showsNopm());
        LoadSample s = sample(1, 101);
        s.startS = 0;
        s.scriptTransactions = {45, 1, 43, 4, 4, 4};  // new_order first: 45 in 1 s
        page->addSample(p, s);
        s.startS = 1, s.endS = 1.5;
        page->addSample(p, s);  // 45 in half a second
        QApplication::processEvents();
        QCOMPARE(page->timeline().maxOf(QStringLiteral("nopm")), 5400.0);
        QCOMPARE(page->sweepTimeline().maxOf(QStringLiteral("nopm")), 5400.0);
        QChart* chart = page->runCharts().at(0)->chart();
        QCOMPARE(chart->series().size(), 2);
        auto* nopm = qobject_cast<QLineSeries*>(chart->series().at(1));
        QVERIFY(nopm && nopm->isVisible() && nopm->count() == 2);
        QCOMPARE(chart->axes(Qt::Vertical).size(), 2);
        QVERIFY(chart->axes(Qt::Vertical).at(1)->isVisible());
        QCOMPARE(chart->axes(Qt::Vertical).at(1)->titleText(), QStringLiteral("k NOPM"));  // a 10,000 axis, in thousands
        QVERIFY(chart->legend()->markers(nopm).first()->isVisible());
        if (qEnvironmentVariableIsSet("SCALELAB_TEST_SHOT")) window.grab().save(qEnvironmentVariable("SCALELAB_TEST_SHOT"));
        QStringList elided = test::elidedTexts(chart);
        QVERIFY2(elided.isEmpty(), qPrintable(elided.join(QStringLiteral(" | "))));

        // A pgbench sweep after it: tps alone, and no NOPM from samples that have none.
        page->startSweep();
        SweepProgress q = at(1, SweepState::Running);
        page->showProgress(q);
        QVERIFY(!page->showsNopm());
        page->addSample(q, s);
        QVERIFY(!page->timeline().has(QStringLiteral("nopm")));
        QVERIFY(!nopm->isVisible());
        QVERIFY(!chart->axes(Qt::Vertical).at(1)->isVisible());
        QVERIFY(!chart->legend()->markers(nopm).first()->isVisible());
    }
};

QTEST_MAIN(LivePageTest)
#include "LivePageTest.moc"
