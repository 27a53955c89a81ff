#include "pages/MainWindow.h"
#include "pages/PlainText.h"
#include "bridge/ErrorText.h"

#include "bridge/ExperimentBridge.h"
#include "bridge/SweepController.h"
#include "charts/BoxPlotChartView.h"
#include "charts/LatencyThroughputChartView.h"
#include "charts/DistributionChartView.h"
#include "charts/ScalingChartView.h"
#include "charts/ReportExport.h"
#include "pages/ComparisonPanel.h"
#include "pages/LivePage.h"
#include "pages/OverviewPage.h"
#include "pages/ResultsPage.h"
#include "pages/SetupPage.h"
#include "pages/ExamplesBox.h"
#include "pages/StatusText.h"
#include "pages/WheelGuard.h"
#include "store/ExperimentOverview.h"
#include "store/Import.h"
#include "sweep/PlanCommands.h"
#include "sweep/SweepPlan.h"
#include "sweep/SweepServers.h"
#include "util/Error.h"
#include "util/JsonParse.h"
#include "topo/Placement.h"

#include <QApplication>
#include <QGuiApplication>
#include <QPushButton>
#include <QCloseEvent>
#include <QDialogButtonBox>
#include <QDragEnterEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QScreen>
#include <QScrollArea>
#include <QVBoxLayout>
#include <QShortcut>
#include <QDialog>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <QStatusBar>
#include <QTabWidget>

void scalelabInitResources();

namespace scalelab::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), machine_(Topology::live().info()) {
    scalelabInitResources();
    setWindowIcon(QIcon(QStringLiteral(":/scalelab/scalelab.svg")));
    setAcceptDrops(true);
    tabs_ = new QTabWidget;
    setup_ = new SetupPage(machine_);
    live_ = new LivePage(machine_);
    results_ = new ResultsPage(machine_);
    overview_ = new OverviewPage;
    // Each page scrolls when the window is smaller than it (a 1024x700 screen): nothing is cut
    // off and no button is out of reach.
    // A page's bar (Setup's estimate and Start) stays below its scroll area, always in reach.
    auto addPage = [this](QWidget* page, const QString& title, QWidget* bar = nullptr) {
        auto* area = new QScrollArea;
        area->setWidget(page);
        area->setWidgetResizable(true);
        area->setFrameShape(QFrame::NoFrame);
        if (!bar) return void(tabs_->addTab(area, title));
        auto* tab = new QWidget;
        auto* column = new QVBoxLayout(tab);
        column->setContentsMargins(0, 0, 0, 0);
        column->setSpacing(0);
        column->addWidget(area, 1);
        column->addWidget(bar);
        tabs_->addTab(tab, title);
    };
    // The wheel over a field that does not have the focus scrolls the page (pages/WheelGuard.h).
    qApp->installEventFilter(new WheelGuard(this));
    addPage(setup_, tr("Setup"), setup_->actionBar());
    addPage(live_, tr("Live"));
    addPage(results_, tr("Results"));
    addPage(overview_, tr("Overview"));
    setCentralWidget(tabs_);
    // Below this nothing is usable (a chart, a table and a form side by side); a laptop's
    // 1024x700 is well above it (issue 32.11).
    setMinimumSize(760, 520);
    statusLabel_ = new StatusText;
    statusBar()->addWidget(statusLabel_, 1);
    controller_ = new SweepController(this);
    files_ = new ExperimentBridge(this);
    buildMenus();
    // Ctrl+Tab and Ctrl+Shift+Tab switch pages from any widget of the window, a drop-down or a
    // table too (those keep the keys for themselves otherwise).
    auto* next = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Tab), this);
    auto* previous = new QShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Backtab), this);
    for (auto* shortcut : {next, previous}) shortcut->setContext(Qt::WindowShortcut);
    connect(next, &QShortcut::activated, this, [this] { tabs_->setCurrentIndex((tabs_->currentIndex() + 1) % tabs_->count()); });
    connect(previous, &QShortcut::activated, this,
            [this] { tabs_->setCurrentIndex((tabs_->currentIndex() + tabs_->count() - 1) % tabs_->count()); });
    // Nothing to export until a chart has points: a blank image or empty CSVs help nobody.
    connect(results_, &ResultsPage::pointsChanged, this, [this](int points) {
        for (QAction* a : exportActions_) a->setEnabled(points > 0);
    });
    for (QAction* a : exportActions_) a->setEnabled(false);
    connect(results_, &ResultsPage::runsEdited, this, [this] {
        if (!path_.isEmpty()) overview_->load(path_);  // its counts of excluded runs and notes
    });
    connectOpening();

    connect(setup_, &SetupPage::startRequested, this, &MainWindow::chooseFileAndStart);
    connect(controller_, &SweepController::progress, live_, &LivePage::showProgress);
    connect(controller_, &SweepController::sample, live_, &LivePage::addSample);
    connect(controller_, &SweepController::note, live_, &LivePage::addWarning);
    connect(controller_, &SweepController::serverLog, live_, &LivePage::addServerLog);
    // A finished run reaches the Results page by one road, the file it was stored in: the
    // signal only has the page read it now rather than at its next follow tick.
    connect(controller_, &SweepController::runFinished, this, [this] {
        ++storedRuns_;
        results_->runStored();
    });
    connect(controller_, &SweepController::finished, this, [this](const QString& error) {
        live_->setRunning(false);
        live_->showFinished(error);
        setup_->startButton()->setEnabled(setup_->plan().has_value());
        statusLabel_->say(error.isEmpty() ? tr("Sweep ended; the experiment is in %1").arg(path_) : error);
        if (!error.isEmpty()) live_->addWarning(tr("sweep failed: %1").arg(error));
        if (!path_.isEmpty()) finishExperimentFile(!error.isEmpty());
        if (closingAfterStop_) close();
    });
    connect(live_, &LivePage::pauseRequested, controller_, &SweepController::pause);
    connect(live_, &LivePage::resumeRequested, controller_, &SweepController::resume);
    connect(live_, &LivePage::stopRequested, controller_, &SweepController::stop);

    QSettings settings;
    restoredGeometry_ = restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    QString lastPlan = settings.value(QStringLiteral("setup/lastPlan")).toString();
    if (!lastPlan.isEmpty()) {
        try {
            setup_->setPlanJson(parseJson(lastPlan.toStdString()));
        } catch (const std::exception&) {
        }
    }
    updateRecentMenu();
    updateTitle();
    WheelGuard::takeWheelFocus(this);  // fields polished before the guard was installed
    // The bar has one line: the short form; the Setup page explains (and the tool tip here).
    if (!machine_.smtAvailable()) {
        statusLabel_->say(machine_.smtSwitchedOff() ? tr("SMT is switched off in this kernel: the Setup page says how to compare")
                                                    : tr("No SMT on this machine (%1 cores, %2 PUs): compare core counts; the Setup page says how")
                                                          .arg(machine_.cores.size())
                                                          .arg(machine_.puCount()));
        statusLabel_->setToolTip(QString::fromStdString(smtComparisonWarning(machine_)));
    }
}

MainWindow::~MainWindow() {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    // No password is ever written: the saved plan keeps the connection without it.
    settings.setValue(QStringLiteral("setup/lastPlan"), QString::fromStdString(planWithoutSecrets(setup_->planJson()).dump()));
}

QDialog* MainWindow::showHelp() {
    if (!help_) {
        help_ = new QDialog(this);
        help_->setWindowTitle(tr("ScaleLab help"));
        auto* layout = new QVBoxLayout(help_);
        auto* browser = new QTextBrowser;
        QFile text(QStringLiteral(":/scalelab/help.html"));
        text.open(QIODevice::ReadOnly);
        browser->setHtml(QString::fromUtf8(text.readAll()));
        layout->addWidget(browser);
        auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
        connect(buttons, &QDialogButtonBox::rejected, help_, &QDialog::reject);  // Close, and Escape
        layout->addWidget(buttons);
        help_->resize(720, 600);
    }
    help_->show();
    help_->raise();
    help_->activateWindow();  // the keys (Escape) go to it, with or without a window manager
    return help_;
}

// The pages read the file off the GUI thread: the Results page first (on an error the window
// keeps what it showed and says why), then the Overview page; experimentOpened() follows.
void MainWindow::openExperiment(const QString& path) {
    opening_ = path;
    openingShown_ = false;
    results_->load(path);
}

void MainWindow::connectOpening() {
    connect(results_, &ResultsPage::loaded, this, [this](const QString& path) {
        if (path != opening_) return;  // the file shown, read again after a sweep
        openingShown_ = true;
        path_ = path;
        overview_->load(path);
        removeSeries_->setEnabled(!results_->addedExperiments().isEmpty());
        rememberRecent(path);
        showPage(results_);
        updateTitle();
    });
    connect(results_, &ResultsPage::loadFailed, this, [this](const QString& path, const QString& error) {
        if (path != opening_) return;
        opening_.clear();
        emit experimentOpenFailed(path, error);
        warnPlain(this, tr("Open experiment"), error);
    });
    // Shown (or the Overview page says why it cannot show it): the experiment is open.
    auto opened = [this](const QString& path) {
        // Only the Overview load this opening started (after the Results page showed the file)
        // counts: an earlier one of the same file (after a sweep) may end first.
        if (path != opening_ || !openingShown_) return;
        opening_.clear();
        emit experimentOpened(path);
    };
    connect(overview_, &OverviewPage::loaded, this, opened);
    connect(overview_, &OverviewPage::loadFailed, this, opened);
}

void MainWindow::startSweepInto(const QString& path) {
    auto plan = setup_->plan();
    if (plan) startSweep(*plan, path);
}

// The plan is the one in the file: nothing to retype, and the runner's check that a resume
// continues the same plan compares it with itself.
// The plan is read off the GUI thread like every read (an experiment in a results store is a
// question to a server).
void MainWindow::resumeExperiment(const QString& path, Answer then) {
    if (controller_->running()) return answer(then, tr("A sweep is running; stop it first"));
    // What the plan runs besides its load is found here too: it reads the plan's script files.
    struct StoredPlan {
        nlohmann::json json;
        std::vector<std::string> commands;
    };
    std::function<StoredPlan()> read = [file = path.toStdString()] {
        auto plan = ExperimentStore::open(file, true)->plan();
        if (!plan) throw Error(file + " holds no sweep plan (imported runs only): there is nothing to resume");
        return StoredPlan{plan->first, commandsOfPlan(parsePlan(plan->first))};
    };
    files_->call<StoredPlan>(
        std::move(read),
        [this, path, then](StoredPlan stored) {
            if (controller_->running()) return answer(then, tr("A sweep is running; stop it first"));
            try {
                SweepPlan plan = parsePlan(stored.json);
                setup_->setPlanJson(stored.json);  // shown on the Setup page, for reading
                if (!acceptsCommands(stored.commands, path)) return answer(then, {});
                startSweep(plan, path);
                answer(then, {});
            } catch (const std::exception& e) {
                answer(then, errorText(e));
            }
        },
        [this, then](const QString& error) { answer(then, error); });
}

bool MainWindow::acceptsCommands(const std::vector<std::string>& commands, const QString& path) {
    // A stored plan may have been written by anyone who could write the file or the store
    // (issue 60.1): what it would run besides the load is shown, and runs only when accepted.
    QStringList lines;
    for (const auto& line : commands) lines << QString::fromStdString(line);
    if (lines.isEmpty()) return true;
    // All in the box's text, which alone is set plain: Qt guesses an informative text's format.
    QMessageBox ask(QMessageBox::Warning, tr("Resume"),
                    tr("The plan stored in %1 runs programs and commands besides its load:\n\n%2\n\n"
                       "Run them only if you trust whoever wrote this plan. The Setup page shows the whole plan.")
                        .arg(path, lines.join(QLatin1Char('\n'))),
                    QMessageBox::Cancel, this);
    ask.setTextFormat(Qt::PlainText);
    QPushButton* run = ask.addButton(tr("Run them"), QMessageBox::AcceptRole);
    ask.setDefaultButton(QMessageBox::Cancel);
    ask.exec();
    return ask.clickedButton() == run;
}

void MainWindow::showAtFirstSize(std::optional<QSize> asked) {
    QScreen* screen = this->screen() ? this->screen() : QGuiApplication::primaryScreen();
    QRect room = screen ? screen->availableGeometry() : QRect(0, 0, 1400, 900);
    // A size asked for is taken as asked (screenshots of a laptop's size on a larger screen).
    QSize size = asked ? *asked : (restoredGeometry_ ? this->size() : QSize(1400, 900)).boundedTo(room.size());
    resize(size);
    // The frame a window manager adds is not known before the window is shown: the window is
    // placed from the screen's top left corner when it would not fit where it is.
    QRect at(pos(), size);
    if (!room.contains(at)) move(room.topLeft());
    show();
}

QString MainWindow::savePlanTo(const QString& path) const {
    QFile f(path);
    // No password is ever written (the connection string keeps the rest).
    QByteArray text = QByteArray::fromStdString(planWithoutSecrets(setup_->planJson()).dump(2) + "\n");
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(text) != text.size())
        return tr("Cannot write %1: %2").arg(path, f.errorString());
    return {};
}

QString MainWindow::loadPlanFrom(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return tr("Cannot read %1: %2").arg(path, f.errorString());
    nlohmann::json j;
    try {
        j = parseJson(f.readAll().toStdString());
    } catch (const nlohmann::json::parse_error& e) {
        return tr("%1 is not JSON: %2").arg(path, errorText(e));
    } catch (const Error& e) {
        return tr("%1: %2").arg(path, errorText(e));
    }
    try {
        parsePlan(j);  // the same words as `scalelab sweep` for a plan it refuses
    } catch (const std::exception& e) {
        return tr("%1: %2").arg(path, errorText(e));
    }
    setup_->setPlanJson(j);
    showPage(setup_);
    return {};
}

void MainWindow::startSweep(const SweepPlan& plan, const QString& path) {
    if (controller_->running()) return;
    path_ = path;
    std::vector<std::string> order;
    for (const auto& series : plan.series) order.push_back(series.label);
    results_->watch(path, order);
    live_->startSweep();
    // A server of the user's keeps its log to itself; a server host's log is on that machine,
    // read there by its agent and sent as it grows (SweepController::serverLog).
    std::map<std::string, QString> logs;
    if (plan.conninfo.empty() && !plan.serverHost)
        for (const auto& series : plan.series)
            logs[series.label] = QString::fromStdString(EmbeddedServer::logFileOf(embeddedDataDir(plan, series)).string());
    live_->setServerLogs(std::move(logs), plan.serverHost ? QString::fromStdString(plan.serverHost->host) : QString());
    live_->setRunning(true);
    statusLabel_->clearMessage();
    setup_->startButton()->setEnabled(false);
    showPage(live_);
    updateTitle();
    bool resume = QFileInfo(path).exists() && QFileInfo(path).size() > 0;
    // An experiment in a results store is never removed by the window: whether this sweep made
    // it would be a question to the server, and the answer "no" must never be guessed.
    sweepCreatesFile_ = !resume && !isStoreLocation(path.toStdString());
    storedRuns_ = 0;
    controller_->start(plan, path, resume);
}

void MainWindow::answer(const Answer& then, const QString& error) {
    if (then) then(error);
}

void MainWindow::showPage(QWidget* page) {
    for (int i = 0; i < tabs_->count(); ++i)
        if (QScrollArea* area = pageArea(i); area && area->widget() == page) tabs_->setCurrentIndex(i);
}

QString MainWindow::statusMessage() const { return statusLabel_->message(); }

QScrollArea* MainWindow::pageArea(int tab) const {
    QWidget* w = tabs_->widget(tab);
    if (auto* area = qobject_cast<QScrollArea*>(w)) return area;
    return w ? w->findChild<QScrollArea*>(QString(), Qt::FindDirectChildrenOnly) : nullptr;
}

// After a sweep of this window: the file is shown and remembered when it holds runs; a file
// this sweep created and that failed before storing any run is removed, not left empty.
void MainWindow::finishExperimentFile(bool failed) {
    // runFinished comes before finished: storedRuns_ counts every run this sweep stored.
    if (failed && storedRuns_ == 0 && sweepCreatesFile_) {
        for (const char* suffix : {"", "-wal", "-shm"}) QFile::remove(path_ + QLatin1String(suffix));
        path_.clear();
        results_->clear();
        overview_->clear();
        updateTitle();
        return;
    }
    results_->load(path_);
    overview_->load(path_);
    if (storedRuns_ > 0 || !sweepCreatesFile_) rememberRecent(path_);  // a resumed file holds runs of before
}

void MainWindow::rememberRecent(const QString& path) {
    QSettings settings;
    QStringList recent = settings.value(QStringLiteral("files/recent")).toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > 8) recent.removeLast();
    settings.setValue(QStringLiteral("files/recent"), recent);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu() {
    recent_->clear();
    for (const QString& p : QSettings().value(QStringLiteral("files/recent")).toStringList())
        recent_->addAction(p, this, [this, p] { openExperiment(p); });
    recent_->setEnabled(!recent_->isEmpty());
    // A first start (no experiment made or opened here yet): the Setup page offers the example
    // plans sized to this machine, so that the first Start runs something meaningful here.
    setup_->examplesBox()->setVisible(recent_->isEmpty());
}

void MainWindow::updateTitle() {
    setWindowTitle(path_.isEmpty() ? tr("ScaleLab")
                                   : tr("ScaleLab \u2014 %1").arg(QString::fromStdString(experimentName(path_.toStdString()))));
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!controller_->running()) {
        event->accept();
        return;
    }
    if (!closingAfterStop_) {
        auto answer = QMessageBox::question(this, tr("A sweep is running"),
                                            tr("Stop the sweep and quit? The run in progress ends cleanly and is kept, "
                                               "marked stopped; every finished run is already in %1.").arg(path_));
        if (answer != QMessageBox::Yes) {
            event->ignore();
            return;
        }
        closingAfterStop_ = true;
        controller_->stop();
    }
    event->ignore();  // closes when the controller reports the sweep finished
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    QStringList files;
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile()) files << url.toLocalFile();
    if (files.size() == 1 && files.first().endsWith(QLatin1String(".slab"))) openExperiment(files.first());
    else importFiles(files);
}

} // namespace scalelab::ui
