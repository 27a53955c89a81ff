// Two things a user types: "excluded" in the runs filter finds the excluded runs (the check
// box has no text), and Ctrl+Tab switches pages even from a drop-down that has the focus.
#include "FreshSettings.h"
#include "OpenAndWait.h"

#include "pages/MainWindow.h"
#include "pages/ResultsPage.h"
#include "server/EmbeddedServer.h"
#include "store/ExperimentStore.h"
#include "util/TempDir.h"

#include <QComboBox>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTabWidget>
#include <QtTest>

using namespace scalelab;
using namespace scalelab::ui;

class WindowKeysAndFilterTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { scalelab::test::startWithFreshSettings(); }

    void theRunsFilterFindsExcludedRuns() {
        TempDir dir("scalelab-filter");
        std::string path = (dir.path() / "e.slab").string();
        {
            auto store = ExperimentStore::create(path);
            for (int i = 0; i < 3; ++i) {
                RunRecord r;
                r.series = "A";
                r.clients = 1 << i;
                r.threads = 1;
                r.repetition = 1;
                r.status = RunStatus::Completed;
                r.tps = 100.0 * (i + 1);
                r.runIndex = i;
                r.startedAt = r.endedAt = "2026-11-30T08:00:00Z";
                int64_t id = store->saveRun(r, {});
                if (i == 1) store->setExcluded(id, true);
            }
        }
        ResultsPage page(Topology::synthetic("pack:1 core:2 pu:1").info());
        QVERIFY(test::loadAndWait(page, QString::fromStdString(path)));
        QCOMPARE(page.runsProxy()->rowCount(), 3);
        page.runsFilter()->setText(QStringLiteral("excluded"));
        QCOMPARE(page.runsProxy()->rowCount(), 1);
        QCOMPARE(page.runsProxy()->data(page.runsProxy()->index(0, RunsTableModel::Clients)).toInt(), 2);
        page.runsFilter()->setText(QStringLiteral("counted"));
        QCOMPARE(page.runsProxy()->rowCount(), 2);
    }

    void ctrlTabSwitchesPagesFromADropDown() {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QComboBox* combo = window.findChild<QComboBox*>();  // one on the Setup page
        QVERIFY(combo);
        combo->setFocus();
        QCOMPARE(window.tabs()->currentIndex(), 0);
        QTest::keyClick(combo, Qt::Key_Tab, Qt::ControlModifier);
        QCOMPARE(window.tabs()->currentIndex(), 1);
        QTest::keyClick(window.tabs()->currentWidget(), Qt::Key_Backtab, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(window.tabs()->currentIndex(), 0);
    }
};

QTEST_MAIN(WindowKeysAndFilterTest)
#include "WindowKeysAndFilterTest.moc"
