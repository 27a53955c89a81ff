// Why the curve bends in the window (issue 62): the Results page's Waits tab (a series' sessions
// stacked by wait event at each x, one point's events, and against another series the event
// whose wait per transaction grew called) and CPU profile tab (a flame graph with zoom, search
// and tooltips beside the functions; against another series the differential graph and the
// function that grew called), fed from an experiment file as a user opens it; and what is
// missing said as missing.
#include "OpenAndWait.h"
#include "RunRecords.h"

#include "charts/FlameGraphView.h"
#include "charts/WaitsChartView.h"
#include "pages/PointChoice.h"
#include "pages/ProfilePanel.h"
#include "pages/ResultsPage.h"
#include "pages/WaitsPanel.h"
#include "store/ExperimentStore.h"
#include "util/TempDir.h"

#include <QComboBox>
#include <memory>
#include <QLabel>
#include <QLineEdit>
#include <QTableWidget>
#include <QtTest>

using namespace scalelab;
using namespace scalelab::ui;

namespace {

// A at 1 and 8 clients, B at 8 spending more per transaction in md5 and waiting on WALInsert;
// a third round of A at 8 without waits or profile.
std::string writeExperiment(const TempDir& dir) {
    std::string path = (dir.path() / "e.slab").string();
    auto store = ExperimentStore::create(path);
    int64_t index = 0;
    for (int round = 1; round <= 3; ++round) {
        uint64_t j = static_cast<uint64_t>(round);
        RunRecord a1 = test::profiledRun("A", round, 10000 + 10 * j, {{"client backend;main;exec;scan", 100}}, 1, index++);
        test::addWaits(a1, {{"CPU", 60}});
        RunRecord a8 = test::profiledRun("A", round, 20000 + 10 * j,
                                         {{"client backend;main;exec;scan", 200 + j}, {"client backend;main;exec;md5", 4}}, 8, index++);
        test::addWaits(a8, {{"CPU", 300 + j}, {"Lock:transactionid", 400}});
        RunRecord b8 = test::profiledRun("B", round, 14000 + 10 * j,
                                         {{"client backend;main;exec;scan", 140 + j}, {"client backend;main;exec;md5", 300 + 2 * j}}, 8,
                                         index++);
        test::addWaits(b8, {{"CPU", 300 + j}, {"Lock:transactionid", 400}, {"LWLock:WALInsert", 100 + 2 * j}});
        for (const RunRecord& r : {a1, a8, b8}) store->saveRun(r, {});
    }
    store->saveRun(test::completedRun("A", 8, 4, 2000, index++), {});
    return path;
}

// The first column whose header is `name`; -1 when none.
int column(QTableWidget* t, const QString& name) {
    for (int c = 0; c < t->columnCount(); ++c)
        if (t->horizontalHeaderItem(c) && t->horizontalHeaderItem(c)->text() == name) return c;
    return -1;
}

} // namespace

class DiagnosticsViewTest : public QObject {
    Q_OBJECT

    std::unique_ptr<TempDir> dir_;
    ResultsPage* page_ = nullptr;

private slots:
    void init() {
        page_ = new ResultsPage(Topology::synthetic("pack:1 core:2 pu:1").info());
        page_->resize(1366, 768);
        page_->show();
        dir_ = std::make_unique<TempDir>("scalelab-diagnostics-view");
        QVERIFY(test::loadAndWait(*page_, QString::fromStdString(writeExperiment(*dir_))));
    }
    void cleanup() {
        delete page_;
        page_ = nullptr;
    }

    void theWaitsTabStacksTheSessionsAndCallsTheEventThatGrew() {
        WaitsPanel* waits = page_->waits();
        QCOMPARE(waits->choice()->seriesCombo()->currentText(), QStringLiteral("A"));
        QCOMPARE(waits->choice()->xCombo()->currentText(), QStringLiteral("8"));  // the highest, until one is picked
        QCOMPARE(waits->chart()->xLabels(), QStringList({QStringLiteral("1"), QStringLiteral("8")}));
        QCOMPARE(waits->chart()->eventNames(), QStringList({QStringLiteral("Lock:transactionid"), QStringLiteral("CPU")}));
        QTableWidget* t = waits->table();
        QCOMPARE(t->rowCount(), 2);
        QCOMPARE(t->item(0, 0)->text(), QStringLiteral("Lock:transactionid"));
        QCOMPARE(t->item(0, column(t, QStringLiteral("Sessions")))->text(), QStringLiteral("4.00"));
        QVERIFY2(waits->note()->text().contains(QStringLiteral("1 of 4 runs have no waits")), qPrintable(waits->note()->text()));

        waits->choice()->seriesCombo()->setCurrentText(QStringLiteral("B"));
        waits->choice()->againstCombo()->setCurrentText(QStringLiteral("A"));
        // Per transaction B waits longer on the lock too (the same sessions, fewer transactions).
        int walInsert = -1;
        for (int row = 0; row < t->rowCount(); ++row)
            if (t->item(row, 0)->text() == QStringLiteral("LWLock:WALInsert")) walInsert = row;
        QVERIFY(walInsert >= 0);
        QCOMPARE(t->item(walInsert, column(t, QStringLiteral("Verdict")))->text(), QStringLiteral("distinguishable"));
        QVERIFY2(waits->note()->text().contains(QStringLiteral("Bonferroni over 3 events")), qPrintable(waits->note()->text()));
        // B has no point at 1 client: its chart has one bar, and 1 is not offered as B's x.
        QCOMPARE(waits->chart()->xLabels(), QStringList({QStringLiteral("8")}));
        waits->choice()->xCombo()->setCurrentText(QStringLiteral("1"));
        QVERIFY2(waits->note()->text().contains(QStringLiteral("B has no completed run at 1 client")),
                 qPrintable(waits->note()->text()));
        QCOMPARE(t->rowCount(), 0);
    }

    void theCpuProfileTabDrawsTheFlameGraphAndCallsTheFunctionThatGrew() {
        ProfilePanel* profile = page_->profile();
        FlameGraphView* flame = profile->flame();
        QCOMPARE(profile->choice()->xCombo()->currentText(), QStringLiteral("8"));
        // all, client backend, main, exec, md5, scan.
        QCOMPARE(flame->flameLayout().frames.size(), size_t{6});
        QVERIFY(!flame->flameLayout().differential);
        QTableWidget* t = profile->table();
        QCOMPARE(t->item(0, column(t, QStringLiteral("Function")))->text(), QStringLiteral("scan"));
        QVERIFY2(profile->note()->text().contains(QStringLiteral("1 of 4 runs have no CPU profile")),
                 qPrintable(profile->note()->text()));

        // Search paints md5 and says its share: 12 of 617 samples.
        profile->search()->setText(QStringLiteral("^md5$"));
        QLabel* matched = nullptr;
        for (auto* l : profile->findChildren<QLabel*>())
            if (l->text().startsWith(QStringLiteral("matched:"))) matched = l;
        QVERIFY(matched);
        QCOMPARE(matched->text(), QStringLiteral("matched: 1.9% of the CPU"));
        profile->search()->setText(QStringLiteral("(("));
        QVERIFY(matched->text().contains(QStringLiteral("not a regular expression")));
        profile->search()->clear();

        // A click on "exec" zooms to it: its callees share the whole width; a click on the root
        // zooms out. Its tooltip gives the value per 1,000 transactions and the samples.
        flame->resize(800, flame->height());
        int exec = -1, scan = -1;
        for (size_t i = 0; i < flame->flameLayout().frames.size(); ++i) {
            if (flame->flameLayout().frames[i].name == "exec") exec = static_cast<int>(i);
            if (flame->flameLayout().frames[i].name == "scan") scan = static_cast<int>(i);
        }
        QVERIFY(exec > 0 && scan > 0);
        double scanWidth = flame->frameRect(scan).width();
        QTest::mouseClick(flame, Qt::LeftButton, {}, flame->frameRect(exec).center().toPoint());
        QCOMPARE(flame->zoomedFrame(), exec);
        QCOMPARE(flame->frameRect(exec).width(), flame->width() - 8.0);
        QVERIFY(flame->frameRect(scan).width() >= scanWidth);
        QVERIFY2(flame->tipOf(scan).contains(QStringLiteral("samples per 1,000 transactions")), qPrintable(flame->tipOf(scan)));
        QVERIFY2(flame->tipOf(scan).contains(QStringLiteral("606 samples")), qPrintable(flame->tipOf(scan)));
        QTest::mouseClick(flame, Qt::LeftButton, {}, flame->frameRect(0).center().toPoint());
        QCOMPARE(flame->zoomedFrame(), 0);

        // B against A: B's shape, md5 red, and md5 called in the table.
        profile->choice()->seriesCombo()->setCurrentText(QStringLiteral("B"));
        profile->choice()->againstCombo()->setCurrentText(QStringLiteral("A"));
        QVERIFY(flame->flameLayout().differential);
        QCOMPARE(t->item(0, column(t, QStringLiteral("Function")))->text(), QStringLiteral("md5"));
        QCOMPARE(t->item(0, column(t, QStringLiteral("Verdict")))->text(), QStringLiteral("distinguishable"));
        for (const auto& f : flame->flameLayout().frames)
            if (f.name == "md5") QVERIFY(*f.delta > 0);

        // Back to A's own graph at 1 client: all, client backend, main, exec, scan.
        profile->choice()->againstCombo()->setCurrentIndex(0);
        profile->choice()->seriesCombo()->setCurrentText(QStringLiteral("A"));
        profile->choice()->xCombo()->setCurrentText(QStringLiteral("1"));
        QVERIFY(!flame->flameLayout().differential);
        QCOMPARE(flame->flameLayout().frames.size(), size_t{5});
    }

    void aRunWithoutDiagnosticsIsMissingNeverZero() {
        TempDir dir("scalelab-diagnostics-none");
        std::string path = (dir.path() / "bare.slab").string();
        {
            auto store = ExperimentStore::create(path);
            store->saveRun(test::completedRun("A", 8, 1, 1000, 0), {});
        }
        ResultsPage page(Topology::synthetic("pack:1 core:2 pu:1").info());
        QVERIFY(test::loadAndWait(page, QString::fromStdString(path)));
        QVERIFY(page.profile()->flame()->flameLayout().frames.empty());
        QVERIFY2(page.profile()->note()->text().contains(QStringLiteral("no CPU profile recorded")),
                 qPrintable(page.profile()->note()->text()));
        QVERIFY2(page.waits()->note()->text().contains(QStringLiteral("no waits recorded")), qPrintable(page.waits()->note()->text()));
        QCOMPARE(page.waits()->table()->rowCount(), 0);
        QCOMPARE(page.waits()->chart()->xLabels(), QStringList({QStringLiteral("8 (no waits)")}));
    }
};

QTEST_MAIN(DiagnosticsViewTest)
#include "DiagnosticsViewTest.moc"
