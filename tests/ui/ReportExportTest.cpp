// The window on a laptop screen, and sharing what it shows: every page fits 1024x700 (pages
// scroll, nothing is cut off sideways); the Series menu, the HTML report and the CSV export
// keep the view on screen; notes on runs and on the experiment are written into the file.
#include "FreshSettings.h"
#include "charts/ChartExport.h"
#include "charts/ReportExport.h"
#include "charts/ScalingChart.h"
#include "pages/LivePage.h"
#include "pages/MainWindow.h"
#include "pages/OverviewPage.h"
#include "pages/ResultsPage.h"
#include "pages/SetupPage.h"
#include "pages/StatusText.h"
#include "server/EmbeddedServer.h"
#include "store/ExperimentStore.h"
#include "util/TempDir.h"

#include "AnswerMessageBox.h"
#include "OpenAndWait.h"
#include "RunRecords.h"

#include <QCheckBox>
#include <QClipboard>
#include <QGuiApplication>
#include <QComboBox>
#include <QDialog>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTextBrowser>
#include <QToolButton>
#include <QSpinBox>
#include <QDialogButtonBox>
#include <QWheelEvent>
#include <QAbstractSpinBox>
#include <QPainter>
#include <QRegularExpression>
#include <QBuffer>
#include <QGraphicsScene>
#include <QSvgGenerator>
#include <QSvgRenderer>
#include <QtTest>

using namespace scalelab;
using namespace scalelab::ui;

namespace {

// Two series at 1, 2, 4 and 8 clients, three rounds each; B is 20% below A.
void writeExperiment(const std::string& path) {
    auto store = ExperimentStore::create(path);
    int64_t index = 0;
    for (int rep = 1; rep <= 3; ++rep)
        for (int clients : {1, 2, 4, 8})
            for (const char* series : {"A", "B"})
                store->saveRun(test::completedRun(series, clients, rep,
                                                  (series[0] == 'A' ? 1000.0 : 800.0) * clients * (1.0 + 0.01 * rep), index++),
                               {});
}

// The window at a laptop's 1024x700, shown, on `page`: that page's scroll area, or nullptr when
// the window was not exposed.
QScrollArea* showOnLaptop(MainWindow& window, QWidget* page) {
    window.resize(1024, 700);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window)) return nullptr;
    window.showPage(page);
    return window.pageArea(window.tabs()->currentIndex());
}

QString slurp(const QString& path) {
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    return QString::fromUtf8(f.readAll());
}

} // namespace

class ReportExportTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { scalelab::test::startWithFreshSettings(); }

    void everyPageFitsALaptopScreen() {
        TempDir dir("scalelab-small");
        std::string path = (dir.path() / "e.slab").string();
        writeExperiment(path);
        MainWindow window;
        QVERIFY(test::openAndWait(window, QString::fromStdString(path)));
        window.resize(1024, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(window.size(), QSize(1024, 700));
        // Not smaller than a window one can work in (issue 32.11: it took 200x150).
        window.resize(200, 150);
        QApplication::processEvents();
        QVERIFY2(window.width() >= 760 && window.height() >= 520,
                 qPrintable(QStringLiteral("%1x%2").arg(window.width()).arg(window.height())));
        window.resize(1024, 700);
        QApplication::processEvents();
        QVERIFY2(window.minimumSizeHint().width() <= 1024 && window.minimumSizeHint().height() <= 700,
                 qPrintable(QStringLiteral("minimum %1x%2").arg(window.minimumSizeHint().width()).arg(window.minimumSizeHint().height())));
        for (int i = 0; i < window.tabs()->count(); ++i) {
            window.tabs()->setCurrentIndex(i);
            QApplication::processEvents();
            QScrollArea* area = window.pageArea(i);
            QVERIFY(area);
            // Nothing cut off sideways: a page scrolls down when it must, never across.
            QVERIFY2(area->horizontalScrollBar()->maximum() == 0, qPrintable(window.tabs()->tabText(i)));
        }
        // The status bar's message is never cut without a way to read it (issue 32.11): a long
        // one ends in "..." and is whole in the tool tip; the window keeps its width.
        auto* status = window.findChild<StatusText*>();
        QVERIFY(status);
        QString longMessage = QStringLiteral("Wrote runs.csv, points.csv, samples.csv, compare.csv and peak.csv to ") +
                              QString(120, QLatin1Char('x'));
        status->say(longMessage);
        QApplication::processEvents();
        QCOMPARE(window.width(), 1024);
        QVERIFY2(status->text().endsWith(QChar(0x2026)) && status->text().size() < longMessage.size(), qPrintable(status->text()));
        QCOMPARE(status->toolTip(), longMessage);
        QCOMPARE(window.statusMessage(), longMessage);
        status->say(QStringLiteral("Wrote a.png"));
        QCOMPARE(status->text(), QStringLiteral("Wrote a.png"));
        QVERIFY(status->toolTip().isEmpty());
        // Start sweep is in reach without scrolling (issue 32.1): it sits in a bar below the
        // scrolled form, seen with the form scrolled to its top and to its bottom.
        window.showPage(window.setupPage());
        QScrollArea* area = window.pageArea(window.tabs()->currentIndex());
        QVERIFY(area);
        QVERIFY2(area->verticalScrollBar()->maximum() > 0, "the form scrolls at 1024x700");
        for (int at : {0, area->verticalScrollBar()->maximum()}) {
            area->verticalScrollBar()->setValue(at);
            QApplication::processEvents();
            QVERIFY(!window.setupPage()->startButton()->visibleRegion().isEmpty());
        }
    }

    // Issue 32.1: scrolling the Setup page with the pointer over a field changed the field
    // (scale, duration, repetitions, order, threads) without a word. Unfocused, the wheel
    // scrolls the page; a field that has the focus takes it.
    void theWheelScrollsTheFormNotItsFields() {
        MainWindow window;
        QScrollArea* area = showOnLaptop(window, window.setupPage());
        QVERIFY(area);
        auto wheel = [](QWidget* w) {
            QPointF at(w->width() / 2.0, w->height() / 2.0);
            QWheelEvent e(at, w->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
            QApplication::sendEvent(w, &e);
        };
        window.setFocus();
        int fields = 0;
        for (auto* spin : window.setupPage()->findChildren<QAbstractSpinBox*>()) {
            if (!spin->isEnabled()) continue;
            QString before = spin->text();
            wheel(spin);
            QCOMPARE(spin->text(), before);
            ++fields;
        }
        for (auto* combo : window.setupPage()->findChildren<QComboBox*>()) {
            if (!combo->isEnabled()) continue;
            int before = combo->currentIndex();
            wheel(combo);
            QCOMPARE(combo->currentIndex(), before);
            ++fields;
        }
        QVERIFY2(fields >= 6, qPrintable(QString::number(fields)));
        QVERIFY2(area->verticalScrollBar()->value() > 0, "the wheel scrolled the page");
        // A field with the focus takes the wheel.
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        bool tried = false;
        for (auto* spin : window.setupPage()->findChildren<QSpinBox*>()) {
            if (!spin->isEnabled() || spin->value() <= spin->minimum()) continue;
            spin->setFocus();
            QApplication::processEvents();
            QVERIFY(spin->hasFocus());
            int before = spin->value();
            wheel(spin);
            QCOMPARE(spin->value(), before - 1);
            tried = true;
            break;
        }
        QVERIFY(tried);
    }

    // Issue 32.8: a long failure message did not wrap; it widened the Live page past the window,
    // pushing Pause and Stop off-screen behind a horizontal scroll bar.
    void aLongFailureMessageWrapsOnTheLivePage() {
        MainWindow window;
        QScrollArea* area = showOnLaptop(window, window.livePage());
        QVERIFY(area);
        QString path = QStringLiteral("/var/lib/scalelab/") + QString(200, QLatin1Char('x')) + QStringLiteral(".slab");
        window.livePage()->showFinished(QStringLiteral("run 3 (A at 4 clients, round 2) could not be stored: ") + path +
                                        QStringLiteral(": database or disk is full. ").repeated(8));
        QApplication::processEvents();
        QCOMPARE(area->horizontalScrollBar()->maximum(), 0);
        QVERIFY(!window.livePage()->pauseButton()->visibleRegion().isEmpty());
        QVERIFY(window.livePage()->statusLabel()->height() > window.livePage()->statusLabel()->fontMetrics().height());  // wrapped
    }

    void exportsKeepTheViewOnScreen() {
        TempDir dir("scalelab-view");
        std::string path = (dir.path() / "e.slab").string();
        writeExperiment(path);
        MainWindow window;
        // Empty, the Results page says what to do (issue 32.11: it was a blank box).
        QVERIFY(!window.resultsPage()->emptyNote()->isHidden());
        QVERIFY(window.resultsPage()->emptyNote()->text().contains(QStringLiteral("Run a sweep")));
        QVERIFY(test::openAndWait(window, QString::fromStdString(path)));
        ResultsPage* results = window.resultsPage();
        QCOMPARE(results->data().series.size(), 2);
        QVERIFY(results->emptyNote()->isHidden());
        QCOMPARE(results->seriesButton()->menu()->actions().size(), 2);

        // Take B off the chart with the Series menu: A keeps its colour.
        results->seriesButton()->menu()->actions().at(1)->setChecked(false);
        QCOMPARE(results->data().series.size(), 1);
        QCOMPARE(results->data().series[0].label, QStringLiteral("A"));
        QCOMPARE(results->data().series[0].colorIndex, 0);
        QCOMPARE(results->view().series, QStringList{QStringLiteral("A")});
        for (auto* box : results->findChildren<QCheckBox*>())
            if (box->text() == QStringLiteral("log2 clients")) box->setChecked(true);
        QVERIFY(results->view().logX);

        QString html = QString::fromStdString((dir.path() / "report.html").string());
        QCOMPARE(test::answerOf([&](auto then) { window.exportHtmlTo(html, then); }), QString());
        QString text = slurp(html);
        QVERIFY(text.contains(QStringLiteral("log2 clients axis")));
        QVERIFY(text.contains(QStringLiteral("series: A")));
        QVERIFY(text.contains(QStringLiteral("<svg")));
        int at = static_cast<int>(text.indexOf(QStringLiteral("<tr><td>B</td>")));
        QVERIFY2(at < 0, qPrintable(text.mid(at - 300, 400)));
        QVERIFY(text.contains(QStringLiteral("One series: nothing to compare it with.")));

        // Both series again: the CSV export holds the comparison and peak tables of the view.
        results->showSeries({});
        QCOMPARE(results->data().series.size(), 2);
        QString csvDir = QString::fromStdString((dir.path() / "csv").string());
        QCOMPARE(test::answerOf([&](auto then) { window.exportCsvTo(csvDir, then); }), QString());
        for (const char* f : {"runs.csv", "points.csv", "samples.csv", "compare.csv", "peak.csv"})
            QVERIFY2(QFile::exists(csvDir + QLatin1Char('/') + QLatin1String(f)), f);
        QString compare = slurp(csvDir + QStringLiteral("/compare.csv"));
        QVERIFY(compare.contains(QStringLiteral("\r\n1,A,B,")));
        QVERIFY(compare.contains(QStringLiteral("distinguishable")));
        QVERIFY(!QFile::exists(csvDir + QStringLiteral("/usl.csv")));  // the USL box is not ticked
    }

    // Edit > Copy report as Markdown / as text (issue 37): the view on screen, with the
    // experiment's summary, on the clipboard as `report --format` writes it.
    void theReportIsCopiedToPaste() {
        TempDir dir("scalelab-copy");
        std::string path = (dir.path() / "e.slab").string();
        writeExperiment(path);
        ExperimentStore::open(path)->addProvenance({{"machine", {{"hostname", "db1"}, {"cpu_model", "Xeon"}}}});
        MainWindow window;
        QAction* markdown = nullptr;
        QAction* text = nullptr;
        for (QAction* a : window.exportActions()) {
            if (a->text() == QStringLiteral("Copy report as &Markdown")) markdown = a;
            if (a->text() == QStringLiteral("Copy report as &text")) text = a;
        }
        QVERIFY(markdown && text);
        QVERIFY(!markdown->isEnabled());  // nothing open: nothing to copy
        QVERIFY(test::openAndWait(window, QString::fromStdString(path)));
        QVERIFY(markdown->isEnabled());
        markdown->trigger();
        QString md = QGuiApplication::clipboard()->text();
        QVERIFY2(md.startsWith(QStringLiteral("## Experiment\n\n- **Machine:** db1, Xeon\n")), qPrintable(md));
        QVERIFY2(md.contains(QStringLiteral("| A | 8 | 3 | ")), qPrintable(md));
        QVERIFY2(md.contains(QStringLiteral("## B vs A")), qPrintable(md));  // the Comparison tab's choice
        window.resultsPage()->showSeries({QStringLiteral("A")});
        text->trigger();
        QString plain = QGuiApplication::clipboard()->text();
        QVERIFY2(plain.startsWith(QStringLiteral("Machine: db1, Xeon\n")), qPrintable(plain));
        QVERIFY2(!plain.contains(QStringLiteral("\nB ")), qPrintable(plain));  // the view: A only
    }

    // Issue 31.3: Qt Charts draws legend names as rich text, and a label <img src="FILE"> put a
    // local image into the exported PNG (and, through the chart, into the HTML report).
    void aLabelThatLooksLikeHtmlIsDrawnAsTyped() {
        TempDir dir("scalelab-label-html");
        QString secret = QString::fromStdString((dir.path() / "secret.png").string());
        QImage image(200, 200, QImage::Format_RGB32);
        image.fill(QColor(1, 254, 3));  // a colour no chart uses
        QVERIFY(image.save(secret));
        std::string label = "<img src=\"" + secret.toStdString() + "\" width=\"200\" height=\"200\">";
        std::string path = (dir.path() / "e.slab").string();
        {
            auto store = ExperimentStore::create(path);
            int64_t index = 0;
            for (int rep = 1; rep <= 3; ++rep)
                for (int clients : {1, 2})
                    for (const std::string& series : {label, std::string("<script>x</script>")})
                        store->saveRun(test::completedRun(series, clients, rep, 1000.0 * clients + rep, index++), {});
        }
        std::string png = (dir.path() / "chart.png").string(), svg = (dir.path() / "chart.svg").string();
        writeChartFiles(path, ScalingView{}, png, svg, QSize(800, 500), 1);
        QImage out(QString::fromStdString(png));
        QVERIFY(!out.isNull());
        int secretPixels = 0;
        for (int y = 0; y < out.height(); ++y)
            for (int x = 0; x < out.width(); ++x) secretPixels += out.pixelColor(x, y) == QColor(1, 254, 3);
        QCOMPARE(secretPixels, 0);
        QString text = slurp(QString::fromStdString(svg));
        QVERIFY2(!text.contains(QStringLiteral("<image")), "the SVG embeds an image");
        QVERIFY2(text.contains(QStringLiteral("&lt;script&gt;x&lt;/script&gt;")), "the legend lost the <script> label");
        QVERIFY2(text.contains(QStringLiteral("&lt;img src=")), "the legend lost the <img> label");
    }

    void seriesOfAnotherExperimentJoinTheChartTablesAndReport() {
        TempDir dir("scalelab-compare-files");
        std::string head = (dir.path() / "head.slab").string(), patch = (dir.path() / "patch.slab").string();
        writeExperiment(head);
        {
            auto store = ExperimentStore::create(patch);
            int64_t index = 0;
            for (int rep = 1; rep <= 3; ++rep)
                for (int clients : {1, 2, 4, 8})
                    store->saveRun(test::completedRun("A", clients, rep, 1100.0 * clients * (1.0 + 0.01 * rep), index++), {});
        }
        MainWindow window;
        QVERIFY(test::openAndWait(window, QString::fromStdString(head)));
        ResultsPage* results = window.resultsPage();
        QVERIFY(test::addAndWait(*results, QString::fromStdString(head)).contains(QStringLiteral("is the experiment shown")));
        QCOMPARE(test::addAndWait(*results, QString::fromStdString(patch)), QString());
        QCOMPARE(results->data().series.size(), 3);
        QCOMPARE(results->data().series[2].label, QStringLiteral("A [patch.slab]"));
        QCOMPARE(results->data().series[2].colorIndex, 2);  // after the file's own series: theirs stay
        QCOMPARE(results->seriesButton()->menu()->actions().size(), 3);
        QCOMPARE(results->runsModel()->rowCount(), 24);  // the runs table is the open file's (exclusions write to it)
        QVERIFY(test::addAndWait(*results, QString::fromStdString(patch)).contains(QStringLiteral("shown already")));

        // The comparison can be across files: HEAD's A against the patch's A.
        for (auto* combo : results->findChildren<QComboBox*>())
            if (combo->findText(QStringLiteral("A [patch.slab]")) >= 0 && combo->currentText() == QStringLiteral("B"))
                combo->setCurrentText(QStringLiteral("A [patch.slab]"));
        QCOMPARE(results->choice().candidate, std::string("A [patch.slab]"));
        QString html = QString::fromStdString((dir.path() / "report.html").string());
        QCOMPARE(test::answerOf([&](auto then) { window.exportHtmlTo(html, then); }), QString());
        QString text = slurp(html);
        QVERIFY(text.contains(QStringLiteral("A [patch.slab] against A")));
        QVERIFY(text.contains(QStringLiteral("<h3>[patch.slab] Experiment</h3>")));
        QVERIFY(text.contains(QStringLiteral("<td>Series added from</td>")));

        results->removeAddedExperiments();
        QCOMPARE(results->data().series.size(), 2);
        QCOMPARE(results->seriesButton()->menu()->actions().size(), 2);
        QCOMPARE(ExperimentStore::open(head, true)->seriesLabels(), (std::vector<std::string>{"A", "B"}));
    }

    void importIntoANewFileThenIntoTheOpenOne() {
        TempDir dir("scalelab-import-window");
        QString target = QString::fromStdString((dir.path() / "imported.slab").string());
        QString pgbench = QStringLiteral(SCALELAB_TEST_DATA "/pgbench/pgbench-16.txt");
        MainWindow window;
        QSignalSpy opened(&window, &MainWindow::experimentOpened);
        QCOMPARE(test::answerOf([&](auto then) { window.importInto({pgbench}, target, false, then); }), QString());
        QVERIFY(opened.count() == 1 || opened.wait(30000));  // the file is read off the GUI thread, then shown
        QCOMPARE(window.experimentPath(), target);
        QCOMPARE(window.resultsPage()->runsModel()->rowCount(), 1);
        QCOMPARE(window.resultsPage()->data().series.at(0).label, QStringLiteral("pgbench-16"));
        // The same output again is refused in the window's words (issue 32.7: it quoted the
        // command line's --again), and the file keeps its one run.
        QString again = test::answerOf([&](auto then) { window.importInto({pgbench}, target, true, then); });
        QVERIFY2(again.startsWith(QStringLiteral("pgbench-16.txt is in imported.slab already")), qPrintable(again));
        QVERIFY2(!again.contains(QStringLiteral("--")), qPrintable(again));
        QCOMPARE(window.alreadyImported(), pgbench);
        QCOMPARE(ExperimentStore::open(target.toStdString(), true)->runs().size(), size_t{1});
        // As the window asks it: "Cancel" keeps one run; "Import again" makes it two.
        test::SeenMessageBox asked;
        test::answerNextMessageBox(QStringLiteral("Cancel"), &asked);
        window.importAsking({pgbench}, target, true, QStringLiteral("pgbench-16"));
        QTRY_VERIFY_WITH_TIMEOUT(asked.seen, 30000);
        QVERIFY2(asked.text.contains(QStringLiteral("counts its runs twice")), qPrintable(asked.text));
        QCOMPARE(asked.buttons, (QStringList{QStringLiteral("Import again"), QStringLiteral("Cancel")}));
        QCOMPARE(ExperimentStore::open(target.toStdString(), true)->runs().size(), size_t{1});
        test::SeenMessageBox again2;
        test::answerNextMessageBox(QStringLiteral("Import again"), &again2);
        opened.clear();
        window.importAsking({pgbench}, target, true, QStringLiteral("pgbench-16"));
        QTRY_VERIFY_WITH_TIMEOUT(again2.seen, 30000);
        QVERIFY(opened.count() == 1 || opened.wait(30000));
        QCOMPARE(ExperimentStore::open(target.toStdString(), true)->runs().size(), size_t{2});
        // A malformed file creates nothing.
        QString broken = QString::fromStdString((dir.path() / "broken.slab").string());
        QString malformed = QStringLiteral(SCALELAB_TEST_DATA "/pgbench/malformed-clients.txt");
        QVERIFY(!test::answerOf([&](auto then) { window.importInto({malformed}, broken, false, then); }).isEmpty());
        QVERIFY(!QFile::exists(broken));
    }

    // Issue 32.11: pgbench outputs became a series named after the first file; the window asks,
    // offering the files' common name.
    void importedOutputsAreOfferedTheirCommonName() {
        QCOMPARE(MainWindow::suggestedSeriesName({QStringLiteral("/x/smt-on-1.txt"), QStringLiteral("/x/smt-on-16.txt")}),
                 QStringLiteral("smt-on"));
        QCOMPARE(MainWindow::suggestedSeriesName({QStringLiteral("/x/head_c8.log"), QStringLiteral("/y/head_c64.log")}),
                 QStringLiteral("head_c"));
        QCOMPARE(MainWindow::suggestedSeriesName({QStringLiteral("a.txt"), QStringLiteral("b.txt")}), QStringLiteral("a"));
        QCOMPARE(MainWindow::suggestedSeriesName({QStringLiteral("pgbench-16.txt")}), QStringLiteral("pgbench"));
        TempDir dir("scalelab-import-series");
        QString target = QString::fromStdString((dir.path() / "named.slab").string());
        MainWindow window;
        QSignalSpy opened(&window, &MainWindow::experimentOpened);
        QCOMPARE(test::answerOf([&](auto then) {
                     window.importInto({QStringLiteral(SCALELAB_TEST_DATA "/pgbench/pgbench-16.txt")}, target, false, then,
                                       {QStringLiteral("SMT on"), false});
                 }),
                 QString());
        QVERIFY(opened.count() == 1 || opened.wait(30000));
        QCOMPARE(window.resultsPage()->data().series.at(0).label, QStringLiteral("SMT on"));
    }

    void helpExplainsEachPageAndTheKeys() {
        MainWindow window;
        QDialog* help = window.showHelp();
        QVERIFY(help->isVisible());
        QString text = help->findChild<QTextBrowser*>()->toPlainText();
        for (const char* words : {"Setup", "Live", "Results", "Overview", "Ctrl+Tab", "scalelab sweep PLAN -o EXP.slab",
                                  "HTML report", "never as 0"})
            QVERIFY2(text.contains(QLatin1String(words)), words);
        // Issue 61.9: every tab a user meets is named, the docs are where the package puts them,
        // and the dialog has a Close button.
        for (auto* tabs : window.findChildren<QTabWidget*>())
            for (int i = 0; i < tabs->count(); ++i) {
                QString tab = tabs->tabText(i).remove(QLatin1Char('&'));
                QVERIFY2(text.contains(tab), qPrintable(QStringLiteral("the help does not name the tab ") + tab));
            }
        QVERIFY(text.contains(QStringLiteral("/usr/share/doc/scalelab")));
        auto* box = help->findChild<QDialogButtonBox*>();
        QVERIFY(box && box->button(QDialogButtonBox::Close));
        box->button(QDialogButtonBox::Close)->click();
        QVERIFY(!help->isVisible());
        // The runs table's word for a run Stop ended (issue 32.11): not "aborted".
        QVERIFY(text.contains(QStringLiteral("marked stopped")));
        QVERIFY(!text.contains(QStringLiteral("aborted")));
        bool f1 = false;
        for (QAction* a : window.findChildren<QAction*>()) f1 = f1 || a->shortcut() == QKeySequence(QKeySequence::HelpContents);
        QVERIFY(f1);
    }

    void notesAreWrittenIntoTheFile() {
        TempDir dir("scalelab-notes");
        std::string path = (dir.path() / "e.slab").string();
        writeExperiment(path);
        MainWindow window;
        QVERIFY(test::openAndWait(window, QString::fromStdString(path)));
        RunsTableModel* model = window.resultsPage()->runsModel();
        QVERIFY(model->flags(model->index(0, RunsTableModel::Note)) & Qt::ItemIsEditable);
        OverviewPage* overview = window.overviewPage();
        QSignalSpy edited(window.resultsPage(), &ResultsPage::runsEdited);
        QSignalSpy reread(overview, &OverviewPage::loaded);
        QVERIFY(model->setData(model->index(0, RunsTableModel::Note), QStringLiteral("  cron job ran  "), Qt::EditRole));
        QVERIFY(edited.wait());  // written off the GUI thread
        QCOMPARE(ExperimentStore::open(path, true)->runs()[0].note, std::string("cron job ran"));
        QVERIFY(reread.wait());  // the overview counts the notes again
        QVERIFY(overview->browser()->toPlainText().contains(QStringLiteral("24 runs, 24 completed; 24 counted, 0 excluded")));
        QVERIFY(overview->browser()->toPlainText().contains(QStringLiteral("1 run has a note")));
        QVERIFY(overview->saveButton()->isEnabled());
        overview->noteEdit()->setPlainText(QStringLiteral("HEAD vs patch"));
        QCOMPARE(test::saveNoteAndWait(*overview), QString());
        QCOMPARE(ExperimentStore::open(path, true)->note(), std::string("HEAD vs patch"));

        // A writer holds the file (a sweep): the note is not lost silently, it says why.
        auto writer = ExperimentStore::open(path);
        overview->noteEdit()->setPlainText(QStringLiteral("second thoughts"));
        QString why = test::saveNoteAndWait(*overview);
        QVERIFY2(why.startsWith(QStringLiteral("Not saved: ")), qPrintable(why));
        QCOMPARE(overview->noteEdit()->toPlainText(), QStringLiteral("second thoughts"));
    }
    // An SVG without the empty groups QSvgGenerator writes is drawn exactly as with them, and is
    // a fraction of their size.
    void anSvgWithoutEmptyGroupsDrawsTheSame() {
        ScalingChart chart;
        ScalingData d;
        d.metric = QStringLiteral("tps");
        d.unit = QStringLiteral("transactions/s");
        d.errorBars = QStringLiteral("test");
        ScalingSeriesView s;
        s.label = QStringLiteral("A");
        s.points = {{1, 100, 80, 120, 2, {}}, {2, 200, 150, 250, 3, {}}, {4, 300, 260, 340, 3, {}}};
        d.series.append(s);
        chart.setData(d, false);
        useExportFonts(&chart);
        const QSize size(800, 500);
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        {
            QSvgGenerator generator;
            generator.setOutputDevice(&buffer);
            generator.setSize(size);
            generator.setViewBox(QRect(QPoint(0, 0), size));
            QPainter painter(&generator);
            painter.setRenderHint(QPainter::Antialiasing);
            chart.resize(size);
            QGraphicsScene scene;
            scene.addItem(&chart);
            scene.setSceneRect(QRectF(QPointF(0, 0), size));
            scene.render(&painter, QRectF(QPointF(0, 0), size), QRectF(QPointF(0, 0), size));
            scene.removeItem(&chart);
        }
        QByteArray full = buffer.data(), lean = withoutEmptyGroups(full);
        QVERIFY(full.contains("<g"));
        QVERIFY2(lean.size() * 3 < full.size(), qPrintable(QStringLiteral("%1 of %2 bytes").arg(lean.size()).arg(full.size())));
        QVERIFY(!QString::fromUtf8(lean).contains(QRegularExpression(QStringLiteral("<g\\b[^>]*>\\s*</g>"))));
        auto draw = [size](const QByteArray& svg) {
            QImage image(size, QImage::Format_ARGB32);
            image.fill(Qt::white);
            QPainter painter(&image);
            QSvgRenderer(svg).render(&painter, QRectF(QPointF(0, 0), size));
            return image;
        };
        QCOMPARE(draw(lean), draw(full));
    }

    // Issue 32.4: an SVG export drew an error bar with a negative lower end through the axis
    // labels and off the image (QSvgGenerator ignores the clip), and named its font "Sans
    // Serif", which a browser draws in serif. Rendered back from the SVG: nothing of the bar's
    // colour under the plot, and every family falls back to sans-serif.
    void anSvgKeepsErrorBarsInThePlotAndNamesAFontABrowserKnows() {
        ScalingChart chart;
        ScalingData d;
        d.metric = QStringLiteral("tps");
        d.unit = QStringLiteral("transactions/s");
        d.errorBars = QStringLiteral("test");
        ScalingSeriesView s;
        s.label = QStringLiteral("A");
        s.points = {{1, 100, -400, 300, 2, {}}, {2, 200, 150, 250, 3, {}}};
        d.series.append(s);
        chart.setData(d, false);
        useExportFonts(&chart);
        const QSize size(800, 500);
        QByteArray svg = chartSvg(&chart, size, QStringLiteral("test"));
        chart.resize(size);  // where the plot lies at that size, as the export laid it out
        QRectF plot = chart.plotArea();
        double x = chart.mapToPosition(QPointF(1, 0), chart.series().first()).x();
        QImage image(size, QImage::Format_ARGB32);
        image.fill(Qt::white);
        {
            QPainter painter(&image);
            QSvgRenderer(svg).render(&painter, QRectF(QPointF(0, 0), size));
        }
        QColor bar = seriesColor(0);
        int below = 0;
        for (int y = static_cast<int>(plot.bottom()) + 4; y < static_cast<int>(plot.bottom()) + 40; ++y)
            for (int dx = -2; dx <= 2; ++dx) {
                QColor c = image.pixelColor(static_cast<int>(x) + dx, y);
                below += std::abs(c.red() - bar.red()) + std::abs(c.green() - bar.green()) + std::abs(c.blue() - bar.blue()) < 90;
            }
        QCOMPARE(below, 0);
        QString text = QString::fromUtf8(svg);
        QVERIFY(!text.contains(QStringLiteral("font-family=\"Sans Serif\"")));
        QRegularExpression family(QStringLiteral("font-family=\"([^\"]*)\""));
        int families = 0;
        for (auto it = family.globalMatch(text); it.hasNext(); ++families) {
            QString f = it.next().captured(1);
            QVERIFY2(f.endsWith(QStringLiteral("sans-serif")), qPrintable(f));
        }
        QVERIFY(families > 0);
        QVERIFY2(text.contains(QStringLiteral("DejaVu Sans")), "a named family first");
    }
};

QTEST_MAIN(ReportExportTest)
#include "ReportExportTest.moc"
