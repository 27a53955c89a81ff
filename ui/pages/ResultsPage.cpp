#include "pages/ResultsPage.h"

#include "charts/BoxPlotChartView.h"
#include "charts/DistributionChartView.h"
#include "charts/LatencyThroughputChartView.h"
#include "charts/ScalingChartView.h"
#include "charts/TimelineChartView.h"
#include "pages/TableCell.h"
#include "pages/ComparisonPanel.h"
#include "pages/ProfilePanel.h"
#include "pages/StatementsPanel.h"
#include "pages/WaitsPanel.h"
#include "stats/LatencyThroughput.h"
#include "stats/Peak.h"

#include <QCheckBox>
#include <QTimer>
#include <QComboBox>
#include <QSignalBlocker>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QToolButton>
#include <QSortFilterProxyModel>
#include <QCursor>
#include <QSplitter>
#include <QToolTip>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

#include <set>

namespace scalelab::ui {
namespace {
constexpr int kChartMinimumHeight = 200;

// A chart tab: "`what` [choice]" above the chart, a note in plain text (series labels are
// user text) under it.
QWidget* chartTab(const QString& what, QComboBox* choice, QWidget* chart, QLabel*& note, QWidget* extra = nullptr) {
    auto* tab = new QWidget;
    auto* layout = new QVBoxLayout(tab);
    auto* controls = new QHBoxLayout;
    auto* label = new QLabel(what);
    label->setObjectName(QStringLiteral("choiceLabel"));
    controls->addWidget(label);
    controls->addWidget(choice);
    if (extra) controls->addWidget(extra);
    controls->addStretch();
    layout->addLayout(controls);
    layout->addWidget(chart, 1);
    note = new QLabel;
    note->setTextFormat(Qt::PlainText);
    note->setWordWrap(true);
    layout->addWidget(note);
    return tab;
}
} // namespace

ResultsPage::ResultsPage(const TopologyInfo& machine, QWidget* parent)
    : QWidget(parent), machine_(machine), hostname_(thisHostname()) {
    auto* layout = new QVBoxLayout(this);
    auto* controls = new QHBoxLayout;
    metric_ = new QComboBox;
    // Words in the menu, the id behind each (issue 32.11: the menu said "latency_p95").
    for (RunMetric m : allRunMetrics()) metric_->addItem(QString::fromLatin1(runMetricLabel(m)), QString::fromLatin1(runMetricName(m)));
    bars_ = new QComboBox;
    bars_->addItems({tr("95% confidence interval"), tr("standard deviation"), tr("min - max")});
    // The x axis: offered rate too when runs were offered one (docs/sweeps.md, "Offered-load sweeps").
    axis_ = new QComboBox;
    axis_->addItem(tr("clients"), QStringLiteral("clients"));
    axis_->setToolTip(tr("What the x axis is: the client count, the rate the clients were asked for (-R), or the "
                         "data's scale"));
    axisLabel_ = new QLabel(tr("x"));
    axis_->hide();  // until some run has an offered rate (offerAxes)
    axisLabel_->hide();
    logX_ = new QCheckBox(tr("log2 clients"));
    usl_ = new QCheckBox(tr("USL fit"));
    seriesButton_ = new QToolButton;
    seriesButton_->setText(tr("Series"));
    seriesButton_->setToolTip(tr("Which series the chart, the tables and the exports show"));
    seriesButton_->setPopupMode(QToolButton::InstantPopup);
    seriesButton_->setMenu(new QMenu(seriesButton_));
    controls->addWidget(new QLabel(tr("Metric")));
    controls->addWidget(metric_);
    controls->addWidget(new QLabel(tr("Error bars")));
    controls->addWidget(bars_);
    controls->addWidget(axisLabel_);
    controls->addWidget(axis_);
    controls->addWidget(logX_);
    controls->addWidget(usl_);
    controls->addWidget(seriesButton_);
    controls->addStretch();
    layout->addLayout(controls);
    followNote_ = new QLabel;
    followNote_->setTextFormat(Qt::PlainText);  // shows user text: never markup (issue 31.3)
    followNote_->setWordWrap(true);
    followNote_->hide();
    layout->addWidget(followNote_);
    follow_ = new QTimer(this);
    follow_->setInterval(2000);
    connect(follow_, &QTimer::timeout, this, &ResultsPage::followFile);
    store_ = new ExperimentBridge(this);

    auto* split = new QSplitter(Qt::Vertical);
    auto* top = new QWidget;
    auto* topLayout = new QVBoxLayout(top);
    // The charts' smallest height lets the page fit a laptop's screen with the Comparison table's
    // rows in view (issue 61.5: at 1366x768 the page scrolled and the table showed two rows).
    chart_ = new ScalingChartView(QSize(0, kChartMinimumHeight));
    fitText_ = new QLabel;
    fitText_->setTextFormat(Qt::PlainText);  // shows user text: never markup (issue 31.3)
    fitText_->setWordWrap(true);
    // What to do on an empty page, instead of a blank box (issue 32.11).
    emptyNote_ = new QLabel(tr("Nothing to show yet. Run a sweep (Setup, then Start sweep), or open an experiment "
                               "(File > Open, Ctrl+O; File > Open from results store) or import pgbench outputs "
                               "(File > Import): its scaling curves, comparison and runs appear here."));
    emptyNote_->setWordWrap(true);
    topLayout->addWidget(emptyNote_);
    topLayout->addWidget(chart_, 1);
    topLayout->addWidget(fitText_);
    // The ratio chart beside the curves, with the same room (issue 32.3: in a tab under the
    // splitter it had a third of the height, and every label was elided).
    compare_ = new ComparisonPanel;
    charts_ = new QTabWidget;
    charts_->addTab(top, tr("Scaling curves"));
    charts_->addTab(compare_->ratioView(), tr("Ratio"));
    charts_->setTabToolTip(1, tr("The compared series over the baseline, as chosen on the Comparison tab below"));
    // Each series' latency percentiles at one client count, its rounds merged (docs/gui.md).
    latencyClients_ = new QComboBox;
    latencyClients_->setToolTip(tr("The client count whose latency distribution is drawn"));
    latencyChart_ = new DistributionChartView(QSize(0, kChartMinimumHeight));
    charts_->addTab(chartTab(tr("Clients"), latencyClients_, latencyChart_, latencyNote_), tr("Latency"));
    charts_->setTabToolTip(2, tr("Latency percentiles (p0 to p99.99 and the maximum) of each series at one client count: "
                                 "its rounds merged, each round pale behind"));
    // Until a count is picked, the highest is shown as the sweep adds counts (issue 61.7: after a
    // sweep in the window the tab stayed at its first count, 1 client). The page's own updates
    // of the list are made with its signals blocked, so this is a choice.
    connect(latencyClients_, &QComboBox::currentIndexChanged, this, [this] {
        latencyClientsChosen_ = true;
        refreshDistribution();
    });
    // A latency percentile of each round as box plots by clients: the rounds' own spread.
    roundsPercentile_ = new QComboBox;
    for (LatencyPercentile p : allLatencyPercentiles())
        roundsPercentile_->addItem(QString::fromLatin1(latencyPercentileName(p)), static_cast<int>(p));
    roundsPercentile_->setCurrentIndex(roundsPercentile_->findText(QStringLiteral("p99")));
    roundsPercentile_->setToolTip(tr("The latency percentile of each run drawn"));
    roundsChart_ = new BoxPlotChartView(QSize(0, kChartMinimumHeight));
    charts_->addTab(chartTab(tr("Percentile"), roundsPercentile_, roundsChart_, roundsNote_), tr("Rounds"));
    charts_->setTabToolTip(3, tr("A latency percentile of each round (run) as a box plot per series and client count: "
                                 "how far apart the rounds were"));
    connect(roundsPercentile_, &QComboBox::currentIndexChanged, this, [this] { refreshRounds(); });
    // Latency (or CPU, reads) against achieved tps, points labelled with their offered rate: the
    // hockey stick; achieved tps as the x of any y.
    throughputY_ = new QComboBox;
    for (const ThroughputY& y : allThroughputYs())
        throughputY_->addItem(QString::fromStdString(y.percentile ? y.name() : y.label()), QString::fromStdString(y.name()));
    throughputY_->setCurrentIndex(throughputY_->findData(QStringLiteral("p99")));
    throughputY_->setToolTip(tr("What is drawn against achieved tps: a latency percentile or a run metric"));
    throughputLogY_ = new QCheckBox(tr("log y"));
    throughputChart_ = new LatencyThroughputChartView(QSize(0, kChartMinimumHeight));
    charts_->addTab(chartTab(tr("y"), throughputY_, throughputChart_, throughputNote_, throughputLogY_),
                    tr("vs achieved tps"));
    charts_->setTabToolTip(4, tr("A latency percentile (or CPU, logical reads) against the achieved tps of each point, "
                                 "labelled with its offered rate (or client count): where achieved falls below offered "
                                 "(the knee) and where -L skips begin are marked"));
    connect(throughputY_, &QComboBox::currentIndexChanged, this, [this] { refreshThroughput(); });
    connect(throughputLogY_, &QCheckBox::toggled, this, [this] { refreshThroughput(); });
    // Why the curve bends (issue 62): where the sessions waited, and where the server's CPU went.
    waits_ = new WaitsPanel;
    charts_->addTab(waits_, tr("Waits"));
    charts_->setTabToolTip(charts_->count() - 1,
                           tr("Average active sessions by wait event at each point of a series, and the events whose "
                              "wait per transaction changed against another series"));
    profile_ = new ProfilePanel;
    charts_->addTab(profile_, tr("CPU profile"));
    charts_->setTabToolTip(charts_->count() - 1,
                           tr("A flame graph of the server's CPU at one point (diagnostics.cpu_profile), or against "
                              "another series per transaction, with the functions whose time changed"));
    split->addWidget(charts_);

    auto* tabs = new QTabWidget;
    tabs->addTab(compare_, tr("Comparison"));

    statements_ = new StatementsPanel;
    tabs->addTab(statements_, tr("Statements"));
    tabs->setTabToolTip(tabs->count() - 1, tr("What the server ran in each run's counted window (pg_stat_statements): a "
                                              "series' statements by time, or those whose mean time changed against another"));

    peak_ = new QTableWidget(0, 5);
    peak_->setHorizontalHeaderLabels({tr("Series"), tr("Clients at peak"), tr("Peak mean"), tr("95% CI"), tr("% of first series")});
    peak_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    tabs->addTab(peak_, tr("Peaks"));

    auto* runsTab = new QWidget;
    auto* rl = new QVBoxLayout(runsTab);
    filter_ = new QLineEdit;
    filter_->setPlaceholderText(tr("filter runs (series, status, flags...)"));
    runs_ = new RunsTableModel(this);
    proxy_ = new QSortFilterProxyModel(this);
    proxy_->setSourceModel(runs_);
    proxy_->setFilterKeyColumn(-1);
    proxy_->setFilterRole(RunsTableModel::SearchRole);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy_->setSortRole(Qt::EditRole);
    runsView_ = new QTableView;
    runsView_->setModel(proxy_);
    runsView_->setSortingEnabled(true);
    runsView_->setSelectionBehavior(QAbstractItemView::SelectRows);
    runsView_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    runsView_->horizontalHeader()->setStretchLastSection(true);  // the note
    runsView_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    // The offered rate and the data scale are columns when the runs have them: a rate sweep's
    // runs are told apart by their rate, not only by their round.
    auto gridColumns = [this] {
        runsView_->setColumnHidden(RunsTableModel::Offered, !runs_->anyOfferedRate());
        runsView_->setColumnHidden(RunsTableModel::Scale, !runs_->severalScales());
    };
    connect(runs_, &QAbstractItemModel::modelReset, this, gridColumns);
    connect(runs_, &QAbstractItemModel::rowsInserted, this, gridColumns);
    gridColumns();
    detail_ = new TimelineChartView({tr("Selected run"), tr("tps"), {QStringLiteral("tps")}, {QStringLiteral("tps")}}, QSize(0, 160));
    auto* runsSplit = new QSplitter(Qt::Horizontal);
    auto* left = new QWidget;
    auto* ll = new QVBoxLayout(left);
    ll->addWidget(filter_);
    ll->addWidget(runsView_);
    runsSplit->addWidget(left);
    auto* right = new QWidget;
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(detail_, 1);
    runHosts_ = new QLabel;
    runHosts_->setTextFormat(Qt::PlainText);  // shows user text: never markup (issue 31.3)
    runHosts_->setWordWrap(true);
    runHosts_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    runHosts_->hide();
    rightLayout->addWidget(runHosts_);
    runsSplit->addWidget(right);
    rl->addWidget(runsSplit);
    tabs->addTab(runsTab, tr("Runs"));
    split->addWidget(tabs);
    // Neither half collapses to nothing when the handle is dragged. The halves share the room
    // evenly: with 3:2 for the charts, the Comparison table showed two of four rows at 1024x700
    // (issue 61.5).
    split->setChildrenCollapsible(false);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    layout->addWidget(split, 1);

    for (auto* c : {metric_, bars_, axis_}) connect(c, qOverload<int>(&QComboBox::currentIndexChanged), this, &ResultsPage::refresh);
    for (auto* c : {logX_, usl_}) connect(c, &QCheckBox::toggled, this, &ResultsPage::refresh);
    connect(compare_, &ComparisonPanel::choiceChanged, this, &ResultsPage::refreshComparison);
    connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);
    // A point's figures beside the pointer, as a tooltip: shown in a label under the chart they
    // took three lines and pushed the lower half away from the pointer (issue 61.5).
    connect(chart_, &ScalingChartView::pointHovered, this, [this](const QString& text, bool on) {
        // QToolTip draws text that looks like markup as rich text; the figures hold the series'
        // label (user text, issue 31.3): escaped inside markup of our own, lines kept.
        if (on)
            QToolTip::showText(QCursor::pos(),
                               QStringLiteral("<p style='white-space:pre'>%1</p>").arg(text.trimmed().toHtmlEscaped()), chart_);
        else QToolTip::hideText();
    });
    // The model shows the edit at once; the file is written off the GUI thread. A failed write
    // says why and shows what the file holds again.
    connect(runs_, &RunsTableModel::exclusionChanged, this, [this](qint64 id, bool excluded) {
        ++edits_;
        if (!path_.isEmpty())
            store_->setExcluded(path_, id, excluded, [this] { emit runsEdited(); },
                                [this](const QString& error) { writeFailed(tr("Exclude run"), error); });
        refresh();
    });
    connect(runs_, &RunsTableModel::noteChanged, this, [this](qint64 id, const QString& note) {
        ++edits_;
        if (!path_.isEmpty())
            store_->setRunNote(path_, id, note, [this] { emit runsEdited(); },
                               [this, id](const QString& error) { writeFailed(tr("Note on run %1").arg(id), error); });
    });
    connect(runsView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid()) showRunDetail(proxy_->mapToSource(current).row());
            });
}

ScalingView ResultsPage::view() const {
    ScalingView v;
    v.metric = parseRunMetric(metric_->currentData().toString().toStdString());
    v.bars = static_cast<ErrorBars>(bars_->currentIndex());
    v.confidence = 0.95;
    v.logX = logX_->isChecked();
    v.usl = usl_->isChecked() && isThroughputMetric(v.metric);
    v.axis = axis_->isHidden() ? PointAxis::Clients : parsePointAxis(axis_->currentData().toString().toStdString());
    if (!hidden_.isEmpty())
        for (const auto& s : seriesOrder_)
            if (!hidden_.contains(QString::fromStdString(s))) v.series << QString::fromStdString(s);
    return v;
}

ReportChoice ResultsPage::choice() const { return compare_->choice(); }

QTableWidget* ResultsPage::comparisonTable() const { return compare_->table(); }

void ResultsPage::showSeries(const QStringList& series) {
    hidden_.clear();
    if (!series.isEmpty())
        for (const auto& s : seriesOrder_)
            if (!series.contains(QString::fromStdString(s))) hidden_ << QString::fromStdString(s);
    offerSeries();
    refresh();
}

void ResultsPage::offerSeries() {
    QMenu* menu = seriesButton_->menu();
    menu->clear();
    for (const auto& s : seriesOrder_) {
        QString label = QString::fromStdString(s);
        QAction* a = menu->addAction(label);
        a->setCheckable(true);
        a->setChecked(!hidden_.contains(label));
        connect(a, &QAction::toggled, this, [this, label](bool on) {
            if (on) hidden_.removeAll(label);
            else hidden_ << label;
            refresh();
        });
    }
    seriesButton_->setEnabled(!seriesOrder_.empty());
    seriesButton_->setText(hidden_.isEmpty() ? tr("Series") : tr("Series (%1 hidden)").arg(hidden_.size()));
}

void ResultsPage::clear() {
    ++generation_;
    follow_->stop();
    followNote_->hide();
    fileState_.clear();
    loading_ = following_ = adding_ = storedDuringRead_ = false;
    detailRun_ = -1;
    path_.clear();
    seriesOrder_.clear();
    runs_->setRuns({});
    provenance_.clear();
    statementTexts_.clear();
    hidden_.clear();
    added_ = CombinedRuns{};
    addedFiles_.clear();
    offerSeries();
    refresh();
}

std::vector<RunRecord> ResultsPage::allRuns() const {
    std::vector<RunRecord> all = runs_->runs();
    all.insert(all.end(), added_.runs.begin(), added_.runs.end());
    return all;
}

std::vector<nlohmann::json> ResultsPage::allProvenance() const {
    std::vector<nlohmann::json> all = provenance_;
    all.insert(all.end(), added_.provenance.begin(), added_.provenance.end());
    return all;
}

void ResultsPage::removeAddedExperiments() {
    for (const auto& label : added_.order) seriesOrder_.erase(std::remove(seriesOrder_.begin(), seriesOrder_.end(), label), seriesOrder_.end());
    for (const auto& label : added_.order) hidden_.removeAll(QString::fromStdString(label));
    added_ = CombinedRuns{};
    addedFiles_.clear();
    offerSeries();
    offerMetricsPresent();
    refresh();
}

bool ResultsPage::knowsSeries(const std::string& label) const {
    return std::find(seriesOrder_.begin(), seriesOrder_.end(), label) != seriesOrder_.end();
}

void ResultsPage::mergeSeriesOrder(const std::vector<StoredSeries>& series) {
    size_t before = seriesOrder_.size();
    for (const auto& s : series)
        if (!knowsSeries(s.label)) seriesOrder_.push_back(s.label);
    if (seriesOrder_.size() != before) offerSeries();
}

// The x menu shows when the runs have another axis than clients (some run offered a rate,
// several data scales); it starts at the axis the runs call for (naturalAxis) and keeps the
// user's choice after.
void ResultsPage::offerAxes() {
    std::vector<RunRecord> runs = allRuns();
    bool rated = std::any_of(runs.begin(), runs.end(), [](const RunRecord& r) { return offeredRateOf(r) > 0; });
    std::set<int64_t> scales;
    for (const auto& r : runs) scales.insert(dataScaleOf(r));
    QStringList axes{QStringLiteral("clients")};
    if (rated) axes << QStringLiteral("rate");
    if (scales.size() > 1) axes << QStringLiteral("scale");
    QStringList offered;
    for (int i = 0; i < axis_->count(); ++i) offered << axis_->itemData(i).toString();
    bool wasShown = !axis_->isHidden();
    axis_->setHidden(axes.size() == 1);
    axisLabel_->setHidden(axes.size() == 1);
    if (axes == offered && wasShown) return;
    QSignalBlocker block(axis_);
    QString chosen = wasShown ? axis_->currentData().toString() : QString::fromLatin1(pointAxisName(naturalAxis(runs)));
    axis_->clear();
    for (const QString& a : axes)
        axis_->addItem(tr(pointAxisWords(parsePointAxis(a.toStdString()))), a);
    axis_->setCurrentIndex(std::max(0, static_cast<int>(axes.indexOf(chosen))));
}

ViewRuns ResultsPage::shownRuns() const { return onViewAxis(allRuns(), seriesOrder_, view()); }

void ResultsPage::offerMetricsPresent() {
    offerAxes();
    QStringList names;
    std::vector<RunMetric> present = metricsPresent(allRuns());
    for (RunMetric m : present) names << QString::fromLatin1(runMetricName(m));
    QStringList current;
    for (int i = 0; i < metric_->count(); ++i) current << metric_->itemData(i).toString();
    if (names == current) return;
    QString chosen = metric_->currentData().toString();
    QSignalBlocker block(metric_);
    metric_->clear();
    for (RunMetric m : present) metric_->addItem(QString::fromLatin1(runMetricLabel(m)), QString::fromLatin1(runMetricName(m)));
    metric_->setCurrentIndex(std::max(0, static_cast<int>(names.indexOf(chosen))));
}

void ResultsPage::refresh() {
    ViewRuns on;
    QString axisProblem;
    try {
        on = shownRuns();
    } catch (const std::exception& e) {  // the runs cannot be on the axis chosen (a rate not in whole tps)
        QSignalBlocker block(axis_);
        axis_->setCurrentIndex(0);
        on = shownRuns();
        axisProblem = errorText(e);
    }
    const ScalingView& shown = on.view;
    const std::vector<RunRecord>& runs = on.runs;
    const std::vector<std::string>& order = on.order;
    RunMetric metric = shown.metric;
    bool clientAxis = shown.axis == PointAxis::Clients;
    logX_->setText(tr("log2 %1").arg(QString::fromLatin1(pointAxisName(shown.axis))));
    // The USL describes throughput by clients only.
    usl_->setEnabled(isThroughputMetric(metric) && clientAxis);
    usl_->setToolTip(usl_->isEnabled() ? QString()
                     : clientAxis      ? tr("The USL describes throughput (tps, logical reads)")
                                       : tr("The USL describes scaling with clients, not with the offered rate"));
    emptyNote_->setVisible(runs.empty() && path_.isEmpty());
    data_ = buildScalingData(runs, order, shown);
    ThisMachine here{hostname_, static_cast<int>(machine_.cores.size()), machine_.puCount()};
    std::vector<nlohmann::json> provenance = provenance_;
    provenance.insert(provenance.end(), added_.provenance.begin(), added_.provenance.end());
    if (clientAxis) data_.markers = markerViews(machineMarkers(runs, provenance, here));  // cores are a client count
    chart_->setData(data_, logX_->isChecked());
    emit pointsChanged(data_.pointCount());
    QStringList fits;
    for (const auto& s : data_.series)
        if (!s.fitText.isEmpty()) fits << s.label + QStringLiteral(": ") + s.fitText;
    if (!axisProblem.isEmpty()) fits.prepend(axisProblem);
    fitText_->setText(fits.join(QLatin1Char('\n')));
    fitText_->setVisible(!fits.isEmpty());  // no empty band under the chart

    compare_->setSeries(order);
    refreshComparison();
    refreshDistribution();
    refreshRounds();
    refreshThroughput();
    StatementTexts texts = statementTexts_;
    texts.insert(added_.statementTexts.begin(), added_.statementTexts.end());
    statements_->setData(pointStatements(runs, order), std::move(texts), order, shown.axis);
    waits_->setData(pointWaits(runs, order), order, shown.axis);
    profile_->setData(pointProfiles(runs, order), order, shown.axis);

    // Peaks are of a client axis: on the rate axis the highest tps is the highest rate offered.
    std::vector<SeriesPoint> summaries =
        clientAxis ? summarizePoints(pointRuns(shown.runsDrawn(runs), order, metric), 0.95) : std::vector<SeriesPoint>{};
    peak_->setRowCount(0);
    if (!summaries.empty()) {
        auto rows = scalelab::peakTable(summaries, summaries.front().series);
        for (const auto& r : rows) {
            int row = peak_->rowCount();
            peak_->insertRow(row);
            peak_->setItem(row, 0, readOnlyCell(QString::fromStdString(r.series)));
            peak_->setItem(row, 1, readOnlyCell(QString::number(r.clients)));
            peak_->setItem(row, 2, readOnlyCell(QString::number(r.at.mean, 'f', 1)));
            peak_->setItem(row, 3, readOnlyCell(!r.at.ciLow         ? tr("one run")
                                                : r.at.ciLowClamped ? tr("0 (clamped) .. %1").arg(*r.at.ciHigh, 0, 'f', 1)
                                                                    : QStringLiteral("%1 .. %2").arg(*r.at.ciLow, 0, 'f', 1).arg(*r.at.ciHigh, 0, 'f', 1)));
            if (r.at.ciLowClamped)
                peak_->item(row, 3)->setToolTip(tr("The interval reached below 0 and is clamped there: too few runs, or "
                                                    "runs far apart. More runs narrow it."));
            peak_->setItem(row, 4, readOnlyCell(numberOrMissing(r.percentOfBaseline, 1, QStringLiteral("%"))));
        }
    }
}

void ResultsPage::refreshComparison() {
    ViewRuns on = shownRuns();
    compare_->refresh(on.runs, on.order, on.view.metric, on.view.logX, on.view.axis);
}

} // namespace scalelab::ui

namespace scalelab::ui {

void ResultsPage::refreshDistribution() {
    ViewRuns on = shownRuns();
    int wanted = latencyClientsChosen_ ? latencyClients_->currentData().toInt() : 0;  // 0: the highest
    DistributionData d;
    try {
        d = buildDistributionData(on.runs, on.order, on.view.drawn(on.order), wanted);
        d.axis = on.view.axis;
        if (auto* label = latencyClients_->parentWidget()->findChild<QLabel*>(QStringLiteral("choiceLabel")))
            label->setText(tr(pointAxisHeading(d.axis)));
    } catch (const std::exception& e) {  // a damaged histogram names its run
        latencyNote_->setText(QString::fromStdString(e.what()));
        return;
    }
    {
        QSignalBlocker quiet(latencyClients_);
        latencyClients_->clear();
        for (int c : d.clientCounts) latencyClients_->addItem(QString::number(c), c);
        latencyClients_->setCurrentIndex(latencyClients_->findData(d.clients));
    }
    latencyChart_->setData(d);
    latencyNote_->setText(d.clientCounts.isEmpty()
                              ? tr("No run here has a latency histogram: ScaleLab keeps one with each run of a sweep "
                                   "since version 0.1 (older and imported runs have none).")
                              : d.note);
}

void ResultsPage::refreshRounds() {
    auto p = static_cast<LatencyPercentile>(roundsPercentile_->currentData().toInt());
    ViewRuns on = shownRuns();
    BoxPlotData d = buildBoxPlotData(on.runs, on.order, on.view.drawn(on.order), p);
    d.axis = on.view.axis;
    roundsChart_->setData(d);
    roundsNote_->setText(d.note);
}

void ResultsPage::refreshThroughput() {
    ThroughputY y = parseThroughputY(throughputY_->currentData().toString().toStdString(), "the y menu");
    ViewRuns on = shownRuns();
    LatencyThroughputData d = buildLatencyThroughputData(on.runs, on.order, on.view.drawn(on.order), y, on.view.axis);
    throughputChart_->setData(d, throughputLogY_->isChecked());
    throughputNote_->setText(d.note);
}

} // namespace scalelab::ui
