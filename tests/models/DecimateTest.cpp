// Decimation keeps every extreme: a 24 h run at 1 s draws as a few points per pixel column.
#include "models/Decimate.h"

#include <QtTest>

#include <cmath>

using scalelab::ui::decimateMinMax;

class DecimateTest : public QObject {
    Q_OBJECT
private slots:
    void aDayAtOneSecondKeepsMinAndMaxPerColumn() {
        std::vector<double> x, y;
        for (int i = 0; i < 86400; ++i) {
            x.push_back(i);
            y.push_back(1000 + 100 * std::sin(i / 500.0));
        }
        y[12345] = 5000;  // a spike
        y[54321] = 0;     // a stall
        auto pts = decimateMinMax(x, y, 0, 86399, 800);
        QVERIFY(pts.size() <= 4 * 800);
        QVERIFY(pts.size() >= 800);
        double maxY = 0, minY = 1e9;
        for (const auto& p : pts) maxY = std::max(maxY, p.y()), minY = std::min(minY, p.y());
        QCOMPARE(maxY, 5000.0);
        QCOMPARE(minY, 0.0);
        for (qsizetype i = 1; i < pts.size(); ++i) QVERIFY(pts[i].x() > pts[i - 1].x());
        QCOMPARE(pts.first().x(), 0.0);
        QCOMPARE(pts.last().x(), 86399.0);
    }
    void fewPointsComeBackUnchanged() {
        std::vector<double> x = {1, 2, 3}, y = {5, 6, 7};
        QCOMPARE(decimateMinMax(x, y, 0, 10, 800).size(), 3);
        QCOMPARE(decimateMinMax(x, y, 2, 2, 800).size(), 1);
    }
};

QTEST_MAIN(DecimateTest)
#include "DecimateTest.moc"
