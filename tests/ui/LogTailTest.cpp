// Following a log that grows: whole lines only, a backlog at the start, a rotated file read
// again from its start, a missing file read as nothing. And the Live page's Server log tab
// following the embedded server of the series that runs.
#include "models/LogTail.h"
#include "pages/LivePage.h"
#include "server/EmbeddedServer.h"
#include "util/TempDir.h"

#include <QFile>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QtTest>

using namespace scalelab;
using namespace scalelab::ui;

namespace {
void append(const QString& path, const QByteArray& text, bool truncate = false) {
    QFile f(path);
    QVERIFY(f.open(truncate ? QIODevice::WriteOnly | QIODevice::Truncate : QIODevice::Append));
    f.write(text);
}
// Run 1 of 2, of series `series`, running.
SweepProgress runOneOfTwo(const std::string& series) {
    SweepProgress p;
    p.run = 1;
    p.total = 2;
    p.series = series;
    p.state = SweepState::Running;
    return p;
}
} // namespace

class LogTailTest : public QObject {
    Q_OBJECT
private slots:
    void readsWholeNewLinesAndStartsAgainAfterRotation() {
        TempDir dir("scalelab-tail");
        QString path = QString::fromStdString((dir.path() / "server.log").string());
        append(path, "one\ntwo\nthree\n", true);
        LogTail tail(path, true, 2);
        QCOMPARE(tail.read(), (QStringList{QStringLiteral("two"), QStringLiteral("three")}));  // the backlog
        QCOMPARE(tail.read(), QStringList{});
        append(path, "four\nfi");
        QCOMPARE(tail.read(), QStringList{QStringLiteral("four")});  // "fi" waits for its newline
        append(path, "ve\n");
        QCOMPARE(tail.read(), QStringList{QStringLiteral("five")});
        append(path, "new\n", true);  // rotated: shorter than what was read
        QCOMPARE(tail.read(), QStringList{QStringLiteral("new")});
        LogTail missing(QString::fromStdString((dir.path() / "none.log").string()));
        QCOMPARE(missing.read(), QStringList{});
    }

    void theLivePageFollowsTheServerOfTheSeriesThatRuns() {
        TempDir dir("scalelab-tail-live");
        QString path = QString::fromStdString((dir.path() / "server.log").string());
        append(path, "LOG:  database system is ready to accept connections\n", true);
        LivePage page(Topology::synthetic("pack:1 core:2 pu:1").info());
        page.startSweep();
        page.setServerLogs({{"A", path}});
        page.setRunning(true);
        SweepProgress p = runOneOfTwo("A");
        page.showProgress(p);
        QString text = page.serverLog()->toPlainText();
        QVERIFY2(text.contains(QStringLiteral("-- A: ") + path), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("ready to accept connections")));
        append(path, "FATAL:  sorry, too many clients already\n");
        page.readServerLog();
        QVERIFY(page.serverLog()->toPlainText().endsWith(QStringLiteral("FATAL:  sorry, too many clients already")));
        p.series = "remote";
        p.run = 2;
        page.showProgress(p);
        QVERIFY(page.serverLog()->toPlainText().endsWith(QStringLiteral("-- remote runs on a server of yours: its log is on that server --")));
        page.setRunning(false);
    }

    // A server host's log comes through its agent (SweepController::serverLog): each series
    // that starts says where it is read, and the lines follow.
    void aServerHostsLogIsShownAsItComes() {
        LivePage page(Topology::synthetic("pack:1 core:2 pu:1").info());
        page.startSweep();
        page.setServerLogs({}, QStringLiteral("bench@db1"));
        page.setRunning(true);
        page.showProgress(runOneOfTwo("A"));
        page.addServerLog({QStringLiteral("LOG:  checkpoint starting: time"), QStringLiteral("LOG:  checkpoint complete")});
        QString text = page.serverLog()->toPlainText();
        QVERIFY2(text.startsWith(QStringLiteral("-- A: the embedded server on server host bench@db1, read there by its agent --")),
                 qPrintable(text));
        QVERIFY(text.endsWith(QStringLiteral("LOG:  checkpoint starting: time\nLOG:  checkpoint complete")));
        QVERIFY(!text.contains(QStringLiteral("server of yours")));
        page.setRunning(false);
    }

    // Issue 32.10: the Server log did not follow new lines unless scrolled down by hand. At the
    // bottom it follows (also while its tab is not the one shown); scrolled up, it stays.
    void theServerLogFollowsItsEndUntilTheUserScrollsUp() {
        LivePage page(Topology::synthetic("pack:1 core:2 pu:1").info());
        page.resize(1024, 700);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QScrollBar* bar = page.serverLog()->verticalScrollBar();
        for (int i = 0; i < 300; ++i) page.appendServerLog(QStringLiteral("LOG:  line %1").arg(i));
        QApplication::processEvents();
        QVERIFY(bar->maximum() > 0);
        QCOMPARE(bar->value(), bar->maximum());
        bar->setValue(bar->maximum() / 2);  // the user scrolls up to read
        int reading = bar->value();
        for (int i = 0; i < 20; ++i) page.appendServerLog(QStringLiteral("LOG:  later %1").arg(i));
        QApplication::processEvents();
        QCOMPARE(bar->value(), reading);
        bar->setValue(bar->maximum());  // back at the end: it follows again
        page.appendServerLog(QStringLiteral("FATAL:  the last line"));
        QApplication::processEvents();
        QCOMPARE(bar->value(), bar->maximum());
    }
};

QTEST_MAIN(LogTailTest)
#include "LogTailTest.moc"
