// The Results page's Statements tab and the HTML report's Statements section: a series'
// statements by time at a client count, and against another series the statement whose mean
// time changed called, the others not, with the runs that have no statements named.
#include "OpenAndWait.h"
#include "RunRecords.h"

#include "charts/ReportExport.h"
#include "metrics/MetricsJson.h"
#include "pages/ResultsPage.h"
#include "pages/StatementsPanel.h"
#include "store/ExperimentStore.h"
#include "store/StatementTexts.h"
#include "util/TempDir.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QTableWidget>
#include <QtTest>

using namespace scalelab;
using namespace scalelab::ui;

namespace {

// A completed run whose counted window ran `statements` (queryid -> mean ms), 1000 calls each.
RunRecord runWith(const std::string& series, int clients, int round, int64_t index,
                  const std::map<int64_t, double>& statements) {
    RunRecord r = test::completedRun(series, clients, round, 1000, index);
    r.transactions = 1000;
    StatementsWindow w;
    for (const auto& [id, mean] : statements) {
        StatementDelta d;
        d.queryId = id;
        d.calls = 1000;
        d.meanMs = mean;
        d.totalMs = 1000 * mean;
        d.rows = 1000;
        w.rows.push_back(d);
    }
    SystemSample s;
    s.statements = w;
    r.detail["system"] = toJson(s, false);
    return r;
}

std::string experimentWithStatements(const TempDir& dir) {
    std::string path = (dir.path() / "e.slab").string();
    auto store = ExperimentStore::create(path);
    const double a[] = {0.50, 0.51, 0.49}, b[] = {0.80, 0.82, 0.79};
    const double other[] = {0.100, 0.104, 0.098}, otherB[] = {0.101, 0.099, 0.103};
    int64_t index = 0;
    for (int round = 1; round <= 3; ++round) {
        store->saveRun(runWith("A", 4, round, index++, {{11, a[round - 1]}, {-22, other[round - 1]}}), {});
        store->saveRun(runWith("B", 4, round, index++, {{11, b[round - 1]}, {-22, otherB[round - 1]}}), {});
        store->saveRun(runWith("A", 1, round, index++, {{11, 0.3}, {-22, 0.05}}), {});
    }
    store->saveRun(test::completedRun("B", 4, 4, 1000, index++), {});  // an older run: no statements
    saveStatementTexts(*store, {{"11", "UPDATE t SET x = x + $1\n  WHERE id = $2"}, {"-22", "SELECT x FROM t WHERE id = $1"}});
    return path;
}

} // namespace

class StatementsViewTest : public QObject {
    Q_OBJECT

private slots:
    void showsASeriesStatementsAndTheOnesThatChangedAgainstAnother() {
        TempDir dir("scalelab-statements-view");
        std::string path = experimentWithStatements(dir);
        ResultsPage page(Topology::synthetic("pack:1 core:2 pu:1").info());
        QVERIFY(test::loadAndWait(page, QString::fromStdString(path)));
        StatementsPanel* panel = page.statements();
        QCOMPARE(panel->seriesCombo()->count(), 2);
        QCOMPARE(panel->clientsCombo()->currentText(), QStringLiteral("4"));  // the highest first
        QCOMPARE(panel->againstCombo()->currentIndex(), 0);                   // none: A's own list
        // Issue 61.8: the series shown is not offered against itself.
        QCOMPARE(panel->againstCombo()->count(), 2);
        QCOMPARE(panel->againstCombo()->itemText(1), QStringLiteral("B"));
        QVERIFY(!panel->pairedBox()->isEnabled());
        QTableWidget* t = panel->table();
        QCOMPARE(t->rowCount(), 2);
        QCOMPARE(t->item(0, t->columnCount() - 1)->text(), QStringLiteral("UPDATE t SET x = x + $1 WHERE id = $2"));
        QCOMPARE(t->item(0, 0)->text(), QStringLiteral("500.0"));  // ms per run: 1000 calls of 0.5 ms
        QVERIFY(!t->item(0, 4)->text().isEmpty());

        // B against A: the update got slower (+60%), the select did not change.
        panel->seriesCombo()->setCurrentText(QStringLiteral("B"));
        panel->againstCombo()->setCurrentText(QStringLiteral("A"));
        QCOMPARE(t->rowCount(), 2);
        QCOMPARE(t->horizontalHeaderItem(0)->text(), QStringLiteral("A mean ms"));
        QCOMPARE(t->item(0, 5)->text(), QStringLiteral("UPDATE t SET x = x + $1 WHERE id = $2"));
        QCOMPARE(t->item(0, 4)->text(), QStringLiteral("distinguishable"));
        QCOMPARE(t->item(1, 4)->text(), QStringLiteral("within run-to-run variation"));
        QCOMPARE(panel->againstCombo()->findText(QStringLiteral("B")), -1);
        QVERIFY(panel->pairedBox()->isEnabled());
        QString note = panel->note()->text();
        QVERIFY2(note.contains(QStringLiteral("Bonferroni over 2 statements")), qPrintable(note));
        QVERIFY2(note.contains(QStringLiteral("B at 4 clients: 1 of 4 runs have no statements")), qPrintable(note));
        panel->pairedBox()->setChecked(true);
        QVERIFY2(panel->note()->text().contains(QStringLiteral("paired by round")), qPrintable(panel->note()->text()));

        // B never ran 1 client.
        panel->clientsCombo()->setCurrentText(QStringLiteral("1"));
        QCOMPARE(t->rowCount(), 0);
        QVERIFY2(panel->note()->text().contains(QStringLiteral("B has no completed run at 1 client.")),
                 qPrintable(panel->note()->text()));
    }

    void theHtmlReportHasTheStatementsOfTheComparison() {
        TempDir dir("scalelab-statements-view");
        std::string path = experimentWithStatements(dir);
        std::string html = (dir.path() / "r.html").string();
        ScalingView view;
        ReportChoice choice;
        choice.baseline = "A";
        choice.candidate = "B";
        writeHtmlReport(path, view, choice, html);
        QFile f(QString::fromStdString(html));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QString text = QString::fromUtf8(f.readAll());
        int at = text.indexOf(QStringLiteral("<h2>Statements</h2>"));
        QVERIFY(at > 0);
        QString section = text.mid(at, text.indexOf(QStringLiteral("<h2>Runs</h2>")) - at);
        QVERIFY2(section.contains(QStringLiteral("B against A at 4 clients")), qPrintable(section));
        QVERIFY2(section.contains(QStringLiteral("Bonferroni over 2 statements")), qPrintable(section));
        QVERIFY2(section.indexOf(QStringLiteral("distinguishable")) < section.indexOf(QStringLiteral("SELECT x FROM t")),
                 qPrintable(section));
        QVERIFY2(section.contains(QStringLiteral("B at 4 clients: 1 run without statements")), qPrintable(section));

        // One series shown, nothing compared: its statements at its highest client count.
        view.series = QStringList{QStringLiteral("A")};
        writeHtmlReport(path, view, ReportChoice{}, html);
        QFile g(QString::fromStdString(html));
        QVERIFY(g.open(QIODevice::ReadOnly));
        QString plain = QString::fromUtf8(g.readAll());
        QVERIFY2(plain.contains(QStringLiteral("A at 4 clients, 3 runs")), qPrintable(plain));
        QVERIFY2(!plain.contains(QStringLiteral("B at 4 clients")), qPrintable(plain));
    }
};

QTEST_MAIN(StatementsViewTest)
#include "StatementsViewTest.moc"
