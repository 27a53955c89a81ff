#pragma once
// The Results page's Comparison tab: two series chosen, the curve's verdict in words, per
// client count the change, its interval, the corrected p-value, the verdict and the runs a
// point would need (core/stats/Verdict: the same answer as `scalelab report --compare`); and
// for the Ratio tab the ratio chart of the same choice, compared / baseline by clients
// (`export --ratio`), with the width of the page.
#include "charts/ReportExport.h"
#include "models/ScalingData.h"
#include "stats/ExperimentPoints.h"

#include <QWidget>

#include <string>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QTableWidget;

namespace scalelab::ui {

class ScalingChartView;

// The comparison table's columns; ColSame shows only with an equivalence margin.
enum CompareColumn { ColX, ColBaseline, ColCompared, ColChange, ColInterval, ColP, ColPAdjusted, ColVerdict, ColRuns, ColSame,
                     CompareColumns };

class ComparisonPanel : public QWidget {
    Q_OBJECT
public:
    explicit ComparisonPanel(QWidget* parent = nullptr);

    // Offers the series; keeps the choice when it is still there, and never one series twice
    // while there are two.
    void setSeries(const std::vector<std::string>& order);
    // `axis`: what the runs' `clients` are (the page put them on it: onViewAxis).
    void refresh(const std::vector<RunRecord>& runs, const std::vector<std::string>& order, RunMetric metric, bool logX,
                 PointAxis axis = PointAxis::Clients);
    ReportChoice choice() const;

    QTableWidget* table() const { return table_; }
    QLabel* summary() const { return summary_; }
    QComboBox* baselineCombo() const { return baseline_; }
    QComboBox* candidateCombo() const { return candidate_; }
    QDoubleSpinBox* equivalenceBox() const { return equivalence_; }
    const ScalingData& ratioData() const { return ratio_; }  // empty when nothing is compared
    ScalingChartView* ratioChart() const { return ratioChart_; }  // hidden when nothing is compared
    QWidget* ratioView() const { return ratioView_; }              // the chart and what it shows, for a tab
    QLabel* ratioNote() const { return ratioNote_; }

signals:
    void choiceChanged();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void message(const QString& text);  // one row across the table, and no summary

    QComboBox *baseline_, *candidate_;
    QCheckBox* paired_;
    QDoubleSpinBox* equivalence_;  // 0: off; else the margin of "the same within X%"
    QLabel* summary_;
    QTableWidget* table_;
    void showRatio(const QString& why);  // the chart, or why there is none

    ScalingData ratio_;
    QWidget* ratioView_;
    ScalingChartView* ratioChart_;
    QLabel* ratioNote_;
    PointAxis axis_ = PointAxis::Clients;  // of the last refresh
};

} // namespace scalelab::ui
