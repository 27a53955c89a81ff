// The setup page marks bad input at its field, says why, and keeps Start disabled.
#include "FreshSettings.h"
#include "pages/SetupPage.h"
#include "pages/ExamplesBox.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QStandardPaths>
#include <QTableWidget>
#include <QCheckBox>
#include <QtTest>

using namespace scalelab;
using namespace scalelab::ui;

class SetupPageTest : public QObject {
    Q_OBJECT
    TopologyInfo machine_ = Topology::synthetic("pack:1 core:4 pu:2").info();

private slots:
    void initTestCase() { scalelab::test::startWithFreshSettings(); }

    void defaultsFormAValidPlan() {
        SetupPage page(machine_);
        QVERIFY2(page.startButton()->isEnabled(), qPrintable(page.problems().join(QLatin1Char('\n'))));
        QCOMPARE(page.seriesTable()->rowCount(), 2);
        QCOMPARE(page.seriesTable()->item(0, 0)->text(), QStringLiteral("SMT on"));
        QCOMPARE(page.seriesTable()->item(1, 4)->text(), QStringLiteral("0,2,4,6 / 0,2,4,6"));  // SMT off PUs
        QCOMPARE(page.clientsEdit()->text(), QStringLiteral("1-16 x2"));                        // up to 2 x PUs
        QCOMPARE(page.plan()->repetitions, 3);
        QCOMPARE(page.plan()->warmupS, 5.0);
    }

    void withoutSmtTheDefaultsCompareCoreCountsAndSayWhy() {
        SetupPage page(Topology::synthetic("pack:1 core:2 pu:1").info());
        QCOMPARE(page.seriesTable()->item(0, 0)->text(), QStringLiteral("all cores"));
        QCOMPARE(page.seriesTable()->item(1, 1)->text(), QStringLiteral("cores:1"));
        QVERIFY(page.findChildren<QLabel*>().size() > 0);
        bool explained = false;
        for (auto* l : page.findChildren<QLabel*>()) explained = explained || l->text().contains(QStringLiteral("has no SMT"));
        QVERIFY(explained);
    }

    // A first start (issue 65): the example plans sized to this machine; one it cannot run says
    // why, a click puts the plan in the form, and Start runs it as it is.
    void theExamplesAreSizedToThisMachineAndAClickFillsTheForm() {
        SetupPage page(Topology::synthetic("pack:1 core:2 pu:1").info());
        QList<QPushButton*> buttons = page.examplesBox()->buttons();
        QCOMPARE(buttons.size(), 3);
        QCOMPARE(buttons[0]->objectName(), QStringLiteral("smt-on-off"));
        QVERIFY(!buttons[0]->isEnabled());
        bool saidWhy = false;
        for (auto* l : page.examplesBox()->findChildren<QLabel*>())
            saidWhy = saidWhy || l->text().startsWith(QStringLiteral("Not here: this machine has no SMT"));
        QVERIFY(saidWhy);
        QCOMPARE(buttons[1]->objectName(), QStringLiteral("cores-half"));
        QVERIFY(buttons[1]->isEnabled());
        buttons[1]->click();
        QCOMPARE(page.clientsEdit()->text(), QStringLiteral("1-4 x2"));
        QCOMPARE(page.seriesTable()->rowCount(), 2);
        QCOMPARE(page.seriesTable()->item(0, 1)->text(), QStringLiteral("cores:2"));
        QCOMPARE(page.seriesTable()->item(1, 1)->text(), QStringLiteral("cores:1"));
        QCOMPARE(page.durationSpin()->value(), 10.0);
        QVERIFY2(page.startButton()->isEnabled(), qPrintable(page.problems().join(QLatin1Char('\n'))));
        QCOMPARE(page.plan()->repetitions, 3);
        // Two builds: both series keep a cluster of their own, and the form runs them as given.
        buttons[2]->click();
        QVERIFY2(page.startButton()->isEnabled(), qPrintable(page.problems().join(QLatin1Char('\n'))));
        QCOMPARE(page.seriesTable()->item(0, 0)->text(), QStringLiteral("HEAD"));
        QVERIFY(page.planJson()["series"][1]["data_dir"].get<std::string>().find("-patched") != std::string::npos);
    }

    void aBadClientListDisablesStartAndIsMarked() {
        SetupPage page(machine_);
        page.clientsEdit()->setText(QStringLiteral("1,,x"));
        QVERIFY(!page.startButton()->isEnabled());
        QVERIFY(page.problemsLabel()->text().startsWith(QStringLiteral("Client counts: '1,,x'")));
        QVERIFY(page.clientsEdit()->styleSheet().contains(QStringLiteral("border")));
        QVERIFY(page.clientsEdit()->toolTip().contains(QStringLiteral("expected a list")));
        page.clientsEdit()->setText(QStringLiteral("1,2,4"));
        QVERIFY(page.startButton()->isEnabled());
        QVERIFY(page.clientsEdit()->styleSheet().isEmpty());
    }

    void aShortSweepsEstimateIsInSecondsNotZeroHours() {
        SetupPage page(machine_);
        page.clientsEdit()->setText(QStringLiteral("1,2"));
        page.repetitionsSpin()->setValue(3);
        page.durationSpin()->setValue(2);
        page.warmupSpin()->setValue(0);
        // 2 series x 2 client counts x 3 rounds of 2 s, plus 0.6 s each (kRunOverheadS): 31 s.
        QCOMPARE(page.estimateLabel()->text(), QStringLiteral("12 runs, about 31 s"));
        page.durationSpin()->setValue(600);
        QCOMPARE(page.estimateLabel()->text(), QStringLiteral("12 runs, about 2 h 00 min"));
    }

    // A loaded plan's precision rule may add rounds up to its limit: the estimate says how many.
    void aPrecisionRuleWidensTheEstimateToItsLimit() {
        SetupPage page(machine_);
        QVERIFY(page.setPlanJson({{"version", 1},
                                  {"workload", {{"builtin", "select-only"}}},
                                  {"series", {{{"label", "A"}}, {{"label", "B"}}}},
                                  {"clients", {1, 2}},
                                  {"duration", 2},
                                  {"repetitions", 3},
                                  {"precision", {{"target", 5}, {"max_repetitions", 6}}}}));
        // 12 planned runs of 2.6 s; at most 6 rounds of 4 points: 24 runs.
        QCOMPARE(page.estimateLabel()->text(), QStringLiteral("12 to 24 runs, about 31 s to 1 min 02 s"));
    }

    void aZeroDurationDisablesStart() {
        SetupPage page(machine_);
        page.durationSpin()->setValue(0);
        QVERIFY(!page.startButton()->isEnabled());
        QCOMPARE(page.problemsLabel()->text(), QStringLiteral("Duration: must be a positive number of seconds (got 0)"));
        // Issue 61.10: marked by its colour, not by a style sheet (which drops a spin box's
        // arrows); the bar under the form says the problem itself, not only "not valid".
        QVERIFY(page.durationSpin()->styleSheet().isEmpty());
        QCOMPARE(page.durationSpin()->palette().color(QPalette::Base), QColor(0xfd, 0xec, 0xea));
        QCOMPARE(page.estimateLabel()->text(),
                 QStringLiteral("not valid yet: Duration: must be a positive number of seconds (got 0)"));
        page.durationSpin()->setValue(30);
        QVERIFY2(page.startButton()->isEnabled(), qPrintable(page.problemsLabel()->text()));
        QVERIFY(page.durationSpin()->palette().color(QPalette::Base) != QColor(0xfd, 0xec, 0xea));
    }

    // Issue 61.10: a negative number stays in its field and the plan's rule says what is wrong
    // (the spin boxes put the old value back without a word).
    void aNegativeNumberIsKeptAndSaid() {
        SetupPage page(machine_);
        page.repetitionsSpin()->setValue(-2);
        QCOMPARE(page.repetitionsSpin()->value(), -2);
        QVERIFY(!page.startButton()->isEnabled());
        QCOMPARE(page.problemsLabel()->text(), QStringLiteral("Repetitions: must be at least 1 (got -2)"));
        page.repetitionsSpin()->setValue(2);
        QVERIFY2(page.startButton()->isEnabled(), qPrintable(page.problemsLabel()->text()));
        page.warmupSpin()->setValue(-1);
        QVERIFY(!page.startButton()->isEnabled());
        QVERIFY2(page.problemsLabel()->text().startsWith(QStringLiteral("Warm-up: ")), qPrintable(page.problemsLabel()->text()));
    }

    // Issue 61.10: the thread count is only there to set with "fixed"; every series column says
    // what it takes.
    void theThreadCountIsEnabledOnlyForAFixedNumberAndColumnsExplainThemselves() {
        SetupPage page(machine_);
        auto* rule = page.findChildren<QComboBox*>().at(0);
        for (auto* c : page.findChildren<QComboBox*>())
            if (c->findText(QStringLiteral("fixed")) >= 0) rule = c;
        QSpinBox* count = nullptr;
        for (auto* s : page.findChildren<QSpinBox*>())
            if (s->parentWidget() == rule->parentWidget() && s->maximum() == 1024) count = s;
        QVERIFY(count);
        rule->setCurrentIndex(0);
        QVERIFY(!count->isEnabled());
        rule->setCurrentIndex(2);
        QVERIFY(count->isEnabled());
        for (int c = 0; c < page.seriesTable()->columnCount(); ++c)
            QVERIFY2(!page.seriesTable()->horizontalHeaderItem(c)->toolTip().isEmpty(), qPrintable(QString::number(c)));
        // Many clients on the embedded server: what it will do is said before Start.
        page.clientsEdit()->setText(QStringLiteral("1000"));
        QVERIFY2(page.estimateLabel()->text().endsWith(
                     QStringLiteral("; the embedded server's max_connections goes up to 1014 for 1000 clients (one restart)")),
                 qPrintable(page.estimateLabel()->text()));
    }

    // The form has no rules of its own: a server of yours left blank is the parser's error,
    // marked at the connection field.
    void aBlankConnectionIsThePlanParsersError() {
        SetupPage page(machine_);
        page.remoteRadio()->setChecked(true);
        page.conninfoEdit()->setText(QStringLiteral("   "));
        QVERIFY(!page.startButton()->isEnabled());
        QCOMPARE(page.problemsLabel()->text(),
                 QStringLiteral("Connection: is empty: give a connection string, or leave conninfo out for the embedded server"));
        QVERIFY(page.conninfoEdit()->styleSheet().contains(QStringLiteral("border")));
        page.conninfoEdit()->setText(QStringLiteral("host=db1 dbname=bench"));
        QVERIFY(page.startButton()->isEnabled());
    }

    // The connection test runs off the GUI thread; its answer reaches the page, and a page
    // closed before the answer does not get it (no crash).
    void theConnectionTestAnswersOffTheGuiThread() {
        {
            SetupPage page(machine_);
            page.remoteRadio()->setChecked(true);
            page.conninfoEdit()->setText(QStringLiteral("no_such_keyword=1"));
            page.testConnectionButton()->click();
            QCOMPARE(page.connectionResult()->text(), QStringLiteral("testing..."));
            QTRY_COMPARE(page.connectionResult()->text(), QStringLiteral("the connection string is not valid"));
        }
        auto* page = new SetupPage(machine_);
        page->remoteRadio()->setChecked(true);
        page->conninfoEdit()->setText(QStringLiteral("no_such_keyword=1"));
        page->testConnectionButton()->click();
        delete page;
        QTest::qWait(300);  // the answer arrives for a label that is gone
    }

    void noSeriesDisablesStart() {
        SetupPage page(machine_);
        page.seriesTable()->setRowCount(0);
        page.clientsEdit()->setText(QStringLiteral("1,2"));  // any edit revalidates
        QVERIFY(!page.startButton()->isEnabled());
        QCOMPARE(page.problemsLabel()->text(), QStringLiteral("Series: the table has no series; add one with Add series"));
    }

    // Rows are counted from 1 on the form, as the user sees them (the plan's paths count from 0).
    void aBadPlacementOrSettingIsNamedWithItsSeriesRow() {
        SetupPage page(machine_);
        page.seriesTable()->item(1, 1)->setText(QStringLiteral("cores:99"));
        QVERIFY(page.seriesTable()->item(1, 4)->text().contains(QStringLiteral("asks for 99 cores")));
        // A placement the machine cannot give is refused before the sweep, not at its first run.
        QVERIFY(!page.startButton()->isEnabled());
        QVERIFY2(page.problemsLabel()->text().startsWith(QStringLiteral("series row 2 placement: ")),
                 qPrintable(page.problemsLabel()->text()));
        QVERIFY(page.problemsLabel()->text().contains(QStringLiteral("asks for 99 cores")));
        page.seriesTable()->item(1, 1)->setText(QStringLiteral("halfway"));
        QVERIFY(!page.startButton()->isEnabled());
        QVERIFY2(page.problemsLabel()->text().startsWith(QStringLiteral("series row 2 placement: unknown placement 'halfway'")),
                 qPrintable(page.problemsLabel()->text()));
        QCOMPARE(page.problems().size(), 1);  // named once
        // The row is marked, not the table: a style sheet on the table restyled its header and
        // cut the row numbers (issue 32.11).
        QVERIFY(page.seriesTable()->styleSheet().isEmpty());
        QCOMPARE(page.seriesTable()->item(1, 1)->background().color(), QColor(0xfd, 0xec, 0xea));
        QVERIFY(page.seriesTable()->item(0, 1)->data(Qt::BackgroundRole).isNull());
        page.seriesTable()->item(1, 1)->setText(QStringLiteral("smt-off"));
        page.seriesTable()->item(0, 3)->setText(QStringLiteral("fsync"));
        QVERIFY(!page.startButton()->isEnabled());
        QVERIFY2(page.problemsLabel()->text().startsWith(QStringLiteral("series row 1 Server settings fsync")),
                 qPrintable(page.problemsLabel()->text()));
        // Issue 61.2: a misspelt setting is named on its row, with the nearest real name, before
        // any file dialog (the sweep used to fail with "$.series[0].settings.shared_bufers").
        page.seriesTable()->item(0, 3)->setText(QStringLiteral("shared_bufers=64MB"));
        QVERIFY(!page.startButton()->isEnabled());
        QCOMPARE(page.problemsLabel()->text(),
                 QStringLiteral("series row 1 Server settings shared_bufers: unknown server setting (PostgreSQL has no parameter "
                                "'shared_bufers'; did you mean shared_buffers?)"));
        QCOMPARE(page.seriesTable()->item(0, 1)->background().color(), QColor(0xfd, 0xec, 0xea));
        page.seriesTable()->item(0, 3)->setText(QStringLiteral("shared_buffers=64MB"));
        QVERIFY2(page.startButton()->isEnabled(), qPrintable(page.problemsLabel()->text()));
        page.seriesTable()->item(0, 3)->setText(QString());
        QVERIFY2(page.startButton()->isEnabled(), qPrintable(page.problemsLabel()->text()));
        for (int r = 0; r < 2; ++r) QVERIFY(page.seriesTable()->item(r, 1)->data(Qt::BackgroundRole).isNull());  // unmarked
    }

    // With a server host a placement is that machine's: this machine's cores do not judge it
    // (the host's agent does, when the sweep starts), and the PU column says where it applies.
    void aServerHostsPlacementIsNotJudgedByThisMachine() {
        SetupPage page(machine_);
        page.seriesTable()->item(1, 1)->setText(QStringLiteral("cores:99"));
        QVERIFY(!page.startButton()->isEnabled());
        page.serverHostEdit()->setText(QStringLiteral("bench@db1"));
        QVERIFY2(page.startButton()->isEnabled(), qPrintable(page.problemsLabel()->text()));
        QCOMPARE(page.seriesTable()->item(1, 4)->text(), QStringLiteral("the server host's, placed there"));
        page.seriesTable()->item(1, 1)->setText(QStringLiteral("halfway"));  // still a placement's syntax
        QVERIFY2(page.problemsLabel()->text().startsWith(QStringLiteral("series row 2 placement: unknown placement 'halfway'")),
                 qPrintable(page.problemsLabel()->text()));
        page.seriesTable()->item(1, 1)->setText(QStringLiteral("cores:99"));
        page.serverHostEdit()->setText(QString());
        QVERIFY(page.seriesTable()->item(1, 4)->text().contains(QStringLiteral("asks for 99 cores")));
        QVERIFY(!page.startButton()->isEnabled());
    }

    void aCountedRunAndAMissingReplayFile() {
        SetupPage page(machine_);
        page.lengthCombo()->setCurrentIndex(1);
        page.transactionsSpin()->setValue(500);
        QVERIFY(page.startButton()->isEnabled());
        QCOMPARE(page.plan()->transactionsPerClient, 500);
        QCOMPARE(page.plan()->durationS, 0.0);
        page.builtinCombo()->setCurrentIndex(4);  // replay file
        page.scriptFileEdit()->setText(QStringLiteral("/nonexistent/log.sql"));
        QVERIFY(!page.startButton()->isEnabled());
        QVERIFY2(page.problemsLabel()->text().contains(QStringLiteral("Replay file")) ||
                     page.problemsLabel()->text().contains(QStringLiteral("simple or extended")),
                 qPrintable(page.problemsLabel()->text()));
        QVERIFY(!page.problemsLabel()->text().contains(QStringLiteral("$.")));  // the form names its fields (issue 32.11)
        QVERIFY(page.scriptFileEdit()->styleSheet().contains(QStringLiteral("border")) ||
                page.problemsLabel()->text().contains(QStringLiteral("simple or extended")));
    }

    // Rates and scales are fields: one value, or a list that makes them axes of the grid,
    // counted in the estimate, checked by the plan parser and named by the field's label.
    void ratesAndScalesAreListsThatMakeAGrid() {
        SetupPage page(machine_);
        QVERIFY(page.ratesEdit()->text().isEmpty());
        QCOMPARE(page.plan()->rates, std::vector<double>{0.0});  // empty: unthrottled
        QVERIFY(!page.planJson()["workload"].contains("rate"));
        page.clientsEdit()->setText(QStringLiteral("1,2"));
        page.repetitionsSpin()->setValue(3);
        page.durationSpin()->setValue(10);
        page.warmupSpin()->setValue(0);
        page.ratesEdit()->setText(QStringLiteral("100, 200"));
        page.scalesEdit()->setText(QStringLiteral("1-100 x10"));
        QVERIFY2(page.plan().has_value(), qPrintable(page.problems().join(QLatin1Char('\n'))));
        QCOMPARE(page.plan()->rates, (std::vector<double>{100, 200}));
        QCOMPARE(page.plan()->scales, (std::vector<int64_t>{1, 10, 100}));
        // 2 series x 2 client counts x 2 rates x 3 scales x 3 repetitions
        QVERIFY2(page.estimateLabel()->text().startsWith(QStringLiteral("72 runs")), qPrintable(page.estimateLabel()->text()));
        QCOMPARE(page.planJson()["data"]["scale"], nlohmann::json("1-100 x10"));

        page.ratesEdit()->setText(QStringLiteral("0.5"));  // one rate may have a fraction, as -R
        QCOMPARE(page.plan()->rates, std::vector<double>{0.5});
        QCOMPARE(page.planJson()["workload"]["rate"], nlohmann::json(0.5));
        page.scalesEdit()->setText(QStringLiteral("10"));
        QCOMPARE(page.planJson()["data"]["scale"], nlohmann::json(10));

        page.ratesEdit()->setText(QStringLiteral("100, fast"));
        QVERIFY(!page.startButton()->isEnabled());
        QVERIFY2(page.problems().join(QLatin1Char(' ')).startsWith(QStringLiteral("Offered rates: '100, fast'")),
                 qPrintable(page.problems().join(QLatin1Char(' '))));
        QVERIFY(!page.ratesEdit()->styleSheet().isEmpty());
        page.ratesEdit()->setText(QStringLiteral("100"));
        QVERIFY(page.ratesEdit()->styleSheet().isEmpty());
        page.scalesEdit()->setText(QString());
        QVERIFY(!page.startButton()->isEnabled());
        QVERIFY2(page.problems().join(QLatin1Char(' ')).startsWith(QStringLiteral("Scales")),
                 qPrintable(page.problems().join(QLatin1Char(' '))));
        QVERIFY(!page.scalesEdit()->styleSheet().isEmpty());

        // A plan's lists come back as it writes them, with nothing left over for "kept".
        nlohmann::json plan = page.planJson();
        plan["workload"]["rate"] = "100-400 x2";
        plan["data"]["scale"] = {1, 10};
        SetupPage other(machine_);
        QVERIFY(other.setPlanJson(plan));
        QCOMPARE(other.ratesEdit()->text(), QStringLiteral("100-400 x2"));
        QCOMPARE(other.scalesEdit()->text(), QStringLiteral("1, 10"));
        QVERIFY(other.keptMembers().isEmpty());
        QCOMPARE(other.plan()->scales, (std::vector<int64_t>{1, 10}));
        plan["workload"]["rate"] = 5000000.0;
        QVERIFY(other.setPlanJson(plan));
        QCOMPARE(other.ratesEdit()->text(), QStringLiteral("5000000"));
    }

    // TPROC-C from the Script menu: the plan's workload.kind and data.warehouses; Scales is
    // pgbench's and stands aside; a plan of TPROC-C comes back as it was, nothing kept over.
    void tproccIsAScriptWithItsWarehouses() {
        SetupPage page(machine_);
        QVERIFY(!page.warehousesSpin()->isEnabled());
        page.builtinCombo()->setCurrentIndex(SetupPage::kTproccItem);
        QCOMPARE(page.builtinCombo()->currentText(), QStringLiteral("TPROC-C (order entry)"));
        QVERIFY(page.warehousesSpin()->isEnabled());
        QVERIFY(!page.scalesEdit()->isEnabled());
        page.warehousesSpin()->setValue(4);
        QVERIFY2(page.plan().has_value(), qPrintable(page.problems().join(QLatin1Char('\n'))));
        QVERIFY(page.plan()->tprocc());
        QCOMPARE(page.plan()->warehouses, std::optional<int>(4));
        nlohmann::json plan = page.planJson();
        QCOMPARE(plan["workload"]["kind"], nlohmann::json("tprocc"));
        QVERIFY(!plan["workload"].contains("builtin"));
        QCOMPARE(plan["data"], nlohmann::json({{"warehouses", 4}}));

        SetupPage other(machine_);
        QVERIFY(other.setPlanJson(plan));
        QCOMPARE(other.builtinCombo()->currentIndex(), SetupPage::kTproccItem);
        QCOMPARE(other.warehousesSpin()->value(), 4);
        QVERIFY(other.keptMembers().isEmpty());
        // Back to pgbench's script: its scale again, no warehouses left in the plan.
        other.builtinCombo()->setCurrentIndex(0);
        QVERIFY2(other.plan().has_value(), qPrintable(other.problems().join(QLatin1Char('\n'))));
        QVERIFY(!other.plan()->tprocc());
        QVERIFY(!other.planJson()["data"].contains("warehouses"));
        QVERIFY(!other.planJson()["workload"].contains("kind"));
    }

    // Issue 62: where the sessions wait is sampled unless unchecked; a plan that turns it off
    // comes back unchecked, with nothing kept aside.
    void waitsAreSampledUnlessUnchecked() {
        SetupPage page(machine_);
        QCheckBox* waits = nullptr;
        for (auto* c : page.findChildren<QCheckBox*>())
            if (c->text().startsWith(QStringLiteral("where the sessions wait"))) waits = c;
        QVERIFY(waits);
        QVERIFY(waits->isChecked());
        QVERIFY(!page.planJson().contains("diagnostics"));
        QVERIFY2(page.plan().has_value(), qPrintable(page.problems().join(QLatin1Char('\n'))));
        QVERIFY(page.plan()->waits);
        waits->setChecked(false);
        QCOMPARE(page.planJson()["diagnostics"], nlohmann::json({{"waits", false}}));
        QVERIFY(page.plan().has_value());
        QVERIFY(!page.plan()->waits);

        SetupPage other(machine_);
        QVERIFY(other.setPlanJson(page.planJson()));
        for (auto* c : other.findChildren<QCheckBox*>())
            if (c->text().startsWith(QStringLiteral("where the sessions wait"))) QVERIFY(!c->isChecked());
        QVERIFY(other.keptMembers().isEmpty());
        QCOMPARE(other.planJson()["diagnostics"], nlohmann::json({{"waits", false}}));
    }

    // The CPU profile is off unless checked; a plan's own rate comes back with it.
    void theCpuProfileIsRecordedWhenChecked() {
        SetupPage page(machine_);
        QCheckBox* profile = nullptr;
        for (auto* c : page.findChildren<QCheckBox*>())
            if (c->text().startsWith(QStringLiteral("where the server's CPU goes"))) profile = c;
        QVERIFY(profile);
        QVERIFY(!profile->isChecked());
        QVERIFY(!page.planJson().contains("diagnostics"));
        profile->setChecked(true);
        QCOMPARE(page.planJson()["diagnostics"], nlohmann::json({{"cpu_profile", true}}));
        QVERIFY2(page.plan().has_value(), qPrintable(page.problems().join(QLatin1Char('\n'))));
        QVERIFY(page.plan()->cpuProfile);

        nlohmann::json loaded = page.planJson();
        loaded["diagnostics"]["profile_hz"] = 49;
        SetupPage other(machine_);
        QVERIFY(other.setPlanJson(loaded));
        for (auto* c : other.findChildren<QCheckBox*>())
            if (c->text().startsWith(QStringLiteral("where the server's CPU goes"))) QVERIFY(c->isChecked());
        QVERIFY(other.keptMembers().isEmpty());
        QCOMPARE(other.planJson()["diagnostics"], nlohmann::json({{"cpu_profile", true}, {"profile_hz", 49}}));
        QCOMPARE(other.plan()->profileHz, 49.0);
    }

    void thePlanRoundTripsThroughJson() {
        SetupPage page(machine_);
        page.clientsEdit()->setText(QStringLiteral("2-8 +2"));
        page.addSeries(QStringLiteral("patched"), QStringLiteral("cores:2+smt"), QStringLiteral("work_mem=8MB"));
        nlohmann::json j = page.planJson();
        SetupPage other(machine_);
        QVERIFY(other.setPlanJson(j));
        QCOMPARE(other.planJson(), j);
    }
};

QTEST_MAIN(SetupPageTest)
#include "SetupPageTest.moc"
