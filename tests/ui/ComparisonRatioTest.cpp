// The Ratio tab: the Comparison tab's compared series over its baseline by clients, with its
// interval and the line at 1, the same figures as `export --ratio A B`; paired when the table
// is; when nothing can be compared, no chart and why.
#include "OpenAndWait.h"
#include "RunRecords.h"

#include "charts/ScalingChartView.h"
#include "models/RatioData.h"
#include "pages/ComparisonPanel.h"
#include "pages/ResultsPage.h"
#include "store/ExperimentStore.h"
#include "util/TempDir.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QTableWidget>
#include <QWheelEvent>
#include <QLabel>
#include <QTabWidget>
#include <QtTest>

using namespace scalelab;
using namespace scalelab::ui;

class ComparisonRatioTest : public QObject {
    Q_OBJECT

private slots:
    void drawsTheComparedSeriesOverTheBaselineAsExportRatioDoes() {
        TempDir dir("scalelab-ratio-tab");
        std::string path = (dir.path() / "e.slab").string();
        std::vector<RunRecord> runs;
        {
            auto store = ExperimentStore::create(path);
            int64_t index = 0;
            for (int rep = 1; rep <= 3; ++rep)
                for (int clients : {1, 2, 4}) {
                    double wiggle = 1 + 0.02 * (rep - 2);
                    runs.push_back(test::completedRun("A", clients, rep, 1000 * clients * wiggle, index++));
                    runs.push_back(test::completedRun("B", clients, rep, 1200 * clients * wiggle * (1 + 0.01 * rep), index++));
                }
            runs.push_back(test::completedRun("C", 8, 1, 5000, index++));  // no client count in common with A
            for (const auto& r : runs) store->saveRun(r, {});
        }
        ResultsPage page(Topology::synthetic("pack:1 core:2 pu:1").info());
        QVERIFY(test::loadAndWait(page, QString::fromStdString(path)));
        ComparisonPanel* panel = page.comparison();
        QCOMPARE(panel->baselineCombo()->currentText(), QStringLiteral("A"));
        QCOMPARE(panel->candidateCombo()->currentText(), QStringLiteral("B"));

        // Welch's, as `export --ratio A B`: the same series, points and intervals.
        RatioChoice choice;
        choice.pairs = {{"A", "B"}};
        ScalingData expected = buildRatioData(runs, {"A", "B", "C"}, RunMetric::Tps, 0.95, choice);
        const ScalingData& shown = panel->ratioData();
        QCOMPARE(shown.series.size(), 1);
        QCOMPARE(shown.series[0].label, QStringLiteral("B / A"));
        QCOMPARE(shown.series[0].points.size(), 3);
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(shown.series[0].points[i].mean, expected.series[0].points[i].mean);
            QCOMPARE(shown.series[0].points[i].low, expected.series[0].points[i].low);
            QCOMPARE(shown.series[0].points[i].high, expected.series[0].points[i].high);
            QVERIFY(shown.series[0].points[i].low < shown.series[0].points[i].high);
        }
        QCOMPARE(shown.referenceY, std::optional<double>(1.0));
        QVERIFY(shown.errorBars.contains(QStringLiteral("Welch")));
        QVERIFY(panel->ratioChart()->seriesNames().contains(QStringLiteral("B / A")));
        QVERIFY(!panel->ratioChart()->isHidden());
        if (qEnvironmentVariableIsSet("SCALELAB_TEST_SHOT")) {  // to look at it: a PNG of the tab
            page.resize(1400, 900);
            page.show();
            page.findChild<QTabWidget*>()->setCurrentWidget(panel->ratioView());
            QTest::qWait(200);
            page.grab().save(qEnvironmentVariable("SCALELAB_TEST_SHOT"));
        }
        QVERIFY(panel->ratioNote()->text().startsWith(QStringLiteral("B over A at each client count")));

        // Paired by round, as the table.
        QCheckBox* paired = panel->findChild<QCheckBox*>();
        QVERIFY(paired);
        paired->setChecked(true);
        choice.paired = true;
        expected = buildRatioData(runs, {"A", "B", "C"}, RunMetric::Tps, 0.95, choice);
        QVERIFY(panel->ratioData().errorBars.contains(QStringLiteral("paired by round")));
        QCOMPARE(panel->ratioData().series[0].points[1].low, expected.series[0].points[1].low);
        paired->setChecked(false);

        // C has no client count with runs of A: no ratio, no chart, and why.
        panel->candidateCombo()->setCurrentText(QStringLiteral("C"));
        QVERIFY(panel->ratioData().series.isEmpty());
        QVERIFY(panel->ratioChart()->isHidden());
        QCOMPARE(panel->ratioNote()->text(),
                 QStringLiteral("No ratio to draw: A and C have no client count with completed runs of both."));
        panel->candidateCombo()->setCurrentText(QStringLiteral("B"));
        QCOMPARE(panel->ratioData().series.size(), 1);
        QVERIFY(!panel->ratioChart()->isHidden());
    }

    // "The same within X%": the box adds a column and the summary's equivalence sentences, as
    // `report --equivalence`; 0 is off. A wheel over the box without focus changes nothing.
    void theSameWithinAMarginIsAColumnOfTheTable() {
        TempDir dir("scalelab-equivalence-tab");
        std::string path = (dir.path() / "e.slab").string();
        {
            auto store = ExperimentStore::create(path);
            int64_t index = 0;
            for (int rep = 1; rep <= 3; ++rep)
                for (int clients : {1, 2, 4}) {
                    double wiggle = 1 + 0.005 * (rep - 2);
                    store->saveRun(test::completedRun("A", clients, rep, 1000 * clients * wiggle, index++), {});
                    store->saveRun(test::completedRun("B", clients, rep, 1000 * clients / wiggle, index++), {});
                }
        }
        ResultsPage page(Topology::synthetic("pack:1 core:2 pu:1").info());
        QVERIFY(test::loadAndWait(page, QString::fromStdString(path)));
        ComparisonPanel* panel = page.comparison();
        QTableWidget* table = panel->table();
        QVERIFY(table->isColumnHidden(8));
        QVERIFY(!panel->summary()->text().contains(QStringLiteral("the same as")));

        QWheelEvent wheel(QPointF(5, 5), panel->equivalenceBox()->mapToGlobal(QPointF(5, 5)), QPoint(), QPoint(0, 120),
                          Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(panel->equivalenceBox(), &wheel);
        QCOMPARE(panel->equivalenceBox()->value(), 0.0);

        panel->equivalenceBox()->setValue(5);
        QVERIFY(!table->isColumnHidden(8));
        QCOMPARE(table->horizontalHeaderItem(8)->text(), QStringLiteral("Same within \u00b15%"));
        QCOMPARE(table->rowCount(), 3);
        for (int r = 0; r < 3; ++r) QCOMPARE(table->item(r, 8)->text(), QStringLiteral("yes"));
        QVERIFY(panel->summary()->text().contains(QStringLiteral("B is the same as A within +/-5% at every client count")));
        QCOMPARE(panel->choice().equivalencePct, std::optional<double>(5.0));

        panel->equivalenceBox()->setValue(0);
        QVERIFY(table->isColumnHidden(8));
        QVERIFY(!panel->choice().equivalencePct);
    }
};

QTEST_MAIN(ComparisonRatioTest)
#include "ComparisonRatioTest.moc"
