// The Results page follows an experiment file that another writer (a CLI sweep) is writing:
// it says so, new runs appear without resetting the table, and the note goes when the
// writer is done.
#include "OpenAndWait.h"

#include "charts/TimelineChartView.h"
#include "models/RunsTableModel.h"
#include "pages/ResultsPage.h"
#include "server/EmbeddedServer.h"
#include "store/ExperimentStore.h"
#include "util/TempDir.h"

#include <QLabel>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QTimer>
#include <QtTest>

using namespace scalelab;
using namespace scalelab::ui;

namespace {
RunRecord completedRun(int clients, double tps, int64_t index) {
    RunRecord r;
    r.series = "A";
    r.clients = clients;
    r.threads = 1;
    r.repetition = 1;
    r.status = RunStatus::Completed;
    r.tps = tps;
    r.runIndex = index;
    r.startedAt = r.endedAt = "2026-11-30T08:00:00Z";
    return r;
}
} // namespace

class FollowFileTest : public QObject {
    Q_OBJECT

private slots:
    void followsAFileAnotherWriterIsWriting() {
        TempDir dir("scalelab-follow");
        std::string path = (dir.path() / "e.slab").string();
        auto writer = ExperimentStore::create(path);  // holds the writer's lock, as a sweep does
        writer->saveRun(completedRun(1, 100, 0), {});

        ResultsPage page(Topology::synthetic("pack:1 core:2 pu:1").info());
        QVERIFY(test::loadAndWait(page, QString::fromStdString(path)));
        QCOMPARE(page.runsModel()->rowCount(), 1);
        QVERIFY(page.followTimer()->isActive());
        QVERIFY(!page.followNote()->isHidden());
        QVERIFY(page.followNote()->text().contains(QStringLiteral("A sweep is writing this file")));

        QSignalSpy resets(page.runsModel(), &QAbstractItemModel::modelReset);
        writer->saveRun(completedRun(2, 180, 1), {});
        page.followFile();  // what the timer does every 2 s; the file is read off the GUI thread
        QTRY_COMPARE(page.runsModel()->rowCount(), 2);
        QCOMPARE(resets.count(), 0);  // rows appended: the selection stays
        QCOMPARE(page.data().series.size(), 1);
        QCOMPARE(page.data().series[0].points.size(), 2);
        // One series is not compared with itself.
        QCOMPARE(page.comparisonTable()->rowCount(), 1);
        QVERIFY(page.comparisonTable()->item(0, 0)->text().contains(QStringLiteral("nothing to compare")));

        QSignalSpy changes(page.runsModel(), &QAbstractItemModel::dataChanged);
        page.followFile();  // unchanged file: nothing read again
        QTest::qWait(200);
        QCOMPARE(changes.count(), 0);
        QCOMPARE(page.runsModel()->rowCount(), 2);

        writer.reset();  // the sweep ends
        page.followFile();
        QVERIFY(page.followNote()->isHidden());
        QCOMPARE(page.runsModel()->rowCount(), 2);
    }

    // A follow read still in flight when another experiment is loaded is dropped: the page
    // shows the experiment it was asked for, not the one it was following.
    void aFollowReadInFlightDoesNotOverwriteALaterLoad() {
        TempDir dir("scalelab-follow");
        std::string first = (dir.path() / "first.slab").string(), second = (dir.path() / "second.slab").string();
        auto writer = ExperimentStore::create(first);
        writer->saveRun(completedRun(1, 100, 0), {});
        ExperimentStore::create(second)->saveRun(completedRun(4, 400, 0), {});
        ResultsPage page(Topology::synthetic("pack:1 core:2 pu:1").info());
        QVERIFY(test::loadAndWait(page, QString::fromStdString(first)));
        writer->saveRun(completedRun(2, 180, 1), {});
        page.followFile();  // reads first.slab, now with 2 runs
        QSignalSpy inserted(page.runsModel(), &QAbstractItemModel::rowsInserted);
        QVERIFY(test::loadAndWait(page, QString::fromStdString(second)));
        QTest::qWait(200);
        // The follow read arrived after the load was asked for: it was dropped, not appended.
        QCOMPARE(inserted.count(), 0);
        QCOMPARE(page.runsModel()->rowCount(), 1);
        QCOMPARE(page.runsModel()->run(0).clients, 4);
        QCOMPARE(page.path(), QString::fromStdString(second));
    }

    // A file that cannot be read is an error, and the page keeps what it showed.
    void aFileThatCannotBeReadKeepsWhatThePageShows() {
        TempDir dir("scalelab-follow");
        std::string good = (dir.path() / "good.slab").string();
        ExperimentStore::create(good)->saveRun(completedRun(4, 400, 0), {});
        ResultsPage page(Topology::synthetic("pack:1 core:2 pu:1").info());
        QVERIFY(test::loadAndWait(page, QString::fromStdString(good)));
        QString missing = QString::fromStdString((dir.path() / "missing.slab").string());
        QSignalSpy failed(&page, &ResultsPage::loadFailed);
        page.load(missing);
        QVERIFY(page.loading());
        QVERIFY(failed.wait());
        QCOMPARE(failed.first().at(0).toString(), missing);
        QVERIFY2(failed.first().at(1).toString().contains(QStringLiteral("missing.slab")), qPrintable(failed.first().at(1).toString()));
        QVERIFY(!page.loading());
        QCOMPARE(page.path(), QString::fromStdString(good));
        QCOMPARE(page.runsModel()->rowCount(), 1);
        QVERIFY(page.followTimer()->isActive());
    }

    // An edit made while the file is being read again is not undone by that read (it was
    // read before the edit was written).
    void anEditDuringALoadSurvivesIt() {
        TempDir dir("scalelab-follow");
        std::string path = (dir.path() / "e.slab").string();
        {
            auto store = ExperimentStore::create(path);
            store->saveRun(completedRun(1, 100, 0), {});
            store->saveRun(completedRun(2, 180, 1), {});
        }
        ResultsPage page(Topology::synthetic("pack:1 core:2 pu:1").info());
        QVERIFY(test::loadAndWait(page, QString::fromStdString(path)));
        QSignalSpy loaded(&page, &ResultsPage::loaded);
        QSignalSpy edited(&page, &ResultsPage::runsEdited);
        page.load(QString::fromStdString(path));  // read again (as after a sweep)
        QVERIFY(page.runsModel()->setData(page.runsModel()->index(0, RunsTableModel::Excluded), Qt::Checked, Qt::CheckStateRole));
        QVERIFY(loaded.wait());
        QVERIFY(page.runsModel()->run(0).excluded);  // as the page shows it loaded, not later
        QTRY_VERIFY(edited.count() == 1);
        QVERIFY(ExperimentStore::open(path, true)->runs()[0].excluded);
    }

    // A run's samples are read off the GUI thread; the run chart draws them.
    void selectingARunDrawsItsSamples() {
        TempDir dir("scalelab-follow");
        std::string path = (dir.path() / "e.slab").string();
        {
            auto store = ExperimentStore::create(path);
            std::vector<StoredSample> samples;
            for (int i = 1; i <= 5; ++i) {
                StoredSample s;
                s.endS = i;
                s.tps = 100.0 * i;
                samples.push_back(s);
            }
            store->saveRun(completedRun(1, 300, 0), samples);
            store->saveRun(completedRun(2, 500, 1), {});
        }
        ResultsPage page(Topology::synthetic("pack:1 core:2 pu:1").info());
        QVERIFY(test::loadAndWait(page, QString::fromStdString(path)));
        QSignalSpy shown(&page, &ResultsPage::runShown);
        int row = page.runsModel()->run(0).clients == 1 ? 0 : 1;  // the run with samples
        int64_t id = page.runsModel()->run(row).id;
        page.runsView()->setCurrentIndex(page.runsProxy()->mapFromSource(page.runsModel()->index(row, 0)));
        QVERIFY(shown.wait());
        QCOMPARE(shown.first().at(0).toLongLong(), id);
        QCOMPARE(page.runChart()->pointCount(), 5);
    }

    // A run whose clients came from load hosts shows each host under its chart: share, tps, CPU,
    // network, clock; a client-bound host marked; what a host did not measure left out.
    void aSelectedRunShowsItsLoadHosts() {
        TempDir dir("scalelab-follow");
        std::string path = (dir.path() / "e.slab").string();
        {
            auto store = ExperimentStore::create(path);
            RunRecord r = completedRun(4, 900, 0);
            r.detail["load_hosts"] = {{{"host", "bench@client1"}, {"clients", 2}, {"tps", 500.0}, {"cpu_busy_pct", 97.0},
                                       {"network_rx_MB_s", 1.5}, {"network_tx_MB_s", 0.25}, {"clock_offset_ms", 1.5},
                                       {"client_bound", true}},
                                      {{"host", "local"}, {"clients", 2}, {"tps", 400.0}, {"cpu_busy_pct", nullptr},
                                       {"network_rx_MB_s", nullptr}, {"clock_offset_ms", 0.0}, {"client_bound", false}}};
            store->saveRun(r, {});
            store->saveRun(completedRun(8, 1000, 1), {});
        }
        ResultsPage page(Topology::synthetic("pack:1 core:2 pu:1").info());
        QVERIFY(test::loadAndWait(page, QString::fromStdString(path)));
        auto select = [&](int clients) {
            int row = page.runsModel()->run(0).clients == clients ? 0 : 1;
            page.runsView()->setCurrentIndex(page.runsProxy()->mapFromSource(page.runsModel()->index(row, 0)));
        };
        select(4);
        QVERIFY(!page.runHostsLabel()->isHidden());
        QCOMPARE(page.runHostsLabel()->text(),
                 QStringLiteral("Load hosts:\nbench@client1: 2 clients, 500.0 tps, CPU busy 97%, network in 1.50 out 0.25 MB/s, "
                                "clock +1.5 ms, CLIENT-BOUND: this host limits the result\nlocal: 2 clients, 400.0 tps, clock +0.0 ms"));
        select(8);
        QVERIFY(page.runHostsLabel()->isHidden());
    }

    // The window's own sweep says when it stored a run; the page reads the run from the file,
    // the one road runs take to it, so a run it already has is not shown twice.
    void aStoredRunIsReadFromTheFileOnce() {
        TempDir dir("scalelab-follow");
        std::string path = (dir.path() / "e.slab").string();
        auto writer = ExperimentStore::create(path);
        RunRecord r = completedRun(1, 100, 0);
        r.id = writer->saveRun(r, {});
        ResultsPage page(Topology::synthetic("pack:1 core:2 pu:1").info());
        QVERIFY(test::loadAndWait(page, QString::fromStdString(path)));
        page.runStored();  // nothing new in the file
        QTest::qWait(300);
        QCOMPARE(page.runsModel()->rowCount(), 1);
        RunRecord second = completedRun(2, 110, 1);
        second.id = writer->saveRun(second, {});
        page.runStored();
        QTRY_COMPARE(page.runsModel()->rowCount(), 2);
        QCOMPARE(page.runsModel()->run(1).id, second.id);
    }
};

QTEST_MAIN(FollowFileTest)
#include "FollowFileTest.moc"
