#pragma once
// The Results page's Comparison tab: two series chosen, the curve's verdict in words, and per
// client count the change, its interval, the corrected p-value, the verdict and the runs a
// point would need (core/stats/Verdict: the same answer as `scalelab report --compare`).
#include "charts/ReportExport.h"
#include "stats/ExperimentPoints.h"

#include <QWidget>

#include <string>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QTableWidget;

namespace scalelab::ui {

class ComparisonPanel : public QWidget {
    Q_OBJECT
public:
    explicit ComparisonPanel(QWidget* parent = nullptr);

    // Offers the series; keeps the choice when it is still there, and never one series twice
    // while there are two.
    void setSeries(const std::vector<std::string>& order);
    void refresh(const std::vector<RunRecord>& runs, const std::vector<std::string>& order, RunMetric metric);
    ReportChoice choice() const;

    QTableWidget* table() const { return table_; }
    QLabel* summary() const { return summary_; }
    QComboBox* baselineCombo() const { return baseline_; }
    QComboBox* candidateCombo() const { return candidate_; }

signals:
    void choiceChanged();

private:
    void message(const QString& text);  // one row across the table, and no summary

    QComboBox *baseline_, *candidate_;
    QCheckBox* paired_;
    QLabel* summary_;
    QTableWidget* table_;
};

} // namespace scalelab::ui
