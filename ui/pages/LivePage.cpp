#include "pages/LivePage.h"

#include "pages/TableCell.h"
#include <QTableWidget>
#include <QHeaderView>

#include "charts/TimelineChartView.h"
#include "load/data/TpccResults.h"
#include "pages/PuStrip.h"
#include "pages/TableCell.h"
#include "util/Format.h"

#include <QColor>
#include <QDateTime>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QTimer>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

namespace scalelab::ui {
namespace {
QString clock(double s) {
    int t = static_cast<int>(s + 0.5);
    return QStringLiteral("%1:%2:%3").arg(t / 3600).arg(t / 60 % 60, 2, 10, QLatin1Char('0')).arg(t % 60, 2, 10, QLatin1Char('0'));
}
} // namespace

LivePage::LivePage(const TopologyInfo& machine, QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    bar_ = new QProgressBar;
    // Idle, the page says what it is for (issue 61.14: six empty charts and no word).
    status_ = new QLabel(tr("No sweep running: start one with Start sweep on the Setup page; each run is drawn here "
                            "as it is measured"));
    status_->setTextFormat(Qt::PlainText);  // shows user text: never markup (issue 31.3)
    // A long failure message wraps (and a long word is cut) instead of widening the page past
    // the window, which pushed Pause and Stop off-screen (issue 32.8).
    status_->setWordWrap(true);
    status_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    pause_ = new QPushButton(tr("Pause"));
    stop_ = new QPushButton(tr("Stop"));
    top->addWidget(bar_, 1);
    top->addWidget(pause_);
    top->addWidget(stop_);
    layout->addLayout(top);
    layout->addWidget(status_);
    // A server elsewhere is not the machine whose CPU and disks the charts show, unless its
    // metrics host is read (docs/hosts.md): the page says whose they are.
    machine_ = new QLabel;
    machine_->setTextFormat(Qt::PlainText);
    machine_->setWordWrap(true);
    machine_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    machine_->hide();
    layout->addWidget(machine_);

    auto line = [](const QString& name) { return QStringList{name}; };
    const QSize small(220, 190);
    // TPROC-C's runs also have NOPM, on its own axis (about 27 times tps: New-Order is 45% of
    // the mix, per minute); other runs show tps alone (followScriptSet).
    auto throughput = [&](const QString& title) {
        TimelineChartSpec spec{title, tr("tps"), {QStringLiteral("tps"), QStringLiteral("nopm")}, {tr("tps"), tr("NOPM")}};
        spec.rightFrom = 1;
        spec.rightTitle = tr("NOPM");
        return spec;
    };
    tps_ = new TimelineChartView(throughput(tr("Throughput (current run)")), small);
    latency_ = new TimelineChartView({tr("Latency (current run)"), tr("ms"),
                                      {QStringLiteral("p50"), QStringLiteral("p95"), QStringLiteral("p99")},
                                      {QStringLiteral("p50"), QStringLiteral("p95"), QStringLiteral("p99")}},
                                     small);
    TimelineChartSpec cpu{tr("CPU, all PUs"), tr("%"),
                          {QStringLiteral("cpu.user"), QStringLiteral("cpu.system"), QStringLiteral("cpu.iowait"),
                           QStringLiteral("cpu.steal"), QStringLiteral("cpu.idle")},
                          // vmstat's column names: five legend entries fit a chart on a laptop screen
                          {QStringLiteral("us"), QStringLiteral("sy"), QStringLiteral("wa"), QStringLiteral("st"), QStringLiteral("id")}};
    cpu.stacked = true;
    cpu.fixedMaxY = 100;
    cpu.legendAtRight = true;  // five entries: a column, never elided
    cpu_ = new TimelineChartView(cpu, small);
    disk_ = new TimelineChartView({tr("Disk throughput"), tr("MB/s"), {QStringLiteral("disk.readMB"), QStringLiteral("disk.writeMB")},
                                   {QStringLiteral("read"), QStringLiteral("write")}},
                                  small);
    iops_ = new TimelineChartView({tr("Disk operations"), tr("per second"), {QStringLiteral("disk.reads"), QStringLiteral("disk.writes")},
                                   {QStringLiteral("reads/s"), QStringLiteral("writes/s")}},
                                  small);
    // Commits (thousands) and logical reads (tens of thousands) each on their own axis: on one,
    // commits lay flat on the floor (issue 32.9).
    TimelineChartSpec counters{tr("Server counters"), tr("commits/s"),
                               {QStringLiteral("server.commits"), QStringLiteral("server.logical_reads")},
                               {tr("commits"), tr("logical reads")}};
    counters.rightFrom = 1;
    counters.rightTitle = tr("reads/s");
    server_ = new TimelineChartView(counters, small);
    auto* chartTabs = new QTabWidget;
    auto* chartsBox = new QWidget;
    auto* charts = new QGridLayout(chartsBox);
    charts->setContentsMargins(0, 0, 0, 0);
    int i = 0;
    for (auto* c : {tps_, latency_, cpu_, disk_, iops_, server_}) {
        charts->addWidget(c, i / 3, i % 3);
        ++i;
    }
    pus_ = new PuStrip(machine);
    thisMachine_ = machine;
    auto* puBox = new QVBoxLayout;
    puLabel_ = new QLabel(tr("Busy % per PU (SMT siblings side by side)"));
    puLabel_->setTextFormat(Qt::PlainText);
    puLabel_->setWordWrap(true);
    puBox->addWidget(puLabel_);
    puBox->addWidget(pus_);
    warnings_ = new QListWidget;
    warnings_->setWordWrap(true);  // a message is read whole, not scrolled sideways
    warnings_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    serverLog_ = new QPlainTextEdit;
    serverLog_->setReadOnly(true);
    serverLog_->setMaximumBlockCount(2000);
    serverLog_->setPlaceholderText(tr("The embedded server's log, while a sweep runs"));
    auto* sideTabs = new QTabWidget;
    sideTabs->addTab(warnings_, tr("Messages"));
    sideTabs->addTab(serverLog_, tr("Server log"));
    puBox->addWidget(sideTabs, 1);
    serverLogTimer_ = new QTimer(this);
    serverLogTimer_->setInterval(1000);
    connect(serverLogTimer_, &QTimer::timeout, this, &LivePage::readServerLog);
    // Elapsed and time left move every second, not only when a run starts (issue 61.4).
    connect(serverLogTimer_, &QTimer::timeout, this, [this] {
        if (lastState_ && last_.total > 0) showStatus(last_, sinceProgress_.elapsed() / 1000.0);
    });
    auto* side = new QWidget;
    side->setLayout(puBox);
    side->setMinimumWidth(180);
    side->setMaximumWidth(300);
    // Charts and the side panel share the width: the splitter gives either more, and at
    // 1024 pixels both fit without scrolling.
    chartTabs->addTab(chartsBox, tr("Current run"));
    // The whole sweep on one axis: drift, warm-up effects and the cost between runs show here.
    const QSize wide(300, 180);
    sweepTps_ = new TimelineChartView(throughput(tr("Throughput, whole sweep")), wide);
    TimelineChartSpec busy{tr("CPU busy, whole sweep"), tr("%"), line(QStringLiteral("cpu.busy")), line(QStringLiteral("busy"))};
    busy.fixedMaxY = 100;
    sweepCpu_ = new TimelineChartView(busy, wide);
    auto* sweepBox = new QWidget;
    auto* sweepLayout = new QVBoxLayout(sweepBox);
    sweepLayout->setContentsMargins(0, 0, 0, 0);
    for (auto* c : {sweepTps_, sweepCpu_}) {
        c->showBoundaries(tr("run starts"));
        sweepLayout->addWidget(c);
    }
    chartTabs->addTab(sweepBox, tr("Whole sweep"));
    // Where the current run's sessions wait, as the sampler reads them (issue 62): each event's
    // average active sessions over the last interval and over the run so far.
    auto* waitsBox = new QWidget;
    auto* waitsLayout = new QVBoxLayout(waitsBox);
    waitsLayout->setContentsMargins(0, 0, 0, 0);
    waits_ = new QTableWidget(0, 3);
    waits_->setHorizontalHeaderLabels({tr("Last interval"), tr("Run so far"), tr("Wait event")});
    waits_->horizontalHeaderItem(0)->setToolTip(tr("Average active sessions of the load on the event over the last interval"));
    waits_->horizontalHeaderItem(1)->setToolTip(tr("The same over the run so far (its counted window once the warm-up ended)"));
    waits_->verticalHeader()->hide();
    waits_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    waits_->horizontalHeader()->setStretchLastSection(true);
    waits_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    waitsNote_ = new QLabel(tr("The load's sessions by wait event appear here while a run is sampled (pg_wait_sampling "
                               "where the server loads it, else pg_stat_activity at 10 Hz; Setup, Diagnostics)."));
    waitsNote_->setWordWrap(true);
    waitsLayout->addWidget(waits_, 1);
    waitsLayout->addWidget(waitsNote_);
    chartTabs->addTab(waitsBox, tr("Waits"));
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(chartTabs);
    split->addWidget(side);
    split->setStretchFactor(0, 1);
    split->setChildrenCollapsible(false);
    split->setSizes({800, 220});
    layout->addWidget(split, 1);
    for (auto* c : {tps_, sweepTps_}) c->setRightShown(false);  // until a TPROC-C sweep

    connect(pause_, &QPushButton::clicked, this, [this] {
        paused_ = !paused_;
        pause_->setText(paused_ ? tr("Resume") : tr("Pause"));
        emit paused_ ? pauseRequested() : resumeRequested();
        showProgress(last_);  // "pausing after this run", or back to the state the sweep is in
    });
    connect(stop_, &QPushButton::clicked, this, &LivePage::stopRequested);
    setRunning(false);
}

void LivePage::setServerLogs(std::map<std::string, QString> logBySeries, QString serverHost) {
    logs_ = std::move(logBySeries);
    serverHost_ = std::move(serverHost);
    tail_ = LogTail();
    tailedSeries_.clear();
}

void LivePage::addServerLog(const QStringList& lines) {
    for (const QString& line : lines) appendServerLog(line);
}

void LivePage::readServerLog() {
    for (const QString& line : tail_.read()) appendServerLog(line);
}

// As tail -f views do: new lines keep the view at the bottom while it is there (also while the
// tab is not shown), and leave it alone once the user scrolled up to read (issue 32.10).
void LivePage::appendServerLog(const QString& line) {
    QScrollBar* bar = serverLog_->verticalScrollBar();
    bool follow = bar->value() >= bar->maximum();
    serverLog_->appendPlainText(line);
    if (follow) bar->setValue(bar->maximum());
}

void LivePage::setRunning(bool running) {
    if (running) serverLogTimer_->start();
    else {
        readServerLog();  // the last words of the server
        serverLogTimer_->stop();
    }
    pause_->setEnabled(running);
    stop_->setEnabled(running);
    if (!running) {
        paused_ = false;
        pause_->setText(tr("Pause"));
    }
}

void LivePage::startSweep() {
    warnings_->clear();
    serverLog_->clear();
    timeline_.clear();
    sweep_.clear();
    runStartX_ = 0;
    currentRun_ = -1;
    lastState_.reset();
    last_ = SweepProgress{};
    bar_->setValue(0);
    status_->setText(tr("Starting the sweep"));
    refreshCharts();
}

void LivePage::showProgress(const SweepProgress& p) {
    if (p.state == SweepState::Running && lastState_ != SweepState::Running) {
        // A new attempt, also of the same run (a retry, or a resume after Stop): its own timeline.
        startRunTimeline(p);
        refreshCharts();
    }
    lastState_ = p.state;
    last_ = p;
    followScriptSet(p);
    if (!p.series.empty() && p.series != tailedSeries_) {
        // The series that runs now decides which server's log is followed.
        tailedSeries_ = p.series;
        readServerLog();
        auto log = logs_.find(p.series);
        QString path = log == logs_.end() ? QString() : log->second;
        if (!serverHost_.isEmpty()) {
            appendServerLog(tr("-- %1: the embedded server on server host %2, read there by its agent --")
                                .arg(QString::fromStdString(p.series), serverHost_));
        } else if (path != tail_.path()) {
            tail_ = LogTail(path);
            appendServerLog(path.isEmpty()
                                            ? tr("-- %1 runs on a server of yours: its log is on that server --")
                                                  .arg(QString::fromStdString(p.series))
                                            : tr("-- %1: %2 --").arg(QString::fromStdString(p.series), path));
            readServerLog();
        }
    }
    if (!p.metricsMachine.empty()) {
        machine_->setText(tr("CPU, disk and PU figures are of %1").arg(QString::fromStdString(p.metricsMachine)));
        machine_->show();
        // A metrics host's PUs are drawn as that machine has them, not on this one's cores.
        bool other = !p.metricsMachineCores.empty();
        if (other && pus_->machine().source != p.metricsMachine) {
            TopologyInfo there;
            there.source = p.metricsMachine;
            there.cores = p.metricsMachineCores;
            pus_->setMachine(there);
        } else if (!other && pus_->machine().source != thisMachine_.source) {
            pus_->setMachine(thisMachine_);
        }
        puLabel_->setText(other ? tr("Busy % per PU of %1 (SMT siblings side by side)").arg(QString::fromStdString(p.metricsMachine))
                                : tr("Busy % per PU (SMT siblings side by side)"));
    }
    if (p.total == 0) return;
    bar_->setRange(0, std::max(1, p.total));
    bar_->setValue(p.done);
    sinceProgress_.start();
    showStatus(p, 0);
}

void LivePage::showStatus(const SweepProgress& p, double since) {
    // Pause takes effect between runs: until then the run goes on, and the status says so.
    QString shown = QString::fromLatin1(sweepStateName(p.state));
    QString state = paused_ && p.state != SweepState::Paused ? tr("%1; pausing after this run").arg(shown) : shown;
    status_->setText(tr("Run %1 of %2: %3, %4, round %5 \u2014 elapsed %6, about %7 left [%8]")
                         .arg(p.run)
                         .arg(p.total)
                         .arg(QString::fromStdString(p.series))
                         .arg(QString::fromStdString(runPointText(p.clients, p.rate, p.scale)))
                         .arg(p.repetition)
                         .arg(clock(p.elapsedS + since), clock(std::max(0.0, p.etaS - since)), state));
}

void LivePage::showFinished(const QString& error) {
    status_->setText(!error.isEmpty()           ? tr("The sweep failed: %1").arg(error)
                     : lastState_ == SweepState::Stopped ? tr("The sweep was stopped; every finished run is in the file")
                                               : tr("The sweep finished"));
    lastState_.reset();
    pus_->setBusy({});  // no run, no busy figure: the tiles go grey, not the last run's red
}

void LivePage::addSample(const SweepProgress& p, const LoadSample& s) {
    followScriptSet(p);
    if (p.run != currentRun_) startRunTimeline(p);  // a new run starts its own timeline
    timeline_.add(s);
    sweep_.add(s, runStartX_ + s.endS);
    refreshCharts();
    showWaits(s);
}

void LivePage::showWaits(const LoadSample& s) {
    if (!s.system || !s.system->waitsSoFar) return;  // not sampled: the note stays
    const WaitTally& soFar = *s.system->waitsSoFar;
    // From an empty tally to now: the run's average active sessions by event so far.
    std::map<std::string, double> runSoFar = waitSessionsBetween(WaitTally{}, soFar);
    std::vector<std::pair<std::string, double>> events(runSoFar.begin(), runSoFar.end());
    std::stable_sort(events.begin(), events.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    waits_->setRowCount(static_cast<int>(events.size()));
    int row = 0;
    for (const auto& [event, sessions] : events) {
        auto last = s.system->waitSessions.find(event);
        // No read in the interval (or the window began again): missing, never 0.
        QString lastText = s.system->waitSessions.empty() ? QStringLiteral("-")
                           : last == s.system->waitSessions.end() ? QStringLiteral("0.00")
                                                                   : QString::number(last->second, 'f', 2);
        waits_->setItem(row, 0, figureCell(lastText));
        waits_->setItem(row, 1, figureCell(QString::number(sessions, 'f', 2)));
        waits_->setItem(row, 2, figureCell(QString::fromStdString(event), false));
        ++row;
    }
    const bool profile = soFar.source == kWaitSamplingSource;
    waitsNote_->setText(tr("%1 %2 of %3 in this run so far: the load's sessions %4, by what they wait on.")
                            .arg(soFar.samples)
                            .arg(profile ? (soFar.samples == 1 ? tr("round") : tr("rounds"))
                                         : (soFar.samples == 1 ? tr("sample") : tr("samples")))
                            .arg(profile ? tr("pg_wait_sampling's collector") : QStringLiteral("pg_stat_activity"))
                            .arg(profile ? tr("(waiting for their client between transactions too)")
                                         : tr("inside a transaction")));
}

void LivePage::startRunTimeline(const SweepProgress& p) {
    currentRun_ = p.run;
    timeline_.clear();
    runStartX_ = p.elapsedS;
    sweep_.markBoundary(runStartX_);
    // The run's own length on the x axis (issue 32.9: 0-10 s for 5 s runs).
    for (auto* c : {tps_, latency_, cpu_, disk_, iops_, server_}) c->setSpan(p.runS);
}

void LivePage::followScriptSet(const SweepProgress& p) {
    if (p.scriptSet == scriptSet_) return;
    scriptSet_ = p.scriptSet;
    timeline_.setScriptSet(scriptSet_);
    sweep_.setScriptSet(scriptSet_);
    for (auto* c : {tps_, sweepTps_}) c->setRightShown(showsNopm());
}

bool LivePage::showsNopm() const { return tpcc::isTprocc(scriptSet_); }

void LivePage::refreshCharts() {
    int columns = std::max(100, tps_->width());
    for (auto* c : {tps_, latency_, cpu_, disk_, iops_, server_}) c->refresh(timeline_, columns);
    int sweepColumns = std::max(200, sweepTps_->width());
    for (auto* c : {sweepTps_, sweepCpu_}) c->refresh(sweep_, sweepColumns);
    pus_->setBusy(timeline_.lastPerPu());
}

void LivePage::addWarning(const QString& text) {
    auto* item = new QListWidgetItem(QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss ")) + text);
    // What needs a look stands out from the steps (starting the server, creating tables).
    static const char* const attention[] = {"failed", "died", "crashed", "unstable", "client-bound", "does not answer",
                                            "could not", "cannot"};
    for (const char* word : attention)
        if (text.contains(QLatin1String(word))) item->setForeground(QColor(0xc0, 0x39, 0x2b));
    warnings_->addItem(item);
    warnings_->scrollToBottom();
}

} // namespace scalelab::ui
