// The Results page's Latency tab: each shown series' percentile spectrum at one client count,
// its rounds merged (exactly: histograms add), each round's own curve behind it, and a note that
// names the rounds, the transactions and the runs that have no histogram; the Rounds tab's box
// plots of a percentile of each run.
#include "FreshSettings.h"
#include "OpenAndWait.h"
#include "RunRecords.h"

#include "charts/BoxPlotChartView.h"
#include "charts/DistributionChartView.h"
#include "charts/ScalingChartView.h"
#include "load/hosts/LoadResultJson.h"
#include "models/BoxPlotData.h"
#include "models/DistributionData.h"
#include "pages/MainWindow.h"
#include "charts/ReportExport.h"
#include "pages/ResultsPage.h"
#include "store/ExperimentStore.h"
#include "util/TempDir.h"

#include <QChart>
#include <QComboBox>
#include <QFile>
#include <QTabWidget>
#include <QSet>
#include <QRegularExpression>
#include <QLabel>
#include <QtTest>

using namespace scalelab;
using namespace scalelab::ui;

namespace {

constexpr uint64_t kMs = 1000000;

RunRecord withLatencies(RunRecord r, int n, uint64_t ms) {
    LatencyHistogram h;
    for (int i = 0; i < n; ++i) h.record(ms * kMs + static_cast<uint64_t>(i) * 100);  // ms to ms + 0.1
    r.detail["histogram"] = toJson(h.data());
    r.transactions = h.count();
    return r;
}

} // namespace

class DistributionViewTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { scalelab::test::startWithFreshSettings(); }

    void drawsEachSeriesMergedRoundsAtTheChosenClientCount() {
        QCOMPARE(ninesLabel(0), QStringLiteral("p0"));
        QCOMPARE(ninesLabel(1), QStringLiteral("p90"));
        QCOMPARE(ninesLabel(2), QStringLiteral("p99"));
        QCOMPARE(ninesLabel(4), QStringLiteral("p99.99"));

        TempDir dir("scalelab-distribution");
        std::string path = (dir.path() / "e.slab").string();
        {
            auto store = ExperimentStore::create(path);
            int64_t index = 0;
            store->saveRun(withLatencies(test::completedRun("A", 4, 1, 100, index++), 1000, 2), {});
            store->saveRun(withLatencies(test::completedRun("A", 4, 2, 100, index++), 1000, 3), {});
            store->saveRun(withLatencies(test::completedRun("A", 1, 1, 100, index++), 500, 1), {});
            store->saveRun(withLatencies(test::completedRun("B", 4, 1, 100, index++), 2000, 5), {});
            store->saveRun(test::completedRun("B", 4, 2, 100, index++), {});  // imported: no histogram
        }
        ResultsPage page(Topology::synthetic("pack:1 core:2 pu:1").info());
        QVERIFY(test::loadAndWait(page, QString::fromStdString(path)));

        // The highest client count with histograms first; every count that has one offered.
        QComboBox* clients = page.distributionClients();
        QCOMPARE(clients->count(), 2);
        QCOMPARE(clients->itemText(0), QStringLiteral("1"));
        QCOMPARE(clients->currentText(), QStringLiteral("4"));
        DistributionChartView* chart = page.distributionChart();
        QCOMPARE(chart->seriesNames(), (QStringList{QStringLiteral("A"), QStringLiteral("B")}));
        QCOMPARE(chart->curveCount(), 4);  // A merged and its 2 rounds; B's one run is its merged curve
        QCOMPARE(chart->xTickLabels().mid(0, 4),
                 (QStringList{QStringLiteral("p0"), QStringLiteral("p90"), QStringLiteral("p99"), QStringLiteral("p99.9")}));
        QString note = page.distributionNote()->text();
        QVERIFY2(note.contains(QStringLiteral("A: 2 rounds merged, 2000 transactions")), qPrintable(note));
        QVERIFY2(note.contains(QStringLiteral("B: 1 round merged, 2000 transactions")), qPrintable(note));
        QVERIFY2(note.contains(QStringLiteral("(1 older or imported run without a histogram left out)")), qPrintable(note));

        // The model: A's merged spectrum runs from its 2 ms round to its 3 ms one (half each).
        DistributionData d = buildDistributionData(page.allRuns(), page.seriesOrder(), {"A", "B"}, 4);
        QCOMPARE(d.series.size(), 2);
        const DistributionCurve& a = d.series[0];
        QVERIFY(std::abs(a.merged.front().y() - 2.0) < 0.02);  // the least, within a bucket
        QVERIFY(a.merged.back().y() > 3.0 && a.merged.back().y() < 3.11);  // the greatest
        QCOMPARE(a.rounds.size(), 2);
        QCOMPARE(a.colorIndex, 0);
        QCOMPARE(d.series[1].colorIndex, 1);

        // Another client count: only the series that ran it.
        clients->setCurrentIndex(0);
        QCOMPARE(chart->seriesNames(), QStringList{QStringLiteral("A")});
        QVERIFY2(page.distributionNote()->text().startsWith(QStringLiteral("A: 1 round merged, 500 transactions")),
                 qPrintable(page.distributionNote()->text()));

        // The Series menu's choice holds here too.
        page.showSeries({QStringLiteral("B")});
        QCOMPARE(clients->count(), 1);  // B has a histogram at 4 clients only
        QCOMPARE(chart->seriesNames(), QStringList{QStringLiteral("B")});
    }

    // Issue 61.7: after a sweep in the window (its counts arrive one by one, the first being 1)
    // the tab stayed at 1 client; it shows the highest until the user picks a count.
    void theHighestCountIsShownAsCountsArriveUntilTheUserPicksOne() {
        TempDir dir("scalelab-distribution-growing");
        std::string path = (dir.path() / "e.slab").string();
        auto store = ExperimentStore::create(path);
        store->saveRun(withLatencies(test::completedRun("A", 1, 1, 100, 0), 500, 1), {});
        ResultsPage page(Topology::synthetic("pack:1 core:2 pu:1").info());
        QVERIFY(test::loadAndWait(page, QString::fromStdString(path)));
        QComboBox* clients = page.distributionClients();
        QCOMPARE(clients->currentText(), QStringLiteral("1"));
        store->saveRun(withLatencies(test::completedRun("A", 8, 1, 100, 1), 500, 3), {});
        QVERIFY(test::loadAndWait(page, QString::fromStdString(path)));
        QCOMPARE(clients->currentText(), QStringLiteral("8"));
        clients->setCurrentIndex(0);  // 1 is picked: kept from then on
        store->saveRun(withLatencies(test::completedRun("A", 16, 1, 100, 2), 500, 3), {});
        QVERIFY(test::loadAndWait(page, QString::fromStdString(path)));
        QCOMPARE(clients->currentText(), QStringLiteral("1"));
    }

    void theWindowExportsTheChartOnTheVisibleTab() {
        TempDir dir("scalelab-distribution");
        std::string path = (dir.path() / "e.slab").string();
        {
            auto store = ExperimentStore::create(path);
            store->saveRun(withLatencies(test::completedRun("A", 4, 1, 100, 0), 1000, 2), {});
            store->saveRun(withLatencies(test::completedRun("B", 4, 1, 150, 1), 1000, 5), {});
        }
        MainWindow window;
        QVERIFY(test::openAndWait(window, QString::fromStdString(path)));
        QTabWidget* tabs = window.resultsPage()->chartTabs();
        QString scaling = QString::fromStdString((dir.path() / "scaling.svg").string());
        QString latency = QString::fromStdString((dir.path() / "latency.svg").string());
        window.exportChart(scaling, 1);
        tabs->setCurrentIndex(2);
        QCOMPARE(tabs->tabText(2), QStringLiteral("Latency"));
        window.exportChart(latency, 1);
        auto text = [](const QString& file) {
            QFile f(file);
            return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
        };
        QVERIFY(text(scaling).contains(QStringLiteral("by clients")));
        QVERIFY(!text(scaling).contains(QStringLiteral("Latency distribution")));
        QVERIFY2(text(latency).contains(QStringLiteral("Latency distribution at 4 clients")), qPrintable(text(latency).left(400)));
        QVERIFY(text(latency).contains(QStringLiteral("p99")));
        tabs->setCurrentIndex(3);
        QCOMPARE(tabs->tabText(3), QStringLiteral("Rounds"));
        QString rounds = QString::fromStdString((dir.path() / "rounds.svg").string());
        window.exportChart(rounds, 1);
        QVERIFY2(text(rounds).contains(QStringLiteral("p99 latency of each round")), qPrintable(text(rounds).left(400)));

        // Issue 61.3: the window's export has the CLI's text (one renderer, one size): the font
        // sizes of `scalelab export`'s SVG of the same experiment, and the screen keeps its own.
        auto sizes = [&](const QString& file) {
            QSet<QString> found;
            static const QRegularExpression size(QStringLiteral("font-size=\"([0-9.]+)\""));
            for (auto it = size.globalMatch(text(file)); it.hasNext();) found.insert(it.next().captured(1));
            return found;
        };
        QString cli = QString::fromStdString((dir.path() / "cli.svg").string());
        writeChartFiles(path, ScalingView{}, "", cli.toStdString(), QSize(1200, 800), 1);
        QVERIFY(!sizes(cli).isEmpty());
        QCOMPARE(sizes(scaling), sizes(cli));
        QFont screen = window.resultsPage()->chart()->chart()->titleFont();
        tabs->setCurrentIndex(0);
        window.exportChart(scaling, 1);
        QCOMPARE(window.resultsPage()->chart()->chart()->titleFont(), screen);
        QCOMPARE(sizes(scaling), sizes(cli));
    }

    // The Rounds tab: a latency percentile of each run as a box per series and client count.
    void drawsEachPointsRoundsAsABox() {
        TempDir dir("scalelab-distribution");
        std::string path = (dir.path() / "e.slab").string();
        {
            auto store = ExperimentStore::create(path);
            int64_t index = 0;
            // Each run with its own latency summary, as a sweep stores it.
            auto summarized = [](RunRecord r) {
                r.latency = LatencyHistogram::fromData(histogramFromJson(r.detail["histogram"])).summary();
                return r;
            };
            for (int round = 1; round <= 5; ++round) {
                store->saveRun(summarized(withLatencies(test::completedRun("A", 4, round, 100, index++), 200, 1 + round)), {});
                store->saveRun(summarized(withLatencies(test::completedRun("A", 1, round, 100, index++), 200, 1)), {});
                store->saveRun(summarized(withLatencies(test::completedRun("<b>B</b>", 4, round, 100, index++), 200, 5)), {});
            }
        }
        ResultsPage page(Topology::synthetic("pack:1 core:2 pu:1").info());
        QVERIFY(test::loadAndWait(page, QString::fromStdString(path)));
        QCOMPARE(page.roundsPercentile()->currentText(), QStringLiteral("p99"));
        BoxPlotChartView* chart = page.roundsChart();
        QCOMPARE(chart->xTickLabels(), (QStringList{QStringLiteral("1"), QStringLiteral("4")}));
        QCOMPARE(chart->boxCount(), 3);  // A at 1 and 4, B at 4
        QCOMPARE(chart->seriesNames(), (QStringList{QStringLiteral("A"), QStringLiteral("&lt;b&gt;B&lt;/b&gt;")}));
        QVERIFY2(page.roundsNote()->text().contains(QStringLiteral("5 rounds a box")), qPrintable(page.roundsNote()->text()));

        // The model: A's p99 at 4 clients is each round's own (2 to 6 ms), its median the third.
        BoxPlotData d = buildBoxPlotData(page.allRuns(), page.seriesOrder(), {"A"}, LatencyPercentile::P99);
        QCOMPARE(d.series.size(), 1);
        const BoxPlotPoint& at4 = d.series[0].boxes.back();
        QCOMPARE(at4.clients, 4);
        QVERIFY(std::abs(at4.box.min - 2.0) < 0.03 && std::abs(at4.box.max - 6.0) < 0.06);
        QVERIFY(std::abs(at4.box.median - 4.0) < 0.04);

        page.roundsPercentile()->setCurrentText(QStringLiteral("p50"));
        QCOMPARE(chart->boxCount(), 3);
        page.showSeries({QStringLiteral("A")});
        QCOMPARE(chart->boxCount(), 2);
    }

    void saysWhyWhenNoRunHasAHistogram() {
        TempDir dir("scalelab-distribution");
        std::string path = (dir.path() / "e.slab").string();
        ExperimentStore::create(path)->saveRun(test::completedRun("A", 4, 1, 100, 0), {});
        ResultsPage page(Topology::synthetic("pack:1 core:2 pu:1").info());
        QVERIFY(test::loadAndWait(page, QString::fromStdString(path)));
        QCOMPARE(page.distributionClients()->count(), 0);
        QVERIFY(page.distributionChart()->seriesNames().isEmpty());
        QVERIFY2(page.distributionNote()->text().startsWith(QStringLiteral("No run here has a latency histogram")),
                 qPrintable(page.distributionNote()->text()));
    }
};

QTEST_MAIN(DistributionViewTest)
#include "DistributionViewTest.moc"
