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
        SweepProgress p;
        p.run = 1;
        p.total = 2;
        p.series = "A";
        p.state = SweepState::Running;
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
