#pragma once
// The Results page's Waits tab (issue 62): where a series' sessions waited at each x, stacked
// by wait event (average active sessions: "active session history by load"), beside one point's
// events (sessions, share, wait time per transaction with its interval); against another series,
// the events whose wait time per transaction changed at that x, judged as tps is
// (core/stats/WaitReport: the same answer as `report --waits --compare`).
#include "stats/PointAxis.h"
#include "stats/WaitReport.h"

#include <QWidget>

#include <string>
#include <vector>

class QLabel;
class QTableWidget;

namespace scalelab::ui {

class PointChoice;
class WaitsChartView;

class WaitsPanel : public QWidget {
    Q_OBJECT
public:
    explicit WaitsPanel(QWidget* parent = nullptr);

    void setData(std::vector<PointWaits> points, const std::vector<std::string>& order, PointAxis axis);

    PointChoice* choice() const { return choice_; }
    WaitsChartView* chart() const { return chart_; }
    QTableWidget* table() const { return table_; }
    QLabel* note() const { return note_; }

private:
    void refresh();
    void showPoint(const PointWaits& p);
    void showComparison(const PointWaits& a, const PointWaits& b);
    const PointWaits* find(const std::string& series, int x) const;
    QString without(const PointWaits& p) const;  // its runs without, in words; empty when none

    PointChoice* choice_;
    WaitsChartView* chart_;
    QTableWidget* table_;
    QLabel* note_;
    std::vector<PointWaits> points_;
};

} // namespace scalelab::ui
