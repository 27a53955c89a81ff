// The ratio chart's data: series B over series A at each client count, with the interval of
// the comparison (paired by round, or Welch's), and the errors that name what is missing.
#include "RunRecords.h"
#include "ScalingDump.h"

#include "models/RatioData.h"
#include "stats/Compare.h"
#include "util/Error.h"

#include <QtTest>

using namespace scalelab;
using namespace scalelab::ui;

namespace {

// A: 100, 110, 90 at 4 clients (rounds 1-3) and 200 at 8; B: 118, 131, 111 and 150; C only at
// 4; A alone at 16.
std::vector<RunRecord> runs() {
    std::vector<RunRecord> r;
    for (auto [series, clients, round, tps] :
         std::vector<std::tuple<std::string, int, int, double>>{{"A", 4, 1, 100}, {"A", 4, 2, 110}, {"A", 4, 3, 90},
                                                                {"A", 8, 1, 200}, {"A", 16, 1, 300}, {"B", 4, 1, 118},
                                                                {"B", 4, 2, 131}, {"B", 4, 3, 111}, {"B", 8, 1, 150},
                                                                {"C", 4, 1, 50}})
        r.push_back(test::completedRun(series, clients, round, tps));
    return r;
}

const std::vector<std::string> kOrder{"A", "C", "B"};

QString errorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        return QString::fromStdString(e.what());
    }
    return QStringLiteral("(no error)");
}

} // namespace

class RatioDataTest : public QObject {
    Q_OBJECT
private slots:
    void pairedTheRatioOfMeansWithTheDifferencesIntervalRelativeToTheBaseline() {
        // Differences 18, 21, 21: mean 20, sd sqrt(3), se 1, t(0.975, 2) = 4.303 -> 20 -/+ 4.303
        // over A's mean 100. One pair at 8 clients: no interval, the ratio alone.
        ScalingData d = buildRatioData(runs(), kOrder, RunMetric::Tps, 0.95, {{{"A", "B"}}, true});
        QCOMPARE(test::dump(d, 3), QStringLiteral("tps ratio [B / A], 95% confidence interval of the ratio (paired by round)\n"
                                         "B / A (colour 2)\n"
                                         "  at 4: n 3, mean 1.200 [1.157, 1.243]\n"
                                         "  at 8: n 1, mean 0.750 [0.750, 0.750]"));
        QCOMPARE(d.referenceY.value_or(0), 1.0);
        QVERIFY2(d.series[0].points[1].tooltip.contains(QString::fromLatin1(kTooFewToJudge)),
                 qPrintable(d.series[0].points[1].tooltip));
    }

    void welchTheIntervalOfTheRatioAsTheComparisonGivesIt() {
        ScalingData d = buildRatioData(runs(), kOrder, RunMetric::Tps, 0.9, {{{"A", "B"}}, false});
        Comparison c = compareWelch({100, 110, 90}, {118, 131, 111}, 0.9);
        QCOMPARE(d.series.size(), 1);
        const ScalingPointView& at4 = d.series[0].points[0];
        QCOMPARE(at4.mean, 1.2);
        QCOMPARE(at4.low, 1 + *c.percentLow / 100);
        QCOMPARE(at4.high, 1 + *c.percentHigh / 100);
        // By hand: log-ratio se 0.0756, Welch df 3.89, t(0.95) 2.15: 1.2 * exp(-/+0.163) = 1.020, 1.412.
        QVERIFY2(at4.low > 1.0 && at4.low < 1.05 && at4.high > 1.38 && at4.high < 1.44,
                 qPrintable(QStringLiteral("%1 %2").arg(at4.low).arg(at4.high)));
        QVERIFY(d.errorBars.startsWith(QStringLiteral("90% confidence interval of the ratio (Welch)")));
    }

    void severalPairsAreSeveralSeriesEachInItsCandidatesColour() {
        ScalingData d = buildRatioData(runs(), kOrder, RunMetric::Tps, 0.95, {{{"A", "B"}, {"A", "C"}}, false});
        QCOMPARE(d.unit, QStringLiteral("B / A"));
        QCOMPARE(d.series.size(), 2);
        QCOMPARE(d.series[1].label, QStringLiteral("C / A"));
        QCOMPARE(d.series[1].colorIndex, 1);
        QCOMPARE(d.series[1].points.size(), 1);  // C has runs only at 4 clients
        QCOMPARE(d.series[1].points[0].mean, 0.5);
    }

    void whatIsMissingIsNamed() {
        QCOMPARE(errorOf([] { buildRatioData(runs(), kOrder, RunMetric::Tps, 0.95, {{{"A", "D"}}, false}); }),
                 QStringLiteral("--ratio: no series named 'D' (the series compared) in the experiment (it has: A, C, B)"));
        QCOMPARE(errorOf([] { buildRatioData(runs(), kOrder, RunMetric::Tps, 0.95, {{{"Z", "B"}}, false}); }),
                 QStringLiteral("--ratio: no series named 'Z' (the baseline) in the experiment (it has: A, C, B)"));
        std::vector<RunRecord> apart = runs();
        for (auto& r : apart)
            if (r.series == "C") r.clients = 32;
        QCOMPARE(errorOf([&] { buildRatioData(apart, kOrder, RunMetric::Tps, 0.95, {{{"A", "C"}}, false}); }),
                 QStringLiteral("--ratio A C: no client count has completed runs of both with tps"));
        for (auto& r : apart)
            if (r.series == "C") r.clients = 4, r.repetition = 7;
        QCOMPARE(errorOf([&] { buildRatioData(apart, kOrder, RunMetric::Tps, 0.95, {{{"A", "C"}}, true}); }),
                 QStringLiteral("--ratio A C: no client count has completed runs of both in the same round with tps"));
        // A run without the metric is a missing value, not a 0 in the ratio.
        QVERIFY(errorOf([] { buildRatioData(runs(), kOrder, RunMetric::LatencyP95, 0.95, {{{"A", "B"}}, false}); })
                    .contains(QStringLiteral("no client count has completed runs of both with latency_p95")));
    }
};

QTEST_GUILESS_MAIN(RatioDataTest)
#include "RatioDataTest.moc"
