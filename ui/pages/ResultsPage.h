#pragma once
// Results of an experiment: the scaling chart (metric, error bars, log2 x, USL fits), a
// comparison of two series, the peak table, the runs table (sortable, filterable, runs can be
// excluded and included again) and the selected run's timeline.
#include "bridge/ExperimentBridge.h"
#include "charts/ReportExport.h"
#include "models/RunsTableModel.h"
#include "models/ScalingData.h"
#include "store/ExperimentStore.h"
#include "topo/Topology.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;
class QTableWidget;
class QTimer;
class QToolButton;

namespace scalelab::ui {

class ComparisonPanel;
class BoxPlotChartView;
class LatencyThroughputChartView;
class DistributionChartView;
class StatementsPanel;
class WaitsPanel;
class ProfilePanel;
class ScalingChartView;
class TimelineChartView;

class ResultsPage : public QWidget {
    Q_OBJECT
public:
    explicit ResultsPage(const TopologyInfo& machine, QWidget* parent = nullptr);

    // Reads everything from the experiment file off the GUI thread (the page keeps no file
    // open), then shows it and emits loaded(); until then the page shows what it showed, and on
    // an error it keeps it and emits loadFailed(). Then follows the file: every 2 s a file that
    // changed (another ScaleLab's sweep writing it) is read again.
    void load(const QString& experimentPath);
    bool loading() const { return loading_; }
    // The file a sweep of this window is about to write (it may not exist yet), with the plan's
    // series in the plan's order (their colours): followed as load() follows a file, from empty.
    void watch(const QString& experimentPath, const std::vector<std::string>& seriesOrder);
    // The window's sweep just stored a run in the file watched: read it now, not at the next
    // tick. The file is the one road by which runs reach the page.
    void runStored();
    void clear();

    // What the chart shows now (metric, error bars, axis, USL, series) and the comparison the
    // tables hold: the window's exports draw exactly this.
    ScalingView view() const;
    ReportChoice choice() const;
    const QString& path() const { return path_; }
    // "HEAD last week against the patch today": the series of another experiment file, named
    // "LABEL [FILE]", join the chart, tables and exports (nothing is written to either file).
    // The file is read off the GUI thread; experimentAdded() says when, with "" or why not.
    void addExperiment(const QString& otherPath);
    void removeAddedExperiments();
    const QStringList& addedExperiments() const { return addedFiles_; }
    std::vector<RunRecord> allRuns() const;  // the file's runs and the added ones
    std::vector<nlohmann::json> allProvenance() const;  // the file's sessions and the added files'
    const std::vector<std::string>& seriesOrder() const { return seriesOrder_; }

    // Draw only these series (empty: all); the Series menu does the same.
    void showSeries(const QStringList& series);
    QToolButton* seriesButton() const { return seriesButton_; }

    ScalingChartView* chart() const { return chart_; }
    TimelineChartView* runChart() const { return detail_; }  // the selected run's tps
    QLabel* runHostsLabel() const { return runHosts_; }      // the selected run's load hosts (hidden without)
    const ScalingData& data() const { return data_; }
    QTableWidget* comparisonTable() const;
    ComparisonPanel* comparison() const { return compare_; }
    // "Scaling curves", "Ratio" and "Latency": the charts in the upper half of the page.
    QTabWidget* chartTabs() const { return charts_; }
    DistributionChartView* distributionChart() const { return latencyChart_; }
    QComboBox* distributionClients() const { return latencyClients_; }  // the client count the distribution is at
    QLabel* distributionNote() const { return latencyNote_; }
    BoxPlotChartView* roundsChart() const { return roundsChart_; }
    LatencyThroughputChartView* throughputChart() const { return throughputChart_; }
    QComboBox* throughputYCombo() const { return throughputY_; }
    QCheckBox* throughputLogY() const { return throughputLogY_; }
    QLabel* throughputNote() const { return throughputNote_; }
    QComboBox* roundsPercentile() const { return roundsPercentile_; }  // the percentile the box plots are of
    QLabel* roundsNote() const { return roundsNote_; }
    QTableWidget* peakTable() const { return peak_; }
    RunsTableModel* runsModel() const { return runs_; }
    QComboBox* metricCombo() const { return metric_; }
    QComboBox* axisCombo() const { return axis_; }  // shown when runs have an offered rate
    QLineEdit* runsFilter() const { return filter_; }
    QSortFilterProxyModel* runsProxy() const { return proxy_; }
    QTableView* runsView() const { return runsView_; }
    StatementsPanel* statements() const { return statements_; }
    WaitsPanel* waits() const { return waits_; }
    ProfilePanel* profile() const { return profile_; }

    QLabel* followNote() const { return followNote_; }
    QLabel* emptyNote() const { return emptyNote_; }  // shown while there is nothing to show
    QTimer* followTimer() const { return follow_; }

signals:
    void pointsChanged(int points);  // after each refresh: how many points the chart draws
    void runsEdited();               // a run's exclusion or note was written into the file
    void loaded(const QString& path);
    void loadFailed(const QString& path, const QString& error);
    void experimentAdded(const QString& otherPath, const QString& error);  // error "": added
    void runShown(qint64 runId);  // the selected run's samples are drawn

public slots:
    void refresh();
    // Reads the file again when it changed since the last look, off the GUI thread (the page
    // shows what was read when the read ends); says when a writer holds it.
    void followFile();

private:
    void followStore();
    void readAgain();
    void refreshComparison();
    void refreshDistribution();
    void refreshRounds();
    void refreshThroughput();
    void offerMetricsPresent();  // the metric menu lists only metrics the runs have; the x menu, the axes they have
    void offerAxes();
    ViewRuns shownRuns() const;  // the runs and series of the view, on its axis (onViewAxis)
    void offerSeries();          // the Series menu lists the experiment's series
    bool knowsSeries(const std::string& label) const;
    void mergeSeriesOrder(const std::vector<StoredSeries>& series);  // the file's order, appended
    void showRunDetail(int sourceRow);
    void showRuns(std::vector<RunRecord> runs);  // the file's runs again, after a failed write
    void writeFailed(const QString& what, const QString& error);

    TopologyInfo machine_;
    std::string hostname_;                      // with machine_: which runs were measured here
    std::vector<nlohmann::json> provenance_;    // of the open experiment
    StatementTexts statementTexts_;             // of the open experiment
    QString path_;
    std::vector<std::string> seriesOrder_;
    ScalingData data_;
    ScalingChartView* chart_;
    QLabel* fitText_;
    QLabel* emptyNote_ = nullptr;  // what to do on an empty page
    QComboBox *metric_, *bars_, *axis_;
    QLabel* axisLabel_;
    QCheckBox *logX_, *usl_;
    QToolButton* seriesButton_;
    QStringList hidden_;                        // series the user took off the chart
    CombinedRuns added_;                        // runs, series and provenance of added files
    QStringList addedFiles_;
    ComparisonPanel* compare_;
    QTabWidget* charts_;
    DistributionChartView* latencyChart_;
    BoxPlotChartView* roundsChart_;
    LatencyThroughputChartView* throughputChart_;
    QComboBox* throughputY_;
    QCheckBox* throughputLogY_;
    QLabel* throughputNote_;
    QComboBox* roundsPercentile_;
    QLabel* roundsNote_;
    StatementsPanel* statements_;
    WaitsPanel* waits_;
    ProfilePanel* profile_;
    QComboBox* latencyClients_;
    bool latencyClientsChosen_ = false;  // the user picked a count (else the highest is shown)
    QLabel* latencyNote_;
    QTableWidget* peak_;
    RunsTableModel* runs_;
    QSortFilterProxyModel* proxy_;
    QTableView* runsView_;
    QLineEdit* filter_;
    TimelineChartView* detail_;
    QLabel* runHosts_;
    qint64 detailRun_ = -1;                     // the run whose samples the run chart shows or awaits
    QLabel* followNote_;
    QTimer* follow_;
    ExperimentBridge* store_;                   // every read and write of a file, off the GUI thread
    quint64 generation_ = 0;                    // a load or clear drops a read in flight
    bool loading_ = false, following_ = false, adding_ = false;  // reads in flight
    bool storedDuringRead_ = false;  // runStored() while a follow read was in flight: read again after it
    bool checking_ = false;  // an experiment in a results store: its state is being asked for
    quint64 edits_ = 0;  // exclusions and notes written: a follow read from before one is stale
    QString fileState_;  // sizes and times of the file and its -wal (a store: its change mark) at the last read
};

} // namespace scalelab::ui
