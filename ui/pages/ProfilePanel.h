#pragma once
// The Results page's CPU profile tab (issue 62): where the server's CPU went at one point, its
// rounds merged (diagnostics.cpu_profile): a flame graph (search, click to zoom) beside the
// functions by self time per 1,000 transactions; against another series, B's differential flame
// graph (red where B spends more per transaction, blue where less) beside the functions whose
// self time changed, with intervals over the rounds (core/stats/ProfileReport: the same answer
// as `report --profile --compare`).
#include "stats/PointAxis.h"
#include "stats/ProfileReport.h"

#include <QWidget>

#include <string>
#include <vector>

class QLabel;
class QLineEdit;
class QTableWidget;

namespace scalelab::ui {

class FlameGraphView;
class PointChoice;

class ProfilePanel : public QWidget {
    Q_OBJECT
public:
    explicit ProfilePanel(QWidget* parent = nullptr);

    void setData(std::vector<PointProfile> points, const std::vector<std::string>& order, PointAxis axis);

    PointChoice* choice() const { return choice_; }
    FlameGraphView* flame() const { return flame_; }
    QLineEdit* search() const { return search_; }
    QTableWidget* table() const { return table_; }
    QLabel* note() const { return note_; }

private:
    void refresh();
    void showPoint(const PointProfile& p);
    void showComparison(const PointProfile& a, const PointProfile& b);
    const PointProfile* find(const std::string& series, int x) const;
    QString without(const PointProfile& p) const;  // its runs without, in words; empty when none

    PointChoice* choice_;
    QLineEdit* search_;
    QLabel* matched_;
    FlameGraphView* flame_;
    QTableWidget* table_;
    QLabel* note_;
    std::vector<PointProfile> points_;
};

} // namespace scalelab::ui
