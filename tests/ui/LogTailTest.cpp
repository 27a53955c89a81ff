// Following a log that grows: whole lines only, a backlog at the start, a rotated file read
// again from its start, a missing file read as nothing. And the Live page's Server log tab
// following the embedded server of the series that runs.
#include "models/LogTail.h"
#include "pages/LivePage.h"
#include "server/EmbeddedServer.h"
#include "util/TempDir.h"

#include <QFile>
#include <QPlainTextEdit>
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
};

QTEST_MAIN(LogTailTest)
#include "LogTailTest.moc"
