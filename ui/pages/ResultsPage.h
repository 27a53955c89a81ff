#pragma once
// Results of an experiment: the scaling chart (metric, error bars, log2 x, USL fits), a
// comparison of two series, the peak table, the runs table (sortable, filterable, runs can be
// excluded and included again) and the selected run's timeline.
#include "models/RunsTableModel.h"
#include "models/ScalingData.h"
#include "store/ExperimentStore.h"
#include "topo/Topology.h"

#include <QWidget>

class QCheckBox;
class QChartView;
class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;
class QTableWidget;

namespace scalelab::ui {

class ScalingChart;
class TimelineChart;

class ResultsPage : public QWidget {
    Q_OBJECT
public:
    explicit ResultsPage(const TopologyInfo& machine, QWidget* parent = nullptr);

    // Reads everything from the experiment file (the page keeps no file open).
    void load(const QString& experimentPath);
    void addRun(const RunRecord& run);  // a run just finished during a sweep
    void clear();

    ScalingChart* chart() const { return chart_; }
    const ScalingData& data() const { return data_; }
    QTableWidget* comparisonTable() const { return comparison_; }
    QTableWidget* peakTable() const { return peak_; }
    RunsTableModel* runsModel() const { return runs_; }
    QComboBox* metricCombo() const { return metric_; }

public slots:
    void refresh();

private:
    void refreshComparison();
    void offerMetricsPresent();  // the metric menu lists only metrics the runs have
    void showRunDetail(int sourceRow);

    TopologyInfo machine_;
    std::string hostname_;                      // with machine_: which runs were measured here
    std::vector<nlohmann::json> provenance_;    // of the open experiment
    QString path_;
    std::vector<std::string> seriesOrder_;
    ScalingData data_;
    ScalingChart* chart_;
    QChartView* chartView_;
    QLabel *tooltip_, *fitText_;
    QComboBox *metric_, *bars_, *baseline_, *candidate_;
    QCheckBox *logX_, *usl_, *paired_;
    QTableWidget *comparison_, *peak_;
    RunsTableModel* runs_;
    QSortFilterProxyModel* proxy_;
    QTableView* runsView_;
    QLineEdit* filter_;
    TimelineChart* detail_;
};

} // namespace scalelab::ui
