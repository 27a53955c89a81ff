// The ratio chart's data: series B over series A at each client count, with the interval of
// the comparison (paired by round, or Welch's), and the errors that name what is missing.
#include "RunRecords.h"
#include "ScalingDump.h"

#include "models/RatioAxis.h"
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

    // Issue 32.3: ratios of 0.7 - 0.9 with one interval reaching 500 were drawn on a linear axis
    // from 0 to 500, the points on the axis. A log axis centred on 1, its range from the points;
    // an interval twice the points' spread (or more than 0.8 - 1.25) runs off it.
    void aRatioAxisIsCentredOnOneAndSpansThePointsNotTheWildestInterval() {
        ScalingData d;
        d.ratioScale = true;
        ScalingSeriesView s;
        for (auto [clients, mean, low, high] : std::vector<std::tuple<double, double, double, double>>{
                 {1, 0.9, 0.85, 0.95}, {2, 0.8, 0.75, 0.86}, {4, 0.7, 0.002, 500}})
            s.points.append({clients, mean, low, high, 2, {}});
        d.series.append(s);
        RatioAxis axis = ratioAxisFor(d);
        double points = std::log2(1 / 0.7);
        QVERIFY2(axis.halfRange >= points && axis.halfRange <= 2 * points * 1.1, qPrintable(QString::number(axis.halfRange)));
        QVERIFY(axis.position(500) > axis.halfRange && axis.position(0.002) < -axis.halfRange);  // arrows
        QVERIFY(axis.position(0.75) > -axis.halfRange);  // the others whole
        QStringList labels;
        for (const auto& t : axis.ticks) labels << t.label;
        QCOMPARE(labels, (QStringList{QStringLiteral("0.5"), QStringLiteral("0.67"), QStringLiteral("0.8"), QStringLiteral("1"),
                                      QStringLiteral("1.25"), QStringLiteral("1.5"), QStringLiteral("2")}));
        for (int i = 0; i < axis.ticks.size(); ++i) {  // symmetric about 1, increasing
            QCOMPARE(axis.ticks[i].at, -axis.ticks[axis.ticks.size() - 1 - i].at);
            if (i) QVERIFY(axis.ticks[i].at > axis.ticks[i - 1].at);
        }
        // Narrow differences get a narrow axis, still showing at least 0.8 - 1.25 when the
        // intervals reach that far; a wide spread gets at most four ticks a side.
        d.series[0].points = {{1, 1.01, 0.99, 1.03, 3, {}}};
        QVERIFY(ratioAxisFor(d).halfRange < std::log2(1.1));
        d.series[0].points = {{1, 1.01, 0.5, 1.03, 3, {}}};
        QCOMPARE(ratioAxisFor(d).halfRange, std::log2(1.25) * 1.08);
        // Issue 61.11: bars to about 1.9 had no tick above 1.5.
        d.series[0].points = {{1, 1.3, 0.9, 1.9, 3, {}}};
        QVERIFY2(ratioAxisFor(d).ticks.last().at >= std::log2(1.75) - 1e-9,
                 qPrintable(ratioAxisFor(d).ticks.last().label));
        d.series[0].points = {{1, 300, 200, 400, 3, {}}, {2, 0.01, 0, 0.02, 2, {}}};
        QVERIFY(ratioAxisFor(d).ticks.size() <= 9);
        QVERIFY(ratioAxisFor(d).halfRange >= std::log2(300));
    }

    // Issue 32.5: an interval from -100% to +2426713774.6% bounds nothing: said in words.
    void aChangeIntervalWiderThanTenfoldIsTooFewRunsToBound() {
        QCOMPARE(changeIntervalText(std::nullopt, std::nullopt), std::string("-"));
        QCOMPARE(changeIntervalText(-12.34, 5.0), std::string("-12.3% .. +5.0%"));
        QCOMPARE(changeIntervalText(-100.0, 2426713774.6), std::string(kTooFewToBound));
        QCOMPARE(changeIntervalText(-95.0, 10.0), std::string(kTooFewToBound));  // 0.05 .. 1.1: 22x
        QCOMPARE(changeIntervalText(-50.0, 390.0), std::string("-50.0% .. +390.0%"));  // 9.8x
        QCOMPARE(changeIntervalText(-150.0, 10.0), std::string(kTooFewToBound));
    }
};

QTEST_GUILESS_MAIN(RatioDataTest)
#include "RatioDataTest.moc"
