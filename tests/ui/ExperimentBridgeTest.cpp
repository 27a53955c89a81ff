// The bridge between pages and experiment files: tasks run in the order asked (a read after a
// write sees it), a write asked for just before the bridge goes is still made, and a file that
// cannot be read is an error naming it, never an empty experiment.
#include "bridge/ExperimentBridge.h"
#include "store/CombinedRuns.h"
#include "util/TempDir.h"

#include "RunRecords.h"

#include <QSignalSpy>
#include <QtTest>

#include <memory>

using namespace scalelab;
using namespace scalelab::ui;

class ExperimentBridgeTest : public QObject {
    Q_OBJECT

private slots:
    void aReadAfterAWriteSeesIt() {
        TempDir dir("scalelab-bridge");
        std::string path = (dir.path() / "e.slab").string();
        ExperimentStore::create(path)->saveRun(test::completedRun("A", 1, 1, 100, 0), {});
        ExperimentBridge bridge;
        QString file = QString::fromStdString(path);
        std::vector<std::string> seen;
        bool excludedSeen = false;
        int64_t id = ExperimentStore::open(path, true)->runs().at(0).id;
        bridge.setExcluded(file, id, true, [&] { seen.push_back("excluded"); }, [](const QString& e) { QFAIL(qPrintable(e)); });
        bridge.setNote(file, QStringLiteral("HEAD"), [&](OverviewText t) { seen.push_back("note " + t.note); },
                       [](const QString& e) { QFAIL(qPrintable(e)); });
        bridge.readExperiment(
            file,
            [&](ExperimentSnapshot s) {
                excludedSeen = s.runs.at(0).excluded;
                seen.push_back("read");
            },
            [](const QString& e) { QFAIL(qPrintable(e)); });
        QCOMPARE(bridge.pending(), 3);
        QTRY_COMPARE(bridge.pending(), 0);
        QCOMPARE(seen, (std::vector<std::string>{"excluded", "note HEAD", "read"}));
        QVERIFY(excludedSeen);
    }

    void aWriteAskedForIsMadeEvenWhenTheBridgeGoes() {
        TempDir dir("scalelab-bridge");
        std::string path = (dir.path() / "e.slab").string();
        ExperimentStore::create(path)->saveRun(test::completedRun("A", 1, 1, 100, 0), {});
        int64_t id = ExperimentStore::open(path, true)->runs().at(0).id;
        bool delivered = false;
        {
            auto bridge = std::make_unique<ExperimentBridge>();
            bridge->setRunNote(QString::fromStdString(path), id, QStringLiteral("cron job ran"), [&] { delivered = true; },
                               [](const QString&) {});
        }  // the window closes
        QCoreApplication::processEvents();
        QVERIFY(!delivered);  // nobody is left to tell
        QCOMPARE(ExperimentStore::open(path, true)->runs().at(0).note, std::string("cron job ran"));
    }

    void aFileThatCannotBeReadIsAnErrorNamingIt() {
        TempDir dir("scalelab-bridge");
        QString missing = QString::fromStdString((dir.path() / "missing.slab").string());
        ExperimentBridge bridge;
        QString error;
        bool read = false;
        bridge.readExperiment(missing, [&](ExperimentSnapshot) { read = true; }, [&](const QString& e) { error = e; });
        bridge.readSamples(missing, 1, [&](std::vector<StoredSample>) { read = true; }, [&](const QString& e) { error += e; });
        QTRY_COMPARE(bridge.pending(), 0);
        QVERIFY(!read);
        QVERIFY2(error.count(QStringLiteral("missing.slab")) >= 2, qPrintable(error));
        QVERIFY(!QFile::exists(missing));  // a read never creates the file
    }

    void anotherExperimentsSeriesAreAddedUnderTheirFilesName() {
        TempDir dir("scalelab-bridge");
        std::string other = (dir.path() / "patch.slab").string();
        ExperimentStore::create(other)->saveRun(test::completedRun("A", 2, 1, 200, 0), {});
        ExperimentBridge bridge;
        CombinedRuns into;
        into.order = {"A"};
        std::vector<std::string> order;
        size_t runs = 0;
        bridge.addExperimentRuns(into, QString::fromStdString(other), [&](CombinedRuns c) {
            order = c.order;
            runs = c.runs.size();
        }, [](const QString& e) { QFAIL(qPrintable(e)); });
        QTRY_COMPARE(bridge.pending(), 0);
        QCOMPARE(order, (std::vector<std::string>{"A", "A [patch.slab]"}));
        QCOMPARE(runs, size_t{1});
    }
};

QTEST_MAIN(ExperimentBridgeTest)
#include "ExperimentBridgeTest.moc"
