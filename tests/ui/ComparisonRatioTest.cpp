// The Ratio tab: the Comparison tab's compared series over its baseline by clients, with its
// interval and the line at 1, the same figures as `export --ratio A B`; paired when the table
// is; when nothing can be compared, no chart and why.
#include "FreshSettings.h"
#include "charts/PointLabelItem.h"
#include "ChartTexts.h"
#include "OpenAndWait.h"
#include "RunRecords.h"

#include "charts/LatencyThroughputChartView.h"
#include "charts/ScalingChartView.h"
#include "models/RatioData.h"
#include "pages/ComparisonPanel.h"
#include "pages/ResultsPage.h"
#include "stats/PointAxis.h"
#include "store/ExperimentStore.h"
#include "topo/Topology.h"
#include "util/TempDir.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QTableWidget>
#include <QWheelEvent>
#include <QHeaderView>
#include <QLabel>
#include <QTabWidget>
#include <QApplication>
#include <QChart>
#include <QSplitter>
#include <QtTest>

#include "pages/MainWindow.h"

using namespace scalelab;
using namespace scalelab::ui;


class ComparisonRatioTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { scalelab::test::startWithFreshSettings(); }

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
            page.chartTabs()->setCurrentWidget(panel->ratioView());
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
        QVERIFY(table->isColumnHidden(ColSame));
        QVERIFY(!panel->summary()->text().contains(QStringLiteral("the same as")));

        QWheelEvent wheel(QPointF(5, 5), panel->equivalenceBox()->mapToGlobal(QPointF(5, 5)), QPoint(), QPoint(0, 120),
                          Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(panel->equivalenceBox(), &wheel);
        QCOMPARE(panel->equivalenceBox()->value(), 0.0);

        panel->equivalenceBox()->setValue(5);
        QVERIFY(!table->isColumnHidden(ColSame));
        QCOMPARE(table->horizontalHeaderItem(ColSame)->text(), QStringLiteral("Same within \u00b15%"));
        QCOMPARE(table->rowCount(), 3);
        for (int r = 0; r < 3; ++r) QCOMPARE(table->item(r, ColSame)->text(), QStringLiteral("yes"));
        QVERIFY(panel->summary()->text().contains(QStringLiteral("B is the same as A within +/-5% at every client count")));
        QCOMPARE(panel->choice().equivalencePct, std::optional<double>(5.0));

        panel->equivalenceBox()->setValue(0);
        QVERIFY(table->isColumnHidden(ColSame));
        QVERIFY(!panel->choice().equivalencePct);
    }
    // Issue 32.3: at a laptop's 1024x700 the Ratio tab's labels were all "...", its axis ran
    // 0-500 for ratios of 0.7-0.9, and the splitter collapsed the chart above it. The ratio
    // chart shares the charts' half of the page, on a log axis labelled in ratios around 1;
    // the interval that reaches far ends at the edge as an arrow.
    void theRatioTabIsReadableOnALaptop() {
        TempDir dir("scalelab-ratio-laptop");
        std::string path = (dir.path() / "e.slab").string();
        {
            auto store = ExperimentStore::create(path);
            int64_t index = 0;
            // Names as long as a user's: the axis title once carried them and was cut.
            const std::string baseline = "all cores", candidate = "half the cores (cores:1)";
            // B/A about 0.9 at 1, 0.8 at 2 and 0.7 at 4 clients; at 4, B's two runs far apart.
            for (int rep = 1; rep <= 3; ++rep)
                for (int clients : {1, 2, 4}) {
                    double wiggle = 1 + 0.01 * (rep - 2);
                    store->saveRun(test::completedRun(baseline, clients, rep, 1000 * clients * wiggle, index++), {});
                    double ratio = clients == 1 ? 0.9 : clients == 2 ? 0.8 : 0.7;
                    if (clients == 4 && rep == 3) continue;
                    double spread = clients == 4 ? (rep == 1 ? 0.2 : 1.8) : wiggle;
                    store->saveRun(test::completedRun(candidate, clients, rep, 1000 * clients * ratio * spread, index++), {});
                }
        }
        MainWindow window;
        QVERIFY(test::openAndWait(window, QString::fromStdString(path)));
        window.resize(1024, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.showPage(window.resultsPage());
        ResultsPage* page = window.resultsPage();
        page->chartTabs()->setCurrentWidget(page->comparison()->ratioView());
        QApplication::processEvents();
        ScalingChartView* chart = page->comparison()->ratioChart();
        QVERIFY2(chart->height() >= 250, qPrintable(QString::number(chart->height())));
        QVERIFY2(chart->isVisible(), "the ratio chart is on screen");
        QStringList labels = chart->yTickLabels();
        QVERIFY2(labels.contains(QStringLiteral("1")) && labels.contains(QStringLiteral("0.8")) && labels.size() <= 9,
                 qPrintable(labels.join(QLatin1Char(' '))));
        QVERIFY2(chart->errorBarArrowCount() >= 1, "the wide interval ends in an arrow");
        QStringList elided = test::elidedTexts(chart->chart());
        QVERIFY2(elided.isEmpty(), qPrintable(elided.join(QStringLiteral(" | "))));
        // The splitter keeps both halves when its handle is dragged to an end.
        auto* split = page->findChild<QSplitter*>();
        QVERIFY(split && !split->childrenCollapsible());
        if (qEnvironmentVariableIsSet("SCALELAB_TEST_SHOT")) window.grab().save(qEnvironmentVariable("SCALELAB_TEST_SHOT"));
    }
    // Issue 32.5: with two runs far apart a side, the table read "-100.0% .. +2426713774.6%"
    // and the peak "-7402.6 .. 13194.1" (negative tps). In words, and clamped at 0.
    void numbersThatWouldReadAsNonsenseAreSaidInWords() {
        TempDir dir("scalelab-wide-intervals");
        std::string path = (dir.path() / "e.slab").string();
        {
            auto store = ExperimentStore::create(path);
            int64_t index = 0;
            for (auto [series, round, tps] : std::vector<std::tuple<std::string, int, double>>{
                     {"A", 1, 100}, {"A", 2, 9000}, {"B", 1, 5}, {"B", 2, 20000}})
                store->saveRun(test::completedRun(series, 1, round, tps, index++), {});
        }
        ResultsPage page(Topology::synthetic("pack:1 core:2 pu:1").info());
        QVERIFY(test::loadAndWait(page, QString::fromStdString(path)));
        QTableWidget* table = page.comparison()->table();
        QCOMPARE(table->rowCount(), 1);
        QCOMPARE(table->item(0, ColInterval)->text(), QStringLiteral("too few runs to bound"));
        // Issue 61.11: the raw p beside the adjusted one, and no row numbers to read as data.
        QCOMPARE(table->horizontalHeaderItem(ColP)->text(), QStringLiteral("p"));
        QVERIFY(!table->item(0, ColP)->text().isEmpty());
        QVERIFY(table->verticalHeader()->isHidden());
        QVERIFY(table->item(0, ColInterval)->toolTip().contains(QStringLiteral("Runs/side says how many")));
        QTableWidget* peaks = nullptr;
        for (auto* t : page.findChildren<QTableWidget*>())
            if (t->horizontalHeaderItem(1) && t->horizontalHeaderItem(1)->text() == QStringLiteral("Clients at peak")) peaks = t;
        QVERIFY(peaks);
        QCOMPARE(peaks->rowCount(), 2);
        for (int r = 0; r < 2; ++r)
            QVERIFY2(peaks->item(r, 3)->text().startsWith(QStringLiteral("0 (clamped) .. ")), qPrintable(peaks->item(r, 3)->text()));
        QVERIFY(page.chart()->errorBarCount() == 2);
    }

    // Issue 35: a sweep over offered rates opens on the rate axis; the comparison, its ratio
    // and the chart are per rate; the client axis gives a curve per series and rate.
    void aSweepOverRatesIsShownOnTheRateAxis() {
        TempDir dir("scalelab-rate-axis");
        std::string path = (dir.path() / "e.slab").string();
        {
            auto store = ExperimentStore::create(path);
            int64_t index = 0;
            for (int rep = 1; rep <= 3; ++rep)
                for (double rate : {100.0, 200.0, 400.0}) {
                    double wiggle = 1 + 0.01 * (rep - 2);
                    for (const char* series : {"A", "B"}) {
                        RunRecord r = test::completedRun(series, 8, rep, rate * wiggle, index++);
                        r.detail["rate"] = rate;
                        r.latency.p95Ms = (series[0] == 'B' && rate == 400 ? 9.0 : 3.0) * wiggle;
                        r.latency.p99Ms = 2 * r.latency.p95Ms;
                        if (series[0] == 'A') r.serverCpuPct = rate / 4;  // B's runs have no server CPU
                        if (series[0] == 'B' && rate == 400) r.flags.add(RunFlag::BelowRate);  // the knee
                        store->saveRun(r, {});
                    }
                }
        }
        ResultsPage page(Topology::synthetic("pack:1 core:2 pu:1").info());
        QVERIFY(test::loadAndWait(page, QString::fromStdString(path)));
        QVERIFY(!page.axisCombo()->isHidden());
        QCOMPARE(page.axisCombo()->currentData().toString(), QStringLiteral("rate"));
        QCOMPARE(page.view().axis, PointAxis::Rate);
        QCOMPARE(page.data().axis, PointAxis::Rate);
        QCOMPARE(page.data().series.size(), 2);
        QCOMPARE(page.data().series[0].points.size(), 3);
        QCOMPARE(page.data().series[0].points[2].clients, 400.0);  // the x is the rate
        QVERIFY(page.data().markers.isEmpty());                     // cores are a client count
        QCOMPARE(page.peakTable()->rowCount(), 0);                  // peaks are of a client axis
        QTableWidget* t = page.comparisonTable();
        QCOMPARE(t->horizontalHeaderItem(0)->text(), QStringLiteral("Offered tps"));
        QCOMPARE(t->rowCount(), 3);
        QCOMPARE(t->item(2, 0)->text(), QStringLiteral("400"));
        page.metricCombo()->setCurrentIndex(page.metricCombo()->findData(QStringLiteral("latency_p95")));
        QCOMPARE(t->item(2, ColVerdict)->text(), QStringLiteral("higher"));
        QCOMPARE(t->item(0, ColVerdict)->text(), QStringLiteral("no difference"));
        QLabel* summary = nullptr;
        for (auto* l : page.comparison()->findChildren<QLabel*>())
            if (l->text().contains(QStringLiteral("tps offered"))) summary = l;
        QVERIFY(summary);
        QVERIFY2(summary->text().contains(QStringLiteral("at 400 tps offered")), qPrintable(summary->text()));

        // Latency against achieved tps: a point per rate, labelled with it; B's knee at 400.
        QCOMPARE(page.throughputChart()->pointLabels(),
                 (QStringList{QStringLiteral("100"), QStringLiteral("200"), QStringLiteral("400"), QStringLiteral("100"),
                              QStringLiteral("200"), QStringLiteral("400")}));
        QCOMPARE(page.throughputChart()->kneeMarkers(), 1);
        QVERIFY2(page.throughputNote()->text().contains(QStringLiteral("B: below the offered rate from 400 tps offered (3 of 3 runs there)")),
                 qPrintable(page.throughputNote()->text()));
        page.throughputLogY()->setChecked(true);
        QCOMPARE(page.throughputChart()->pointLabels().size(), 6);
        // Achieved tps as the x of another y: server CPU, which only A's runs have (B is no
        // curve there, never a line at 0).
        QComboBox* y = page.throughputYCombo();
        y->setCurrentIndex(y->findData(QStringLiteral("server_cpu")));
        QCOMPARE(y->currentText(), QStringLiteral("server CPU"));
        QCOMPARE(page.throughputChart()->pointLabels(),
                 (QStringList{QStringLiteral("100"), QStringLiteral("200"), QStringLiteral("400")}));
        QVERIFY2(page.throughputChart()->chart()->title().startsWith(QStringLiteral("server CPU against achieved tps")),
                 qPrintable(page.throughputChart()->chart()->title()));
        y->setCurrentIndex(y->findData(QStringLiteral("p99")));

        // The client axis: one client count, so each series is a curve per rate.
        page.axisCombo()->setCurrentIndex(page.axisCombo()->findData(QStringLiteral("clients")));
        QCOMPARE(page.data().axis, PointAxis::Clients);
        QCOMPARE(page.data().series.size(), 6);
        QCOMPARE(page.data().series[0].label, QStringLiteral("A, 100 tps offered"));
        QCOMPARE(t->horizontalHeaderItem(0)->text(), QStringLiteral("Clients"));
    }

    // Point labels are placed together: two curves' labels at nearly one point do not print
    // over each other (they did, "500" on "500"), none covers a point's dot, all stay inside.
    void pointLabelsOfTwoCurvesDoNotOverlap() {
        const QRectF plot(0, 0, 400, 300);
        const QSizeF size(30, 12);
        QList<QRectF> dots{QRectF(96, 96, 8, 8), QRectF(98, 100, 8, 8)};
        QRectF a = placeLabel({100, 100}, size, plot, {}, dots);
        QCOMPARE(a, QRectF(65, 85, 30, 12));  // up and to the left, as before
        QRectF b = placeLabel({102, 104}, size, plot, {a}, dots);
        QVERIFY(!b.intersects(a));
        for (const QRectF& dot : dots) QVERIFY(!b.intersects(dot));
        QVERIFY(plot.contains(b));
        QRectF edge = placeLabel({2, 150}, size, plot, {}, {});  // no room to the left
        QVERIFY(plot.contains(edge));
        QVERIFY(edge.left() > 2);
    }

    // A sweep over data scales opens on the scale axis; the menu offers only the axes the runs have.
    void aSweepOverScalesIsShownOnTheScaleAxis() {
        TempDir dir("scalelab-scale-axis");
        std::string path = (dir.path() / "e.slab").string();
        {
            auto store = ExperimentStore::create(path);
            int64_t index = 0;
            for (int rep = 1; rep <= 2; ++rep)
                for (int64_t scale : {1, 100})
                    for (const char* series : {"A", "B"}) {
                        RunRecord r = test::completedRun(series, 4, rep, 1000.0 / static_cast<double>(scale + rep), index++);
                        r.detail["data_scale"] = scale;
                        store->saveRun(r, {});
                    }
        }
        ResultsPage page(Topology::synthetic("pack:1 core:2 pu:1").info());
        QVERIFY(test::loadAndWait(page, QString::fromStdString(path)));
        QVERIFY(!page.axisCombo()->isHidden());
        QCOMPARE(page.axisCombo()->count(), 2);  // clients and scale: no run had a rate
        QCOMPARE(page.axisCombo()->currentData().toString(), QStringLiteral("scale"));
        QCOMPARE(page.data().axis, PointAxis::Scale);
        QCOMPARE(page.data().series[0].points.size(), 2);
        QCOMPARE(page.data().series[0].points[1].clients, 100.0);
        QCOMPARE(page.comparisonTable()->horizontalHeaderItem(0)->text(), QStringLiteral("Scale"));
        page.axisCombo()->setCurrentIndex(page.axisCombo()->findData(QStringLiteral("clients")));
        QCOMPARE(page.data().series[0].label, QStringLiteral("A, scale 1"));
    }
};

QTEST_MAIN(ComparisonRatioTest)
#include "ComparisonRatioTest.moc"
