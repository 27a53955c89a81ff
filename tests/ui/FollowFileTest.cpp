// The Results page follows an experiment file that another writer (a CLI sweep) is writing:
// it says so, new runs appear without resetting the table, and the note goes when the
// writer is done.
#include "pages/ResultsPage.h"
#include "server/EmbeddedServer.h"
#include "store/ExperimentStore.h"
#include "util/TempDir.h"

#include <QLabel>
#include <QSignalSpy>
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
        page.load(QString::fromStdString(path));
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
        page.load(QString::fromStdString(first));
        writer->saveRun(completedRun(2, 180, 1), {});
        page.followFile();  // reads first.slab, now with 2 runs
        page.load(QString::fromStdString(second));
        QTest::qWait(500);
        QCOMPARE(page.runsModel()->rowCount(), 1);
        QCOMPARE(page.runsModel()->run(0).clients, 4);
    }

    void aRunItAlreadyHasIsNotAddedTwice() {
        TempDir dir("scalelab-follow");
        std::string path = (dir.path() / "e.slab").string();
        auto writer = ExperimentStore::create(path);
        RunRecord r = completedRun(1, 100, 0);
        r.id = writer->saveRun(r, {});
        ResultsPage page(Topology::synthetic("pack:1 core:2 pu:1").info());
        page.load(QString::fromStdString(path));
        page.addRun(r);  // the window's own sweep reports the run the file already showed
        QCOMPARE(page.runsModel()->rowCount(), 1);
    }
};

QTEST_MAIN(FollowFileTest)
#include "FollowFileTest.moc"
