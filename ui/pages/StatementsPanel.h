#pragma once
// The Results page's Statements tab: what the server ran (pg_stat_statements over each run's
// counted window, docs/sweeps.md "What the server ran"). One series at a client count: its
// statements by time; against another series: the statements whose mean time changed most,
// judged as tps is (core/stats/StatementReport: the same answer as `report --statements`).
#include "stats/StatementReport.h"
#include "store/StatementTexts.h"

#include "stats/PointAxis.h"

#include <QWidget>

#include <string>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QTableWidget;

namespace scalelab::ui {

class PointChoice;

class StatementsPanel : public QWidget {
    Q_OBJECT
public:
    explicit StatementsPanel(QWidget* parent = nullptr);

    // The experiment's points and texts; keeps the choices that are still there.
    // `axis`: what the points' `clients` are (the page put the runs on it).
    void setData(std::vector<PointStatements> points, StatementTexts texts, const std::vector<std::string>& order,
                 PointAxis axis = PointAxis::Clients);

    QComboBox* seriesCombo() const;
    QComboBox* againstCombo() const;  // item 0: none (the series' own list)
    QComboBox* clientsCombo() const;
    QCheckBox* pairedBox() const;
    QTableWidget* table() const { return table_; }
    QLabel* note() const { return note_; }

private:
    void refresh();
    void showTop(const PointStatements& point);
    void showComparison(const PointStatements& a, const PointStatements& b);
    const PointStatements* find(const std::string& series, int clients) const;

    PointChoice* choice_;  // the series, against, x and paired choices (shared with Waits and CPU profile)
    QTableWidget* table_;
    QLabel* note_;
    std::vector<PointStatements> points_;
    StatementTexts texts_;
    PointAxis axis_ = PointAxis::Clients;
};

} // namespace scalelab::ui
