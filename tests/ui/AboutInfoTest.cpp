#include "AboutInfo.h"

#include "util/Versions.h"

#include <QApplication>
#include <QtTest>

class AboutInfoTest : public QObject {
    Q_OBJECT
private slots:
    void namesScaleLabQtEveryLibraryTheEnginesAndTheServer() {
        const QStringList lines = scalelab::ui::aboutText(QStringLiteral("PostgreSQL 15.18 from /x (PATH)"))
                                      .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.value(0), QStringLiteral("ScaleLab ") + QString::fromStdString(scalelab::scalelabVersion()));
        QCOMPARE(lines.value(1), QStringLiteral("Qt ") + QString::fromLatin1(qVersion()));
        QCOMPARE(lines.value(2).section(QLatin1Char(' '), 0, 0), QStringLiteral("libpq"));
        QCOMPARE(lines.value(3).section(QLatin1Char(' '), 0, 0), QStringLiteral("libpqxx"));
        QCOMPARE(lines.value(4).section(QLatin1Char(' '), 0, 0), QStringLiteral("hwloc"));
        QVERIFY2(lines.value(5).startsWith(QStringLiteral("load engines: wire (")), qPrintable(lines.value(5)));
        QVERIFY(lines.value(5).contains(QStringLiteral("libpq (pipelines, TLS)")));
        QCOMPARE(lines.value(6), QStringLiteral("server: PostgreSQL 15.18 from /x (PATH)"));
        QCOMPARE(lines.size(), 7);
    }
};

QTEST_MAIN(AboutInfoTest)
#include "AboutInfoTest.moc"
