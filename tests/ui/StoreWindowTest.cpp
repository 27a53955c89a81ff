// The window with a PostgreSQL results store (the embedded server as the store): the store's
// experiments listed off the GUI thread, one opened as a file is, the series of another added
// to compare across experiments, a run stored by another writer followed, and a copy saved to
// a file.
#include "FreshSettings.h"
#include "OpenAndWait.h"
#include "RunRecords.h"
#include "ServerRequirement.h"
#include "ThrowawayServer.h"

#include "models/RunsTableModel.h"
#include "pages/MainWindow.h"
#include "pages/ResultsPage.h"
#include "pages/StoreDialog.h"
#include "store/ExperimentStore.h"
#include "store/PgStore.h"
#include "util/TempDir.h"

#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QtTest>

using namespace scalelab;
using namespace scalelab::ui;

namespace {
RunRecord completedRun(const std::string& series, int clients, double tps) { return test::completedRun(series, clients, 1, tps); }
} // namespace

class StoreWindowTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { scalelab::test::startWithFreshSettings(); }

    void listsOpensComparesAndFollowsExperimentsInAStore() {
        SCALELAB_QREQUIRE_SERVER();
        test::ThrowawayServer server;
        const std::string store = server.server.connectionString("postgres");
        const std::string head = storeLocation(store, "head"), patch = storeLocation(store, "patch");
        {
            auto e = ExperimentStore::create(head);
            e->saveRun(completedRun("A", 1, 100), {});
            e->saveRun(completedRun("A", 2, 190), {});
            auto p = ExperimentStore::create(patch);
            p->saveRun(completedRun("A", 1, 120), {});
            p->setNote("the patch\nsecond line");
        }

        MainWindow window;
        StoreDialog* dialog = window.showStoreDialog();
        QSignalSpy listed(dialog, &StoreDialog::listed);
        dialog->list(QString::fromStdString(store));
        QVERIFY(listed.wait(30000));
        QCOMPARE(listed.first().at(1).toString(), QString());
        QCOMPARE(dialog->table()->rowCount(), 2);
        QCOMPARE(dialog->table()->item(0, 0)->text(), QStringLiteral("head"));
        QCOMPARE(dialog->table()->item(1, 1)->text(), QStringLiteral("1"));
        QCOMPARE(dialog->table()->item(1, 4)->text(), QStringLiteral("the patch"));

        // Open the first, as from a file.
        QSignalSpy opened(&window, &MainWindow::experimentOpened);
        dialog->table()->selectRow(0);
        QCOMPARE(dialog->selectedLocation(), QString::fromStdString(head));
        emit dialog->openRequested(dialog->selectedLocation());
        QVERIFY(opened.wait(30000));
        QCOMPARE(window.experimentPath(), QString::fromStdString(head));
        QCOMPARE(window.resultsPage()->runsModel()->rowCount(), 2);
        QVERIFY(window.windowTitle().endsWith(QStringLiteral("head")));

        // Compare across experiments: the other one's series join the chart.
        QCOMPARE(test::addAndWait(*window.resultsPage(), QString::fromStdString(patch)), QString());
        QCOMPARE(window.resultsPage()->seriesOrder(), (std::vector<std::string>{"A", "A [patch]"}));

        // Another writer adds a run: the page follows the store.
        {
            auto writer = ExperimentStore::open(head);
            writer->saveRun(completedRun("A", 4, 300), {});
            window.resultsPage()->followFile();
            QTRY_VERIFY_WITH_TIMEOUT(!window.resultsPage()->followNote()->isHidden(), 30000);
            QVERIFY(window.resultsPage()->followNote()->text().contains(QStringLiteral("A sweep is writing this experiment")));
            QTRY_COMPARE_WITH_TIMEOUT(window.resultsPage()->runsModel()->rowCount(), 3, 30000);
            QCOMPARE(window.resultsPage()->allRuns().size(), size_t(4));  // and the added experiment's run
        }

        // Saved as a file: every run, then the file is what the window shows.
        TempDir dir("scalelab-store-window");
        QString file = QString::fromStdString((dir.path() / "head.slab").string());
        QSignalSpy reopened(&window, &MainWindow::experimentOpened);
        QString error = QStringLiteral("(no answer)");
        window.saveExperimentAs(file, [&error](const QString& e) { error = e; });
        QVERIFY(reopened.wait(30000));
        QCOMPARE(error, QString());
        QCOMPARE(window.experimentPath(), file);
        QCOMPARE(ExperimentStore::open(file.toStdString(), true)->runs().size(), size_t(3));

        // A store that cannot be reached says so, in libpq's words.
        listed.clear();
        dialog->list(QStringLiteral("host=/nonexistent/socket/dir dbname=x"));
        QVERIFY(listed.wait(30000));
        QVERIFY2(listed.first().at(1).toString().contains(QStringLiteral("cannot connect to the results store")),
                 qPrintable(listed.first().at(1).toString()));
        QCOMPARE(dialog->table()->rowCount(), 0);
    }
};

QTEST_MAIN(StoreWindowTest)
#include "StoreWindowTest.moc"
